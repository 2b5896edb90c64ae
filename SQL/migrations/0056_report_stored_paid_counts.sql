-- refunds' paid-charge counts from a stored month part (issue 31; Reports/README.md, "Stored paid counts").
--
-- refunds divides the refunded charges of a month by the paid charges of that month, provider and currency, and
-- counted those over every charge of the history: 7.5 s of a 1M night for one day of new rows. The count splits the
-- way the month history does (0054):
--   * the row part: per month of effective_at, the subscription's provider and the row's currency, the paid charges
--     read of every subscription. A month's count moves only when a row of it changes, or its subscription's
--     provider, or a row's "read by then" flag flips: what the candidates since a store name, each with the earliest
--     instant it reaches (`report_history_changed`, 0053). So the run that stores the spans stores it beside them
--     (`report_stored_paid_count`, same transaction, same as-of instant and snapshot), and a night computes it only
--     from the month of the earliest candidate instant on (by the (provider, event type, effective_at) index) and
--     takes the months before from the store;
--   * the excluded part: the same counts of the excluded (test, sandbox) subscriptions, computed whole every time and
--     subtracted: they are few (the test rows by their partial index), and a newly excluded subscription leaves every
--     month of its history, which may be long before its change.
-- The second session of a run fills a temporary `report_paid_count_run` with the row part (every month computed when
-- the store is not the span set's, or `--full`); `report_run_paid_count` subtracts the excluded part, or computes
-- both from the history when the run filled nothing (the file run on its own).

CREATE FUNCTION report_paid_count(as_of timestamptz, basis text, rows_from date)
RETURNS TABLE (month date, provider text, currency text, paid_count bigint)
LANGUAGE sql STABLE AS $fn$
SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date, s.provider::text, b.currency_code, count(*)
FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
WHERE b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0
  AND b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
  -- (a given month reaches the scan as ranges of the (provider, event type, effective_at) index)
  AND ($3 IS NULL OR (b.provider = ANY (enum_range(NULL::billing_provider))
                      AND b.effective_at >= ($3::timestamp AT TIME ZONE 'UTC')))
GROUP BY 1, 2, 3
$fn$;
COMMENT ON FUNCTION report_paid_count(timestamptz, text, date) IS
    'The row part of refunds'' paid counts: per month of effective_at (from month $3 on; NULL: every month), subscription provider and currency, the paid charges read as of $1 under basis $2 of every subscription, test ones included (migration 0056).';

CREATE FUNCTION report_paid_count_excluded(as_of timestamptz, basis text)
RETURNS TABLE (month date, provider text, currency text, paid_count bigint)
LANGUAGE sql STABLE AS $fn$
WITH excluded AS (
    SELECT s.id FROM subscription s WHERE s.is_test_purchase OR s.is_sandbox
    UNION
    SELECT t.subscription_id FROM billing_transaction t WHERE t.is_test
)
SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date, s.provider::text, b.currency_code, count(*)
FROM excluded x
JOIN subscription s ON s.id = x.id
JOIN billing_transaction b ON b.subscription_id = x.id
WHERE b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND b.amount_micros > 0
  AND b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
GROUP BY 1, 2, 3
$fn$;
COMMENT ON FUNCTION report_paid_count_excluded(timestamptz, text) IS
    'The excluded part of refunds'' paid counts: report_paid_count''s counts of the test and sandbox subscriptions only, every month (migration 0056).';

-- The run's row part: the second session fills a temporary report_paid_count_run; the placeholder is always empty.
CREATE TABLE report_paid_count_run (month date, provider text, currency text CHECK (currency ~ '^[A-Z]{3}$'),
                                    paid_count bigint,
                                    CONSTRAINT report_paid_count_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_paid_count_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0056).';

CREATE FUNCTION report_run_paid_count(as_of timestamptz, basis text)
RETURNS TABLE (month date, provider text, currency text, paid_count bigint)
LANGUAGE sql STABLE AS $fn$
SELECT p.month, p.provider, p.currency, sum(p.paid_count)::bigint
FROM (SELECT r.month, r.provider, r.currency, r.paid_count FROM report_paid_count_run r
      WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'paid_count' AND f.as_of = $1 AND f.basis = $2)
      UNION ALL
      SELECT c.month, c.provider, c.currency, c.paid_count FROM report_paid_count($1, $2, NULL) c
      WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'paid_count' AND f.as_of = $1 AND f.basis = $2)
      UNION ALL
      SELECT e.month, e.provider, e.currency, -e.paid_count FROM report_paid_count_excluded($1, $2) e) p
GROUP BY 1, 2, 3
$fn$;
COMMENT ON FUNCTION report_run_paid_count(timestamptz, text) IS
    'refunds'' paid counts as of $1 under basis $2 (test and sandbox subscriptions left out): the run''s row part (report_paid_count_run) when build-reports filled it for this as-of instant and basis, report_paid_count($1, $2, NULL) otherwise, less report_paid_count_excluded (migration 0056).';

-- The store, per basis: the row part as of the span set's as-of instant and snapshot; a cache (UNLOGGED), with the
-- digest of report_paid_count's SQL that computed it.
CREATE UNLOGGED TABLE report_stored_paid_count (
    basis      text NOT NULL CHECK (basis IN ('corrected', 'known')),
    month      date NOT NULL,
    provider   text NOT NULL,
    currency   text CHECK (currency ~ '^[A-Z]{3}$'),
    paid_count bigint NOT NULL,
    definition text NOT NULL
);
CREATE INDEX report_stored_paid_count_month ON report_stored_paid_count (basis, month);
COMMENT ON TABLE report_stored_paid_count IS
    'build-reports: per basis, month, provider and currency, the row part of refunds'' paid counts (report_paid_count) as of the stored span set''s as-of instant and snapshot (migration 0056).';
