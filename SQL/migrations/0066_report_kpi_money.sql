-- kpis' paid transactions, refunds and chargebacks from what the second session already holds (issue 31;
-- Reports/README.md, "KPIs").
--
-- kpis counted each month's paid charges, refunds and chargebacks by reading the months' history rows with the
-- subscriptions that count, in the job's session: 1.4 s of a 1M night for the month it computes, on the job's own
-- chain. The same counts are sums of what the second session fills for refunds anyway: the paid counts
-- (`report_run_paid_count`, 0056, per month, provider and currency) and the refund facts (`report_run_refund_fact`,
-- 0064, one row per refund with its month, provider, kind and refunded key). So:
--   * `report_kpi_money(as_of, basis)`: per month and subscription provider, the paid transactions and the distinct
--     refunded keys of refunds and of chargebacks by the month of the refund, from those two (each computed from the
--     history when the run did not fill it);
--   * the second session computes it once both are filled and hands its rows to the job, which fills a temporary
--     `report_kpi_money_run` before its files run; kpis reads `report_run_kpi_money` (the run's, else computed).

CREATE FUNCTION report_kpi_money(as_of timestamptz, basis text)
RETURNS TABLE (month date, provider text, paid numeric, refunded bigint, chargebacks bigint)
LANGUAGE sql STABLE AS $fn$
SELECT m.month, m.provider, sum(m.paid), sum(m.refunded)::bigint, sum(m.chargebacks)::bigint
FROM (SELECT p.month, p.provider, p.paid_count AS paid, 0 AS refunded, 0 AS chargebacks
      FROM report_run_paid_count($1, $2) p
      UNION ALL
      -- (a refunded key once per month, provider and kind)
      SELECT (date_trunc('month', f.refund_at AT TIME ZONE 'UTC'))::date, f.provider, 0,
             count(DISTINCT f.refunded_key) FILTER (WHERE f.refund_kind = 'REFUND'),
             count(DISTINCT f.refunded_key) FILTER (WHERE f.refund_kind = 'CHARGEBACK')
      FROM report_run_refund_fact($1, $2) f
      WHERE f.refund_kind IN ('REFUND', 'CHARGEBACK')
      GROUP BY 1, 2) m
GROUP BY m.month, m.provider
$fn$;
COMMENT ON FUNCTION report_kpi_money(timestamptz, text) IS
    'kpis'' paid transactions, refunded and charged-back keys per month and subscription provider as of $1 under basis $2, from the run''s paid counts and refund facts (migration 0066).';

-- The run's rows: the job fills a temporary report_kpi_money_run; the placeholder is always empty.
CREATE TABLE report_kpi_money_run (month date, provider text, paid numeric, refunded bigint, chargebacks bigint,
                                   CONSTRAINT report_kpi_money_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_kpi_money_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0066).';

CREATE FUNCTION report_run_kpi_money(as_of timestamptz, basis text)
RETURNS TABLE (month date, provider text, paid numeric, refunded bigint, chargebacks bigint)
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_kpi_money_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'kpi_money' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_kpi_money($1, $2) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'kpi_money' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_kpi_money(timestamptz, text) IS
    'The run''s kpis money rows (report_kpi_money_run) when build-reports filled them for this as-of instant and basis; report_kpi_money($1, $2) otherwise (migration 0066).';
