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
-- The plan changes as of the as-of instant: per subscription that counts (no test or sandbox purchase, no test row),
-- each charge whose product or billing period differs from the subscription's previous charge (in reading order:
-- effective_at, then transaction_key; a free trial's included), with the previous charge's product, period and
-- amount. The schema's report_plan_change (migration 0069) derives them from the subscription's charges;
-- build-reports stores them with the subscription's spans and recomputes only the subscriptions whose history changed
-- (Reports/README.md, "Plan-change mix"); report_run_plan_change returns the run's rows, or computes them when the
-- file is run by hand.
change AS (
    SELECT to_char(c.effective_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, c.provider,
           CASE WHEN c.billing_period IS DISTINCT FROM c.from_period THEN 'period_change'
                WHEN COALESCE(c.twelfths, 0) > COALESCE(c.from_twelfths, 0) THEN 'upgrade'
                WHEN COALESCE(c.twelfths, 0) < COALESCE(c.from_twelfths, 0) THEN 'downgrade'
                ELSE 'crossgrade' END AS change_type,
           c.from_product, c.product_id AS to_product, c.from_period, c.billing_period AS to_period,
           c.currency, COALESCE(c.from_twelfths, 0) AS from_twelfths, COALESCE(c.twelfths, 0) AS twelfths
    FROM report_run_plan_change($1, $5) c CROSS JOIN params p
    WHERE c.effective_at >= p.range_start AND c.effective_at < p.range_end
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
