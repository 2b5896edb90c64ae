-- Entitlement leakage as of the as-of instant: one row per entitlement grant that covers the as-of instant while
-- the subscription's history says it was not entitled then (its latest state row is an expiry, a revocation, a
-- refund, account hold / Apple billing retry after grace, or a pause). After the nightly chain this must be empty.
--
-- A grant is an entitlement_interval row recorded by the as-of instant, running from valid_from to the earlier of
-- valid_until and ended_at (half-open). The state is the latest history row effective at or before the as-of instant
-- among charges, grace entries and those stop rows (at one instant a stop row wins), read under the basis ($5).
-- Test purchases are included: access given without payment is leakage whoever holds it.
--
-- Parameters ($1 as-of, $2 and $3 months (unused: leakage is a point in time), $4 reporting currency (unused), $5 basis)
-- and definitions: Reports/README.md, sections "Refunds" and "Basis and snapshots".

WITH params AS NOT MATERIALIZED (
    -- The five parameters, cast by the schema's report_params (Reports/README.md, "Basis and snapshots"); a basis
    -- other than 'corrected' or 'known' fails with an error that names it. Not materialised: written into each use, so
    -- the planner sees the values (a whole history read in a full run, one month's by index in a night).
    SELECT * FROM report_params($1, $2, $3, $4, $5)
),
grant_at AS (
    SELECT i.subscription_id, i.billing_account_id, i.plan_id, i.valid_from,
           LEAST(COALESCE(i.valid_until, 'infinity'), COALESCE(i.ended_at, 'infinity')) AS until_at
    FROM entitlement_interval i, params p
    WHERE i.recorded_at <= p.as_of AND i.valid_from <= p.as_of
      AND p.as_of < LEAST(COALESCE(i.valid_until, 'infinity'), COALESCE(i.ended_at, 'infinity'))
),
state_at AS (
    SELECT DISTINCT ON (b.subscription_id) b.subscription_id, b.event_type::text AS state, b.effective_at
    FROM billing_transaction b, params p
    WHERE b.subscription_id IN (SELECT subscription_id FROM grant_at)
      AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
      AND (b.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
           OR (b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
               AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL))
    -- The MRR order at one instant (Reports/README.md, "MRR"): charge, grace, hold or pause, then an ending; rows of
    -- one kind by transaction_key. The last of them is the state.
    ORDER BY b.subscription_id, b.effective_at DESC,
             CASE WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 1 WHEN b.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
                  WHEN b.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 ELSE 0 END DESC,
             b.transaction_key DESC
)
SELECT g.subscription_id, g.billing_account_id, s.provider::text AS provider, pl.code AS plan_code,
       st.state, to_char(st.effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS state_at,
       to_char(g.valid_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS entitled_from,
       CASE WHEN g.until_at = 'infinity' THEN NULL
            ELSE to_char(g.until_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS entitled_until,
       (s.is_test_purchase OR s.is_sandbox) AS is_test
FROM grant_at g
JOIN state_at st USING (subscription_id)
JOIN subscription s ON s.id = g.subscription_id
JOIN plan pl ON pl.id = g.plan_id
WHERE st.state IN ('ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
ORDER BY g.subscription_id, pl.code, g.valid_from
