-- refunds' paid counts leave the test and sandbox subscriptions out once per run (issue 31; Reports/README.md,
-- "Stored paid counts").
--
-- `report_run_paid_count` (0056) subtracted `report_paid_count_excluded` (the charges of the subscriptions that do not
-- count, over the whole history) on every call, also when the run had filled its paid counts; the second session
-- calls it twice a run (`refunds`, and `kpis`' money since 0066), 0.66 s each at 1M subscriptions. Now the run's
-- table holds the excluded part too (negated, beside the row part: `PaidCounts.fill` adds it once, after handing the
-- row part to the store), and the function subtracts it only when it computes the counts itself (a file run by hand,
-- a run that filled none). The same counts either way.
CREATE OR REPLACE FUNCTION report_run_paid_count(as_of timestamptz, basis text)
RETURNS TABLE (month date, provider text, currency text, paid_count bigint)
LANGUAGE sql STABLE AS $fn$
SELECT p.month, p.provider, p.currency, sum(p.paid_count)::bigint
FROM (SELECT r.month, r.provider, r.currency, r.paid_count FROM report_paid_count_run r
      WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'paid_count' AND f.as_of = $1 AND f.basis = $2)
      UNION ALL
      SELECT c.month, c.provider, c.currency, c.paid_count FROM report_paid_count($1, $2, NULL) c
      WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'paid_count' AND f.as_of = $1 AND f.basis = $2)
      UNION ALL
      SELECT e.month, e.provider, e.currency, -e.paid_count FROM report_paid_count_excluded($1, $2) e
      WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'paid_count' AND f.as_of = $1 AND f.basis = $2)) p
GROUP BY 1, 2, 3
$fn$;
COMMENT ON FUNCTION report_run_paid_count(timestamptz, text) IS
    'refunds'' paid counts as of $1 under basis $2 (test and sandbox subscriptions left out): the run''s table (report_paid_count_run: its row part and the excluded part negated) when build-reports filled it for this as-of instant and basis, report_paid_count($1, $2, NULL) less report_paid_count_excluded otherwise (migrations 0056, 0070).';
