-- Report contribution, linear in the history (issue 31): replaces report_contribution of 0017_report_contribution.sql
-- with the same signature, columns and rows (Tests/ReportingTests/ContributionEqualityTests compares the two), and
-- report_snapshot of 0013_report_contribution.sql with the same rows. The rules are unchanged (Reports/README.md,
-- "MRR"); only how they are computed changed:
--   * billing_transaction is read once and its rows sorted once, by subscription in reading order; window passes over
--     that order decide the test subscriptions (any test row), when each state row ends (the next row read) and which
--     charges surround each grace row (the subscription's charges as one array, read at the grace row's charge count).
--     0017 scanned the table again for test rows and looked the surrounding charges up three times per grace row
--     (LATERAL ... LIMIT 1);
--   * the snapshots a span holds at are found by arithmetic: the snapshot instants are one sorted array, width_bucket
--     (a binary search) gives the first and the last snapshot inside the span, and the select list expands that range
--     (usually one number). 0017 joined every span to a generate_series function scan and filtered its candidates;
--   * the snapshots are read through report_run_snapshot (0021): in a build-reports run they are the filled table, so
--     billing_transaction is not scanned for min(effective_at) a second time; report_snapshot itself finds that
--     minimum with one index probe per provider and event type instead of a scan.
-- Measurements: Reports/README.md, "Cost", and Benchmarks/results.md.

-- The month-end snapshots (unchanged rows; see 0013). The first month is the earlier of the first month asked for
-- and the month of the first history row read: found by probing the (provider, event_type, effective_at) index once
-- per provider and event type (the earliest row of each kind, read under the basis), not by scanning the table.
CREATE OR REPLACE FUNCTION report_snapshot(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, month text, month_start date, reported boolean, at timestamptz)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    SELECT $1 AS as_of,
           date_trunc('month', $2 AT TIME ZONE 'UTC') AS first_month,
           LEAST(date_trunc('month', $3 AT TIME ZONE 'UTC'), date_trunc('month', $1 AT TIME ZONE 'UTC')) AS last_month,
           -- Any basis other than 'corrected' or 'known' fails with an error that names it.
           CAST(CASE WHEN $4 IN ('corrected', 'known') THEN 'true'
                     ELSE 'basis must be corrected or known, not ' || COALESCE($4, 'NULL') END AS boolean)
               AND $4 = 'known' AS known_basis
),
-- The history rows read: effective by the as-of instant; under basis 'known' also recorded by then. The earliest.
first_history AS (
    SELECT min(e.effective_at) AS effective_at
    FROM params p
    CROSS JOIN unnest(enum_range(NULL::billing_provider)) AS kind_provider(provider)
    CROSS JOIN unnest(enum_range(NULL::billing_event_type)) AS kind_event(event_type)
    CROSS JOIN LATERAL (
        SELECT b.effective_at
        FROM billing_transaction b
        WHERE b.provider = kind_provider.provider AND b.event_type = kind_event.event_type
          AND b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of)
        ORDER BY b.effective_at LIMIT 1) e
)
SELECT row_number() OVER (ORDER BY m), to_char(m, 'YYYY-MM'), m::date, (m >= p.first_month),
       LEAST((m + interval '1 month' - interval '1 millisecond') AT TIME ZONE 'UTC', p.as_of)
FROM params p,
     generate_series(LEAST(p.first_month, COALESCE((SELECT date_trunc('month', h.effective_at AT TIME ZONE 'UTC')
                                                     FROM first_history h), p.first_month)),
                     p.last_month, interval '1 month') m
$fn$;

-- What a grace row reads of a charge around it (see `located` in report_contribution).
CREATE TYPE report_grace_charge AS (recovered boolean, currency text, country text, product_id text, plan_id uuid,
                                    billing_period text, factor integer, twelfths bigint);

-- What each paying subscription contributes at each snapshot (absent = 0), in twelfths of a micro, with the
-- subscription's provider and billing account and the currency, country, product, plan and billing period of the charge
-- that prices it at the snapshot.
CREATE OR REPLACE FUNCTION report_contribution(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text)
RETURNS TABLE (n bigint, provider text, billing_account_id uuid, subscription_id uuid, currency text, country text,
               product_id text, plan_id uuid, billing_period text, twelfths bigint)
LANGUAGE sql STABLE AS $fn$
WITH params AS (
    -- The as-of instant and the basis (report_params fails on any basis but 'corrected' or 'known', naming it).
    SELECT p.as_of, p.known_basis FROM report_params($1, $2, $3, NULL, $4) p
),
-- Monthly twelfths of an ISO billing period (whole twelfths: P1W is 52/12 of a month, P1Y 1/12).
period_factor (billing_period, factor) AS (
    VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1)
),
-- The snapshots (as build-reports filled them for this run, or computed) as one array of their instants, ascending:
-- snapshot n is element n. The instants increase strictly (month ends, the last one possibly the as-of instant).
snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n)::int AS last_n FROM report_run_snapshot($1, $2, $3, $4) s
),
-- Who counts, by the subscription: not a test or sandbox purchase (nor one with a test row: `ordered`). An unclaimed
-- purchase (no billing account yet) is its own account.
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS billing_account_id
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
),
-- The history rows that matter of those subscriptions (the only read of billing_transaction), each with its rank:
-- what it sets from its instant on, and its place among rows at one instant:
--   0 CHARGE  a paid period bought at a price (a free trial is a charge of 0) with an amount and a period end:
--             amount x the whole number of monthly twelfths of its billing period, until the period ends (half-open);
--   1 GRACE   still paying, at the renewal being retried, until the grace ends (priced in `valued` below);
--   2         on hold or paused: nothing;
--   3         expired, revoked, refunded: nothing. (CANCELED = auto-renew off changes nothing.)
-- The rows read are those effective by the as-of instant (under basis 'known' also recorded by then) of ranks 0 to 3;
-- test rows are kept whatever they are, only to exclude their subscription (`ordered`).
history AS (
    SELECT h.*
    FROM (SELECT b.subscription_id, sub.provider, sub.billing_account_id, b.transaction_key, b.effective_at, b.is_test,
                 b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id, b.plan_id,
                 b.billing_period, b.period_end_at, f.factor,
                 b.event_type = 'RECOVERED' AS recovered,
                 b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
                 CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                           AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN 0
                      WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 1
                      WHEN b.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
                      WHEN b.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 END AS rank
          FROM billing_transaction b JOIN subscriber sub USING (subscription_id) CROSS JOIN params p
          LEFT JOIN period_factor f USING (billing_period)) h
    WHERE h.is_test OR (h.read AND h.rank IS NOT NULL)
),
-- One sort of those rows: by subscription, in reading order. Rows at one instant are read in rank order, rows of one
-- rank by transaction_key (the store's key, never the row id, so the order does not depend on load order); the last
-- row read holds. Over each subscription's rows, in one pass:
--   * test_subscription: it has a test row (then it counts nowhere, and the other values do not matter);
--   * next_at: the instant of the next row (a row holds until then);
--   * charge_no, paid_no: how many charges, and paid charges (amount > 0, of a known billing period), were read up to
--     the row, itself included;
--   * charges, paid_charges: the subscription's charges and paid charges in order, what a grace row reads of them.
ordered AS (
    SELECT h.*,
           bool_or(h.is_test) OVER whole AS test_subscription,
           lead(h.effective_at) OVER running AS next_at,
           count(*) FILTER (WHERE h.rank = 0) OVER running AS charge_no,
           count(*) FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER running AS paid_no,
           array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                         h.factor, h.amount_micros * h.factor)::report_grace_charge)
               FILTER (WHERE h.rank = 0) OVER whole AS charges,
           array_agg(ROW(h.recovered, h.currency_code, h.country_code, h.product_id, h.plan_id, h.billing_period,
                         h.factor, h.amount_micros * h.factor)::report_grace_charge)
               FILTER (WHERE h.rank = 0 AND h.amount_micros > 0 AND h.factor IS NOT NULL) OVER whole AS paid_charges
    FROM history h
    WINDOW running AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                       ROWS UNBOUNDED PRECEDING),
           whole AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- The charges around each grace row (NULL for other rows and for a charge that does not exist):
--   n  the first charge after it (charge number charge_no + 1) when that is a RECOVERED charge (it ends the billing
--      failure the grace began);
--   l  the latest charge at or before it (charge number charge_no), a free trial's included;
--   c  the latest paid charge at or before it (paid charge number paid_no).
located AS (
    SELECT o.subscription_id, o.provider, o.billing_account_id, o.rank, o.effective_at, o.next_at, o.expires_at,
           o.period_end_at, o.amount_micros, o.factor, o.currency_code, o.country_code, o.product_id, o.plan_id,
           o.billing_period,
           CASE WHEN o.rank = 1 AND (o.charges[o.charge_no::int + 1]).recovered
                THEN o.charges[o.charge_no::int + 1] END AS n,
           CASE WHEN o.rank = 1 THEN o.charges[o.charge_no::int] END AS l,
           CASE WHEN o.rank = 1 THEN o.paid_charges[o.paid_no::int] END AS c
    FROM ordered o
    WHERE NOT o.test_subscription AND o.rank IN (0, 1)
),
-- What each charge or grace row contributes from its instant until the next row or its own end, whichever is first
-- (half-open); a stop row (ranks 2 and 3) contributes nothing and only ends the row before it:
--   a charge: amount x factor until its period ends, described by itself;
--   a grace row: n's amount x factor, else the grace row's amount (the store's renewal price, in the grace row's
--     currency) x l's factor, else c's amount x factor, described by n, else l, else the grace row itself; until the
--     grace ends (its expires_at, when later than the row). Nothing without c: a subscriber who has never paid (e.g. a
--     free trial whose conversion failed) contributes nothing in grace, and their first paid charge is `new`.
valued AS (
    SELECT g.subscription_id, g.provider, g.billing_account_id, g.effective_at, g.next_at,
           CASE WHEN g.rank = 0 THEN g.period_end_at WHEN g.expires_at > g.effective_at THEN g.expires_at END AS end_at,
           CASE WHEN g.rank = 0 THEN g.amount_micros * g.factor
                WHEN (g.c).twelfths IS NOT NULL
                THEN COALESCE((g.n).twelfths, g.amount_micros * (g.l).factor, (g.c).twelfths) END AS twelfths,
           CASE WHEN g.rank = 0 THEN g.currency_code
                ELSE COALESCE((g.n).currency, g.currency_code, (g.c).currency) END AS currency,
           CASE WHEN g.rank = 0 THEN g.country_code
                ELSE COALESCE((g.n).country, (g.l).country, g.country_code) END AS country,
           CASE WHEN g.rank = 0 THEN g.product_id
                ELSE COALESCE((g.n).product_id, (g.l).product_id, g.product_id) END AS product_id,
           CASE WHEN g.rank = 0 THEN g.plan_id ELSE COALESCE((g.n).plan_id, (g.l).plan_id, g.plan_id) END AS plan_id,
           CASE WHEN g.rank = 0 THEN g.billing_period
                ELSE COALESCE((g.n).billing_period, (g.l).billing_period, g.billing_period) END AS billing_period
    FROM located g
),
-- The paying spans (a value > 0) and the snapshots inside each: first_n .. last_n, by binary search over the snapshot
-- instants (width_bucket(x, ats) counts the snapshots at or before x; timestamps are whole microseconds, so x - 1 µs
-- counts those strictly before x). A span holds at exactly the snapshots first_n .. last_n (none when last_n < first_n).
span AS (
    SELECT v.*,
           width_bucket(v.effective_at - interval '1 microsecond', i.ats) + 1 AS first_n,
           COALESCE(width_bucket(LEAST(v.next_at, v.end_at) - interval '1 microsecond', i.ats), i.last_n) AS last_n
    FROM valued v CROSS JOIN snapshot_instants i
    WHERE v.twelfths > 0
)
-- Each span at each of its snapshots: the numbers first_n .. last_n, expanded in the select list (a value-per-call
-- series, usually of one number; no function scan per span and no range join against the snapshots).
SELECT generate_series(sp.first_n, sp.last_n)::bigint AS n, sp.provider, sp.billing_account_id, sp.subscription_id,
       sp.currency, sp.country, sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
FROM span sp
WHERE sp.last_n >= sp.first_n
$fn$;

COMMENT ON FUNCTION report_contribution(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n (report_snapshot), what each paying subscription contributes to MRR, in twelfths of a micro; Reports/README.md "MRR".';
