-- A night computes the month history's row part of complete months only (issue 31; Reports/README.md, "The open
-- month's history part").
--
-- The month digest of month m accumulates the history's row part of the months up to m (`report_month_inputs`,
-- 0052), and a run reuses or stores the cells of complete months only (before the as-of month). The as-of month's row
-- part therefore reaches only the as-of month's own digest, which no run reads: the open month is always computed,
-- never stored. Yet a night computed it (0054: from the month of the earliest change on, which is nearly always the
-- as-of month): every history row of the month read and hashed, 2.2–3.4 s of the second session at 1M subscriptions.
-- Now:
--   * `report_month_history(as_of, basis, rows_from, rows_until)`: 0054's rows with the row part only for the months
--     from `rows_from` up to, not including, `rows_until` (NULL: no upper bound); the three-argument function is this
--     one without a bound (one body);
--   * a night computes the row part from the earlier of the changes' first month and the store's as-of month (the
--     store holds complete months only: a month that was open when it was written is computed now) up to its own
--     as-of month, and takes the months before from the store; the as-of month's row part is 0;
--   * the store keeps the months before the run's as-of month only (`MonthHistory.save`), so it never holds a part
--     no run computed for its month.

CREATE FUNCTION report_month_history(as_of timestamptz, basis text, rows_from date, rows_until date)
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
                 AND b.effective_at >= ($3::timestamp AT TIME ZONE 'UTC')
                 AND ($4 IS NULL OR b.effective_at < ($4::timestamp AT TIME ZONE 'UTC')))) h
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
COMMENT ON FUNCTION report_month_history(timestamptz, text, date, date) IS
    'report_month_history as of $1 under basis $2 with the row part only for the months from $3 up to, not including, $4 (NULL $3: every month; NULL $4: no upper bound), the excluded part for every month (migrations 0054, 0072).';

CREATE OR REPLACE FUNCTION report_month_history(as_of timestamptz, basis text, rows_from date)
RETURNS TABLE (month date, row_count bigint, hash_sum numeric, excluded_count bigint, excluded_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
SELECT * FROM report_month_history($1, $2, $3, NULL::date)
$fn$;
COMMENT ON FUNCTION report_month_history(timestamptz, text, date) IS
    'report_month_history as of $1 under basis $2 with the row part only from month $3 on (NULL: every month), the excluded part for every month (migration 0054; the four-argument function''s body since 0072).';
