-- Free-trial conversion, two views:
--   view 'cohort'        one row per trial-start month (UTC) x provider x store product x country: what became of the
--                        trials started in the month, as of $1;
--   view 'apple_events'  one row per month (US Pacific days) with Apple Subscription Event report rows imported: our
--                        Apple trial starts and conversions dated in the month beside Apple's counts, and the difference.
--
-- Columns: trials_count; converted_in_trial_count (first paid charge with no billing failure before it),
-- converted_after_retry_count (after a grace or hold row), converted_count (both), cancelled_count (not converted,
-- auto-renew off at the trial's end), failed_count (not converted, ended), open_count (none of these yet);
-- conversion_rate = converted / (converted + cancelled + failed) with its Wilson 95% interval
-- (conversion_ci_low_rate, conversion_ci_high_rate); median_conversion_days, p90_conversion_days (trial start to the
-- first paid charge); apple_trials_count, apple_converted_count (Apple's Quantity summed) and
-- trials_difference_count, converted_difference_count (ours - Apple's), in the 'apple_events' view only.
--
-- Parameters ($1 as-of, $2 first month, $3 last month, $4 reporting currency (unused here), $5 basis) and definitions:
-- Reports/README.md, sections "Trial conversion" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
-- Per subscription with a free trial: the trial (start, product, country) and the first paid charge after it, the
-- first billing failure (grace or hold), the first ending, and the auto-renew switch at the trial's end (the as-of
-- instant while it runs): the latest CANCELED against the latest RESTARTED without a charge, from the trial's start.
-- The schema's report_trial (migration 0051) derives it from the subscription's rows read (test purchases left out);
-- build-reports stores it with the subscription's spans and recomputes only the subscriptions whose history changed
-- (Reports/README.md, "Stored trials"); report_run_trial returns the run's rows, or computes them when the file is run
-- by hand.
trial AS (
    SELECT * FROM report_run_trial($1, $2, $3, $5)
),
outcome AS (
    SELECT t.*,
           CASE WHEN t.converted_at IS NOT NULL
                THEN CASE WHEN t.failed_at < t.converted_at THEN 'converted_after_retry' ELSE 'converted_in_trial' END
                WHEN t.off_at IS NOT NULL AND (t.on_at IS NULL OR t.off_at > t.on_at) THEN 'cancelled'
                WHEN t.ended_at IS NOT NULL THEN 'failed'
                ELSE 'open' END AS outcome,
           round(extract(epoch FROM t.converted_at - t.trial_at) / 86400, 4) AS days
    FROM trial t
),
cohort AS (
    SELECT to_char(o.trial_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, o.provider, o.trial_product AS product_id,
           o.trial_country AS country, count(*) AS trials,
           count(*) FILTER (WHERE o.outcome = 'converted_in_trial') AS in_trial,
           count(*) FILTER (WHERE o.outcome = 'converted_after_retry') AS after_retry,
           count(*) FILTER (WHERE o.outcome = 'cancelled') AS cancelled,
           count(*) FILTER (WHERE o.outcome = 'failed') AS failed,
           count(*) FILTER (WHERE o.outcome = 'open') AS open,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY o.days) AS median_days,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY o.days) AS p90_days
    FROM outcome o
    GROUP BY 1, 2, 3, 4
),
-- Conversion rate x / n over the decided trials, and its Wilson score interval (z = 1.959964; z^2 = 3.841459,
-- z^2/2 = 1.920729, z^2/4 = 0.960365, as in price_change_churn.sql).
rated AS (
    SELECT c.*, c.in_trial + c.after_retry AS x, c.in_trial + c.after_retry + c.cancelled + c.failed AS n FROM cohort c
),
-- Apple's Subscription Event report (current files; under 'known' imported by the as-of instant): trial starts and
-- conversions from a free trial per month of its (US Pacific) days, and ours counted by the same days.
apple AS (
    SELECT to_char(e.event_date, 'YYYY-MM') AS month,
           sum(e.quantity) FILTER (WHERE e.event IN ('Start Free Trial', 'Start Introductory Offer')
                                     AND e.subscription_offer_type = 'Free Trial') AS trials,
           sum(e.quantity) FILTER (WHERE e.event = 'Paid Subscription from Free Trial'
                                     OR (e.event = 'Paid Subscription from Introductory Offer'
                                         AND e.subscription_offer_type IN ('Free Trial', ''))) AS converted
    FROM apple_subscription_event_row e JOIN report_file f ON f.id = e.report_file_id CROSS JOIN params p
    WHERE f.replaced_by IS NULL AND (NOT p.known_basis OR f.imported_at <= p.as_of)
      AND e.event_date <= (p.as_of AT TIME ZONE 'America/Los_Angeles')::date
    GROUP BY 1
),
ours_pacific AS (
    SELECT m.month, count(*) FILTER (WHERE m.kind = 'trial') AS trials, count(*) FILTER (WHERE m.kind = 'converted') AS converted
    FROM outcome o
    CROSS JOIN LATERAL (VALUES ('trial', to_char(o.trial_at AT TIME ZONE 'America/Los_Angeles', 'YYYY-MM')),
                               ('converted', to_char(o.converted_at AT TIME ZONE 'America/Los_Angeles', 'YYYY-MM'))) m(kind, month)
    WHERE o.provider = 'APPLE' AND m.month IS NOT NULL
    GROUP BY m.month
)
SELECT 'cohort' AS view, r.month, r.provider, r.product_id, r.country, r.trials AS trials_count,
       r.in_trial AS converted_in_trial_count, r.after_retry AS converted_after_retry_count, r.x AS converted_count,
       r.cancelled AS cancelled_count, r.failed AS failed_count, r.open AS open_count,
       CASE WHEN r.n > 0 THEN round(r.x::numeric / r.n, 6) END AS conversion_rate,
       CASE WHEN r.n > 0 THEN round(GREATEST(0, (r.x + 1.920729) / (r.n + 3.841459)
                                              - 1.959964 * sqrt(r.x::numeric * (r.n - r.x) / r.n + 0.960365) / (r.n + 3.841459)), 6)
            END AS conversion_ci_low_rate,
       CASE WHEN r.n > 0 THEN round(LEAST(1, (r.x + 1.920729) / (r.n + 3.841459)
                                          + 1.959964 * sqrt(r.x::numeric * (r.n - r.x) / r.n + 0.960365) / (r.n + 3.841459)), 6)
            END AS conversion_ci_high_rate,
       r.median_days AS median_conversion_days, r.p90_days AS p90_conversion_days,
       NULL::bigint AS apple_trials_count, NULL::bigint AS apple_converted_count,
       NULL::bigint AS trials_difference_count, NULL::bigint AS converted_difference_count
FROM rated r CROSS JOIN params p
WHERE r.month BETWEEN to_char(p.first_month, 'YYYY-MM') AND to_char(p.last_month, 'YYYY-MM')
UNION ALL
SELECT 'apple_events', a.month, 'APPLE', NULL, NULL, COALESCE(o.trials, 0), NULL, NULL, COALESCE(o.converted, 0),
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       COALESCE(a.trials, 0)::bigint, COALESCE(a.converted, 0)::bigint,
       (COALESCE(o.trials, 0) - COALESCE(a.trials, 0))::bigint, (COALESCE(o.converted, 0) - COALESCE(a.converted, 0))::bigint
FROM apple a CROSS JOIN params p
LEFT JOIN ours_pacific o ON o.month = a.month
WHERE a.month BETWEEN to_char(p.first_month, 'YYYY-MM') AND to_char(p.last_month, 'YYYY-MM')
ORDER BY 1 DESC, 2, 3, 4 NULLS FIRST, 5 NULLS FIRST
