-- Plan-change mix: one row per month x provider x change type x from product -> to product x from billing period ->
-- to billing period x currency, for the plan changes of the months reported.
--
-- A plan change is a charge whose product or billing period differs from the subscription's previous charge (a free
-- trial's included). change_type: period_change (the billing period differs), else upgrade / downgrade / crossgrade
-- (the monthly-normalised price rises / falls / stays). Columns: changes_count, from_mrr_micros and to_mrr_micros (the
-- previous and the new charge's amount x monthly factor, summed), mrr_moved_micros (to - from), each rounded half to
-- even once from its exact sum in twelfths of a micro, in the new charge's currency.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "Plan-change mix", "MRR" (monthly factor) and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
-- Who counts: not a test or sandbox purchase, no test row (`changing`).
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
),
-- Two ways to each charge's previous charge (in reading order: effective_at, then transaction_key), the same answer:
--   * a run of several months (a full run: the whole history) sorts once: the subscriptions without a test row whose
--     charges read (as MRR reads them) are not all of one product and one billing period (more than one distinct pair,
--     NULL equal to NULL as in "differs" below; only they can have a plan change: one hash pass over the charges and
--     the test rows, then one over the distinct pairs), then their charges, each with the previous one of its
--     subscription (one sort);
--   * a run of one month (a night: the stored months before it are reused) reads that month's charges by index
--     (provider, event type, instant) and looks each one's previous charge up by index (subscription, instant): a
--     month's charges, not the whole history. A subscription with a test row counts nowhere in either.
changing AS (
    SELECT d.subscription_id
    FROM (SELECT DISTINCT h.subscription_id, h.is_test, h.product_id, h.billing_period
          FROM (SELECT b.subscription_id, b.is_test, b.product_id, b.billing_period,
                       b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                       AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
                       AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS charge
                FROM billing_transaction b CROSS JOIN params p
                WHERE p.first_month < p.last_month) h
          WHERE h.charge OR h.is_test) d
    GROUP BY d.subscription_id
    HAVING NOT bool_or(d.is_test) AND count(*) > 1
),
charge AS (
    SELECT b.subscription_id, sub.provider, b.effective_at, b.product_id, b.billing_period, b.currency_code,
           b.amount_micros * f.factor AS twelfths,
           lag(b.product_id) OVER w AS from_product, lag(b.billing_period) OVER w AS from_period,
           lag(b.amount_micros * f.factor) OVER w AS from_twelfths, row_number() OVER w AS charge_no
    FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
    LEFT JOIN period_factor f USING (billing_period)
    WHERE p.first_month < p.last_month
      AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND b.subscription_id IN (SELECT c.subscription_id FROM changing c)
    WINDOW w AS (PARTITION BY b.subscription_id ORDER BY b.effective_at, b.transaction_key)
),
-- (materialised: the month's plan changes are found before their few subscriptions are read, by primary key)
month_change AS MATERIALIZED (
    SELECT b.subscription_id, b.effective_at, b.product_id, b.billing_period, b.currency_code,
           b.amount_micros * f.factor AS twelfths, pr.product_id AS from_product, pr.billing_period AS from_period,
           pr.amount_micros * g.factor AS from_twelfths
    FROM billing_transaction b CROSS JOIN params p
    LEFT JOIN period_factor f USING (billing_period)
    -- (inner: a subscription's first charge has none, and is no change)
    JOIN LATERAL (
        SELECT q.product_id, q.billing_period, q.amount_micros FROM billing_transaction q
        WHERE q.subscription_id = b.subscription_id
          AND q.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
          AND q.amount_micros IS NOT NULL AND q.period_end_at IS NOT NULL
          AND q.effective_at <= p.as_of AND (NOT p.known_basis OR q.recorded_at <= p.as_of)
          AND q.effective_at <= b.effective_at AND (q.effective_at, q.transaction_key) < (b.effective_at, b.transaction_key)
        ORDER BY q.effective_at DESC, q.transaction_key DESC LIMIT 1) pr ON true
    LEFT JOIN period_factor g ON g.billing_period = pr.billing_period
    WHERE p.first_month = p.last_month
      AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL
      AND b.provider IN ('APPLE', 'GOOGLE', 'WEB') AND b.effective_at >= p.range_start AND b.effective_at < p.range_end
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND (b.product_id IS DISTINCT FROM pr.product_id OR b.billing_period IS DISTINCT FROM pr.billing_period)
),
month_charge AS (
    SELECT m.subscription_id, sub.provider::text, m.effective_at, m.product_id, m.billing_period, m.currency_code,
           m.twelfths, m.from_product, m.from_period, m.from_twelfths, 2 AS charge_no
    FROM month_change m JOIN subscription sub ON sub.id = m.subscription_id
    WHERE NOT sub.is_test_purchase AND NOT sub.is_sandbox
      AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = m.subscription_id AND t.is_test)
),
change AS (
    SELECT to_char(c.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, c.provider,
           CASE WHEN c.billing_period IS DISTINCT FROM c.from_period THEN 'period_change'
                WHEN COALESCE(c.twelfths, 0) > COALESCE(c.from_twelfths, 0) THEN 'upgrade'
                WHEN COALESCE(c.twelfths, 0) < COALESCE(c.from_twelfths, 0) THEN 'downgrade'
                ELSE 'crossgrade' END AS change_type,
           c.from_product, c.product_id AS to_product, c.from_period, c.billing_period AS to_period,
           c.currency_code AS currency, COALESCE(c.from_twelfths, 0) AS from_twelfths, COALESCE(c.twelfths, 0) AS twelfths
    FROM (SELECT * FROM charge UNION ALL SELECT * FROM month_charge) c
    WHERE c.charge_no > 1
      AND (c.product_id IS DISTINCT FROM c.from_product OR c.billing_period IS DISTINCT FROM c.from_period)
)
SELECT c.month, c.provider, c.change_type, c.from_product AS from_product_id, c.to_product AS to_product_id,
       c.from_period AS from_billing_period, c.to_period AS to_billing_period, c.currency,
       count(*) AS changes_count,
       report_half_even(sum(c.from_twelfths), 12)::bigint AS from_mrr_micros,
       report_half_even(sum(c.twelfths), 12)::bigint AS to_mrr_micros,
       report_half_even(sum(c.twelfths - c.from_twelfths), 12)::bigint AS mrr_moved_micros
FROM change c CROSS JOIN params p
WHERE c.month BETWEEN to_char(p.first_month, 'YYYY-MM') AND to_char(p.last_month, 'YYYY-MM')
GROUP BY c.month, c.provider, c.change_type, c.from_product, c.to_product, c.from_period, c.to_period, c.currency
ORDER BY 1, 2, 3, 4 NULLS FIRST, 5 NULLS FIRST, 6 NULLS FIRST, 7 NULLS FIRST, 8
