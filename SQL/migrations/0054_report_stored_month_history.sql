-- A night reads the month history of the months a change reaches, and the store's for the others (issue 31;
-- Reports/README.md, "Changed since the last store").
--
-- The month digest's history part (`report_month_history`, 0040/0041/0043/0050) is, per month of effective_at, the
-- count and hash sum of the history rows read (the row part), and the count and hash sum of the excluded (test,
-- sandbox) subscriptions from their first read row's month (the excluded part): one scan of every history row, 16 s
-- of a 1M night. A row's contribution to the row part changes only when the row does, or its subscription's provider
-- or billing account does, or its "read by then" flag flips: exactly what the candidates since a store name, each
-- with the earliest instant it reaches (`report_history_changed`, 0053). So the run that stores the spans stores the
-- row part beside them (`report_stored_month_history`, in the same transaction, under the same as-of instant and
-- snapshot), and a night computes the row part only from the month of the earliest candidate instant on (by the
-- (provider, event type, effective_at) index) and takes the months before from the store. The excluded part is
-- computed whole every time: the excluded subscriptions are few (the test rows by their partial index), and a newly
-- excluded one moves the month of its first row, which may be long before its change.

CREATE UNLOGGED TABLE report_stored_month_history (
    basis     text NOT NULL CHECK (basis IN ('corrected', 'known')),
    month     date NOT NULL,
    row_count bigint NOT NULL,
    hash_sum  numeric NOT NULL,
    -- the digest of the month history functions' SQL that computed it: rows of other functions are not read
    definition text NOT NULL,
    PRIMARY KEY (basis, month)
);
COMMENT ON TABLE report_stored_month_history IS
    'build-reports: per basis and month, the row part of report_month_history as of the stored span set''s as-of instant and snapshot (migration 0054).';

-- The month history with the row part only for the months from `rows_from` on (NULL: every month; the months before
-- get a row part of 0), the excluded part for every month. 0050's rows when `rows_from` is NULL. Inlined where it is
-- called (no SET clause), so a given `rows_from` reaches the scan as a range of the index.
CREATE FUNCTION report_month_history(as_of timestamptz, basis text, rows_from date)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH per_month AS (
    SELECT h.month, count(*) FILTER (WHERE h.is_read) AS row_count,
           sum(CASE WHEN h.is_read
                    THEN hash_record_extended(ROW(h.subscription_id, h.provider, h.billing_account_id, h.event_type,
                                                  h.transaction_key, h.effective_at, h.recorded_at, h.amount_micros,
                                                  h.currency_code, h.is_test, h.product_id, h.billing_period,
                                                  h.period_end_at, h.refunded_transaction_key, h.refund_kind), 0) END) AS hash_sum
    FROM (SELECT (date_trunc('month', b.effective_at AT TIME ZONE 'UTC'))::date AS month, b.subscription_id, s.provider,
                 s.billing_account_id, b.event_type, b.transaction_key, b.effective_at, b.recorded_at, b.amount_micros,
                 b.currency_code, b.is_test, b.product_id, b.billing_period, b.period_end_at, b.refunded_transaction_key,
                 b.refund_kind, b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1) AS is_read
          FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
          WHERE $3 IS NULL
             OR (b.provider = ANY (enum_range(NULL::billing_provider)) AND b.event_type = ANY (enum_range(NULL::billing_event_type))
                 AND b.effective_at >= ($3::timestamp AT TIME ZONE 'UTC'))) h
    GROUP BY h.month
),
excluded AS (
    SELECT s.id FROM subscription s WHERE s.is_test_purchase OR s.is_sandbox
    UNION
    SELECT t.subscription_id FROM billing_transaction t WHERE t.is_test
),
excluded_from AS (
    -- The month of each excluded subscription's first read row (by index), with its id's hash.
    SELECT (date_trunc('month', f.effective_at AT TIME ZONE 'UTC'))::date AS month, count(*) AS excluded_count,
           sum(hash_record_extended(ROW(x.id), 0)) AS excluded_hash_sum
    FROM excluded x
    CROSS JOIN LATERAL (SELECT b.effective_at FROM billing_transaction b
                        WHERE b.subscription_id = x.id AND b.effective_at <= $1 AND ($2 <> 'known' OR b.recorded_at <= $1)
                        ORDER BY b.effective_at LIMIT 1) f
    GROUP BY 1
)
SELECT COALESCE(m.month, e.month), COALESCE(m.row_count, 0), COALESCE(m.hash_sum, 0),
       COALESCE(e.excluded_count, 0), COALESCE(e.excluded_hash_sum, 0)
FROM per_month m FULL JOIN excluded_from e ON e.month = m.month
$fn$;
COMMENT ON FUNCTION report_month_history(timestamptz, text, date) IS
    'report_month_history as of $1 under basis $2 with the row part only from month $3 on (NULL: every month), the excluded part for every month (migration 0054).';

-- 0050's function, now the three-argument one for every month (its body once).
CREATE OR REPLACE FUNCTION report_month_history(as_of timestamptz, basis text)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE SET enable_sort = off AS $fn$
SELECT * FROM report_month_history($1, $2, NULL::date)
$fn$;
COMMENT ON FUNCTION report_month_history(timestamptz, text) IS
    'Per month of effective_at, the count and hash sum of the history rows read as of $1 under basis $2 (with their subscription''s provider and billing account), and of the excluded (test, sandbox) subscriptions from their first read row''s month; report_month_inputs accumulates them (migrations 0040, 0041, 0043, 0050; the three-argument function''s body since 0054).';
