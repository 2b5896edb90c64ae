-- Report contribution, linear in the history (issue 31): replaces report_contribution of 0017_report_contribution.sql
-- with the same signature, columns and rows (Tests/ReportingTests/ContributionEqualityTests compares the two), and
-- report_snapshot of 0013_report_contribution.sql with the same rows. The rules are unchanged (Reports/README.md,
-- "MRR"); only how they are computed changed:
--   * billing_transaction is read once: one ordered pass per subscription (window functions) decides the test
--     subscriptions (any test row), when each state row ends (the next row read) and which charges surround each
--     grace row. 0017 scanned it again for the test rows, and looked the surrounding charges up three times per grace
--     row (LATERAL ... LIMIT 1);
--   * the snapshots a span holds at are found by arithmetic: the snapshot instants are one sorted array and
--     width_bucket (a binary search) gives the first and the last one inside the span; only spans holding at more than
--     one snapshot are joined to the snapshots. 0017 called generate_series once per span;
--   * the snapshots are read through report_run_snapshot (0021): in a build-reports run they are the filled table,
--     so billing_transaction is no longer scanned for min(effective_at) a second time; report_snapshot itself finds
--     that minimum with one index probe per provider and event type instead of a scan.
-- See Reports/README.md, "Cost", for the measurements.

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
-- The snapshots (as build-reports filled them for this run, or computed), as one array of their instants, ascending:
-- snapshot n is element n. The instants increase strictly (month ends, the last one possibly the as-of instant).
snapshot AS (
    SELECT s.n, s.at FROM report_run_snapshot($1, $2, $3, $4) s
),
snapshot_instants AS (
    SELECT array_agg(s.at ORDER BY s.n) AS ats, max(s.n) AS last_n FROM snapshot s
),
-- Who counts, by the subscription: not a test or sandbox purchase. An unclaimed purchase (no billing account yet) is
-- its own account. (A subscription with any test history row does not count either: decided in `kept` below.)
subscriber AS (
    SELECT s.id AS subscription_id, s.provider::text AS provider, COALESCE(s.billing_account_id, s.id) AS billing_account_id
    FROM subscription s
    WHERE NOT s.is_test_purchase AND NOT s.is_sandbox
),
-- Every history row of those subscriptions (the only read of billing_transaction), with
--   * read: effective by the as-of instant; under basis 'known' also recorded by then;
--   * rank: what the row sets from its instant on, and its place among rows at one instant:
--       0 CHARGE  a paid period bought at a price (a free trial is a charge of 0) with an amount and a period end:
--                 amount x the whole number of monthly twelfths of its billing period until the period ends (half-open);
--       1 GRACE   still paying, at the renewal being retried, until the grace ends (priced in `grace` below);
--       2         on hold or paused: nothing;
--       3         expired, revoked, refunded: nothing;
--       NULL      changes nothing (CANCELED = auto-renew off, a charge without amount or period end, ...).
--     Rows at one instant are read in rank order, rows of one rank by transaction_key (the store's key, never the row
--     id, so the order does not depend on load order); the last row read holds.
history AS (
    SELECT b.subscription_id, sub.provider, sub.billing_account_id, b.transaction_key, b.event_type::text AS event_type,
           b.effective_at, b.expires_at, b.amount_micros, b.currency_code, b.country_code, b.product_id, b.plan_id,
           b.billing_period, b.period_end_at, f.factor, b.is_test,
           b.effective_at <= p.as_of AND (NOT p.known_basis OR b.recorded_at <= p.as_of) AS read,
           CASE WHEN b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                     AND b.amount_micros IS NOT NULL AND b.period_end_at IS NOT NULL THEN 0
                WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN 1
                WHEN b.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
                WHEN b.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 END AS rank
    FROM billing_transaction b
    JOIN subscriber sub USING (subscription_id)
    CROSS JOIN params p
    LEFT JOIN period_factor f USING (billing_period)
),
-- The same rows, each knowing whether its subscription has a test row anywhere in its history (read or not). Every
-- window below has this partition and order, so the rows are sorted once and each window is one more pass over them.
kept AS (
    SELECT h.*, bool_or(h.is_test) OVER (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.rank, h.transaction_key
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS test_subscription
    FROM history h
),
-- The state rows read of each counted subscription, in reading order, each with
--   * pos: its place in that order (1, 2, ...);
--   * next_at: the instant of the next state row (a row holds until then);
--   * charge_no, paid_no: how many charges, and paid charges (amount > 0, of a known billing period), were read up to
--     it, itself included.
stream AS (
    SELECT k.*, k.rank = 0 AND k.amount_micros > 0 AND k.factor IS NOT NULL AS paid,
           row_number() OVER w AS pos,
           lead(k.effective_at) OVER w AS next_at,
           count(*) FILTER (WHERE k.rank = 0) OVER w AS charge_no,
           count(*) FILTER (WHERE k.rank = 0 AND k.amount_micros > 0 AND k.factor IS NOT NULL) OVER w AS paid_no
    FROM kept k
    WHERE NOT k.test_subscription AND k.read AND k.rank IS NOT NULL
    WINDOW w AS (PARTITION BY k.subscription_id ORDER BY k.effective_at, k.rank, k.transaction_key ROWS UNBOUNDED PRECEDING)
),
-- Where a grace row's charges are: the positions of the subscription's charges and of its paid charges, in order
-- (charge number k is at charge_pos[k]). For a grace row:
--   l_pos  the latest charge at or before it (charge number charge_no; none when charge_no = 0);
--   n_pos  the first charge after it (charge number charge_no + 1);
--   c_pos  the latest paid charge at or before it (paid charge number paid_no).
located AS (
    SELECT s.*,
           CASE WHEN s.rank = 1 THEN s.charge_pos[s.charge_no::int] END AS l_pos,
           CASE WHEN s.rank = 1 THEN s.charge_pos[s.charge_no::int + 1] END AS n_pos,
           CASE WHEN s.rank = 1 THEN s.paid_pos[s.paid_no::int] END AS c_pos
    FROM (SELECT s.*, array_agg(s.pos::int) FILTER (WHERE s.rank = 0) OVER whole AS charge_pos,
                 array_agg(s.pos::int) FILTER (WHERE s.paid) OVER whole AS paid_pos
          FROM stream s
          WINDOW whole AS (PARTITION BY s.subscription_id ORDER BY s.effective_at, s.rank, s.transaction_key
                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) s
),
-- Each grace row with what those charges carry (nth_value of the whole subscription at a position; NULL for other
-- rows and for a charge that does not exist):
--   n  the first charge after the grace, when it is a RECOVERED charge (it ends the billing failure the grace began):
--      it prices and describes the grace;
--   l  else the latest charge at or before it (a free trial's included): the grace row's amount (the store's renewal
--      price, in the grace row's currency) x the factor of l's billing period, described by l;
--   c  else the latest paid charge: its amount x its factor. Without c the subscriber has never paid (e.g. a free
--      trial whose conversion failed) and contributes nothing in grace: their first paid charge is `new`.
carried AS (
    SELECT s.*,
           nth_value(s.event_type, s.n_pos) OVER whole = 'RECOVERED' AS n_recovered,
           nth_value(s.currency_code, s.n_pos) OVER whole AS n_currency,
           nth_value(s.country_code, s.n_pos) OVER whole AS n_country,
           nth_value(s.product_id, s.n_pos) OVER whole AS n_product,
           nth_value(s.plan_id, s.n_pos) OVER whole AS n_plan,
           nth_value(s.billing_period, s.n_pos) OVER whole AS n_period,
           nth_value(s.amount_micros * s.factor, s.n_pos) OVER whole AS n_twelfths,
           nth_value(s.factor, s.l_pos) OVER whole AS l_factor,
           nth_value(s.country_code, s.l_pos) OVER whole AS l_country,
           nth_value(s.product_id, s.l_pos) OVER whole AS l_product,
           nth_value(s.plan_id, s.l_pos) OVER whole AS l_plan,
           nth_value(s.billing_period, s.l_pos) OVER whole AS l_period,
           nth_value(s.amount_micros * s.factor, s.c_pos) OVER whole AS c_twelfths,
           nth_value(s.currency_code, s.c_pos) OVER whole AS c_currency
    FROM located s
    WINDOW whole AS (PARTITION BY s.subscription_id ORDER BY s.effective_at, s.rank, s.transaction_key
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- What each state row contributes from its instant until the next state row or its own end, whichever is first
-- (half-open):
--   a charge: amount x factor, until its period ends, described by itself;
--   a grace row: priced by n, else its own amount x l's factor, else c (see `carried`), nothing when there is no c;
--     until the grace's end (its expires_at, when later than the row), described by n, else l, else itself;
--   a stop row (ranks 2 and 3): nothing (it only ends the row before it).
valued AS (
    SELECT c.subscription_id, c.provider, c.billing_account_id, c.effective_at, c.next_at,
           CASE c.rank WHEN 0 THEN c.period_end_at
                       WHEN 1 THEN CASE WHEN c.expires_at > c.effective_at THEN c.expires_at END END AS end_at,
           CASE c.rank WHEN 0 THEN c.amount_micros * c.factor
                       WHEN 1 THEN CASE WHEN c.c_pos IS NOT NULL
                                        THEN COALESCE(CASE WHEN c.n_recovered THEN c.n_twelfths END,
                                                      c.amount_micros * c.l_factor, c.c_twelfths) END END AS twelfths,
           CASE WHEN c.rank = 0 THEN c.currency_code
                ELSE COALESCE(CASE WHEN c.n_recovered THEN c.n_currency END, c.currency_code, c.c_currency) END AS currency,
           CASE WHEN c.rank = 0 THEN c.country_code
                ELSE COALESCE(CASE WHEN c.n_recovered THEN c.n_country END, c.l_country, c.country_code) END AS country,
           CASE WHEN c.rank = 0 THEN c.product_id
                ELSE COALESCE(CASE WHEN c.n_recovered THEN c.n_product END, c.l_product, c.product_id) END AS product_id,
           CASE WHEN c.rank = 0 THEN c.plan_id
                ELSE COALESCE(CASE WHEN c.n_recovered THEN c.n_plan END, c.l_plan, c.plan_id) END AS plan_id,
           CASE WHEN c.rank = 0 THEN c.billing_period
                ELSE COALESCE(CASE WHEN c.n_recovered THEN c.n_period END, c.l_period, c.billing_period) END AS billing_period
    FROM carried c
    WHERE c.rank IN (0, 1)
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
),
-- Every (length, offset) pair of a run of snapshots: a span of length last_n - first_n holds at first_n + offset for
-- each of its offsets (one hash join on the length; no per-span function call).
run_offset AS (
    SELECT l.length, o.step
    FROM snapshot_instants i
    CROSS JOIN generate_series(0, i.last_n::int - 1) AS l(length)
    CROSS JOIN LATERAL generate_series(0, l.length) AS o(step)
)
SELECT (sp.first_n + r.step)::bigint, sp.provider, sp.billing_account_id, sp.subscription_id, sp.currency, sp.country,
       sp.product_id, sp.plan_id, sp.billing_period, sp.twelfths
FROM span sp JOIN run_offset r ON r.length = sp.last_n - sp.first_n
$fn$;

COMMENT ON FUNCTION report_contribution(timestamptz, timestamptz, timestamptz, text) IS
    'Per snapshot n (report_snapshot), what each paying subscription contributes to MRR, in twelfths of a micro; Reports/README.md "MRR".';
