-- price_change_churn from per-subscription facts stored beside the spans (issue 31; Reports/README.md, "Stored
-- price-change facts").
--
-- The report reads three kinds of fact, each a function of one subscription's own rows (and, for two of them, of a
-- small global input):
--   * its notices (`report_price_change_notice`): PRICE_CHANGE_PENDING rows and PRICE_CHANGE_CANCELED rows without a
--     price, each with the product billed then;
--   * its memberships of price-change cohorts with their outcomes (`report_price_change_member`), given the changes
--     the history knows (`report_price_change`: the subscription_price_change rows and the changes inferred from the
--     notices, a few dozen rows);
--   * its state in each slot the baseline reads (`report_price_change_peer`): paying for the slot's product at its
--     window start, with nothing disrupting it since its latest charge, and its first ending from there, given the
--     slots (`report_price_change_slots`: each cohort's window start, the earliest start of its members, with its
--     provider and product).
-- A night recomputed all three over the whole history: 33-41 s of a 1M night for one day of new rows. A fact changes
-- only when its subscription is a candidate since the store (`report_history_changed`, 0053), or its global input
-- changes. So the second session of a run fills temporary `report_price_change_*_run` tables: the stored facts of the
-- subscriptions that are no candidates and the candidates' computed ones; every member computed when the change set
-- differs from the stored one's (its digest is part of the stored members' definition); every subscription's state
-- computed in a slot the store does not hold. The run that stores the spans stores the facts it used beside
-- them (same transaction), or deletes the basis's when it computed none or the set's snapshot is unknown. Each
-- `report_run_price_change_*` function reads the run's table when the run filled it, and computes from the history
-- otherwise (the file run on its own).

-- The notices of the given subscriptions (every one with NULL), as known on the basis; a test purchase (any row
-- is_test) has none. The product billed then: the latest charge row with a product (a free trial's included) at or
-- before the notice, by instant then row id; a notice before any is not read.
CREATE FUNCTION report_price_change_notice(as_of timestamptz, basis text, subscriptions uuid[])
RETURNS TABLE (subscription_id uuid, id uuid, provider text, event_type text, effective_at timestamptz,
               amount_micros bigint, currency_code text, country_code text, product_id text, period_end_at timestamptz,
               billing_period text, billed_micros bigint, billed_currency text)
LANGUAGE sql STABLE AS $fn$
SELECT n.subscription_id, n.id, n.provider::text, n.event_type::text, n.effective_at, n.amount_micros, n.currency_code,
       n.country_code, l.product_id, l.period_end_at, l.billing_period, l.amount_micros, l.currency_code
FROM billing_transaction n
JOIN LATERAL (
    SELECT h.product_id, h.period_end_at, h.billing_period, h.amount_micros, h.currency_code FROM billing_transaction h
    WHERE h.subscription_id = n.subscription_id AND h.product_id IS NOT NULL AND h.effective_at <= n.effective_at
      AND h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
      AND h.effective_at <= $1 AND ($2 = 'corrected' OR h.recorded_at <= $1)
    ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) l ON true
WHERE ($3 IS NULL OR n.subscription_id = ANY ($3))
  -- (the notices by the (provider, event type, effective_at) index: a few of the history's rows)
  AND n.provider = ANY (enum_range(NULL::billing_provider))
  AND n.event_type IN ('PRICE_CHANGE_PENDING', 'PRICE_CHANGE_CANCELED')
  AND (n.event_type = 'PRICE_CHANGE_PENDING' OR n.amount_micros IS NULL)
  AND n.effective_at <= $1 AND ($2 = 'corrected' OR n.recorded_at <= $1)
  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = n.subscription_id AND t.is_test)
$fn$;
COMMENT ON FUNCTION report_price_change_notice(timestamptz, text, uuid[]) IS
    'price_change_churn: the price-change notices of the given subscriptions (all with NULL) as of $1 under basis $2, each with the product billed then (migration 0059).';

CREATE TABLE report_price_change_notice_run (subscription_id uuid, id uuid, provider text, event_type text,
                                             effective_at timestamptz, amount_micros bigint,
                                             currency_code text CHECK (currency_code ~ '^[A-Z]{3}$'), country_code text,
                                             product_id text, period_end_at timestamptz, billing_period text,
                                             billed_micros bigint, billed_currency text CHECK (billed_currency ~ '^[A-Z]{3}$'),
                                             CHECK ((amount_micros IS NULL) = (currency_code IS NULL)),
                                             CHECK ((billed_micros IS NULL) = (billed_currency IS NULL)),
                                             CONSTRAINT report_price_change_notice_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_price_change_notice_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0059).';

CREATE FUNCTION report_run_price_change_notice(as_of timestamptz, basis text)
RETURNS SETOF report_price_change_notice_run
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_price_change_notice_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_notice' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.* FROM report_price_change_notice($1, $2, NULL) e
WHERE NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_notice' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_price_change_notice(timestamptz, text) IS
    'The run''s price-change notices (report_price_change_notice_run) when build-reports filled them for this as-of instant and basis; report_price_change_notice($1, $2, NULL) otherwise (migration 0059).';

-- The changes the history knows (one per provider, product, region, currency, old -> new price and mode): the
-- subscription_price_change rows announced (and, on basis 'known', recorded) by the as-of instant, and a change no
-- such row names (its only notices reached subscribers in a free trial, who have no old price), known from its
-- earliest notice, with the old price the latest paid price of that product, country and currency (other than the new
-- price) before it, and the mode a consent increase (PRICE_INCREASE) or a decrease.
CREATE FUNCTION report_price_change(as_of timestamptz, basis text)
RETURNS TABLE (provider text, product_id text, region_code text, currency_code text, old_amount_micros bigint,
               new_amount_micros bigint, mode text)
LANGUAGE sql STABLE AS $fn$
WITH known_change AS (
    SELECT DISTINCT c.provider::text AS provider, c.product_id, c.region_code, c.currency_code, c.old_amount_micros,
           c.new_amount_micros, c.mode::text AS mode
    FROM subscription_price_change c
    WHERE c.old_amount_micros IS NOT NULL AND c.product_id IS NOT NULL AND c.announced_at <= $1
      AND ($2 = 'corrected' OR c.created_at <= $1)
),
-- The notices of a change no row names: few or none (materialised, so that the search below runs for them only).
unnamed AS MATERIALIZED (
    SELECT n.* FROM report_run_price_change_notice($1, $2) n
    WHERE n.event_type = 'PRICE_CHANGE_PENDING'
      AND NOT EXISTS (SELECT 1 FROM known_change k WHERE k.provider = n.provider AND k.product_id = n.product_id
                        AND k.region_code = n.country_code AND k.currency_code = n.currency_code
                        AND k.new_amount_micros = n.amount_micros)
),
inferred_change AS (
    SELECT DISTINCT ON (n.provider, n.product_id, n.country_code, n.currency_code, n.amount_micros)
           n.provider, n.product_id, n.country_code AS region_code, n.currency_code, o.amount_micros AS old_amount_micros,
           n.amount_micros AS new_amount_micros,
           CASE WHEN n.amount_micros < o.amount_micros THEN 'PRICE_DECREASE' ELSE 'PRICE_INCREASE' END AS mode
    FROM unnamed n
    JOIN LATERAL (
        SELECT h.amount_micros FROM billing_transaction h
        WHERE h.provider = n.provider::billing_provider AND h.product_id = n.product_id AND h.country_code = n.country_code
          AND h.currency_code = n.currency_code AND h.amount_micros <> n.amount_micros AND h.effective_at <= n.effective_at
          AND h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND h.amount_micros > 0
          AND h.effective_at <= $1 AND ($2 = 'corrected' OR h.recorded_at <= $1)
          AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = h.subscription_id AND t.is_test)
        ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) o ON true
    ORDER BY n.provider, n.product_id, n.country_code, n.currency_code, n.amount_micros, n.effective_at, n.id
)
SELECT * FROM known_change UNION SELECT * FROM inferred_change
$fn$;
COMMENT ON FUNCTION report_price_change(timestamptz, text) IS
    'price_change_churn: the price changes the history knows as of $1 under basis $2, named by subscription_price_change or inferred from the run''s notices (migration 0059).';

-- The memberships and peer states of the given subscriptions (every one with NULL), from one sorted pass over their
-- paid charges (definitions: Reports/price_change_churn.sql and Reports/README.md, "Price-change churn"):
--   * kind 'member': a membership of a price-change cohort with its outcome. Told: a notice of a known change of the
--     product billed then in the subscriber's country, the earliest per change; untold: a renewal or recovery charged
--     less than the previous paid charge of the same product and currency, kept only when no told membership has its
--     subscriber, currency, old and new price;
--   * kind 'peer': in each slot (a cohort's window start, provider and product: `slots`, as `report_price_change_slots`
--     gives them; NULL: the slots of the memberships computed here, every cohort's when `subscriptions` is NULL), a
--     subscription that pays for that product there with nothing disrupting it: its latest paid charge at or before
--     the window start (in the order effective_at, id; of any product) is of that provider and product with its period
--     running there, and no ending, grace, hold or pause falls after that charge up to the window start; with the
--     charge's country and the subscription's first ending (EXPIRED, REFUNDED, REVOKED) at or after the window start.
-- One function, not two, so that a run over every subscription sorts the history's charges once for both.
CREATE FUNCTION report_price_change_fact(as_of timestamptz, basis text, subscriptions uuid[], slots jsonb)
RETURNS TABLE (kind text, subscription_id uuid, provider text, product_id text, region_code text, currency_code text,
               old_amount_micros bigint, new_amount_micros bigint, mode text, was_told boolean, start_at timestamptz,
               aimed_at timestamptz, factor integer, billing_period text, consented boolean, applied boolean,
               churned_due_to_change boolean, ended_at timestamptz, window_start timestamptz, country_code text,
               first_end_at timestamptz)
LANGUAGE sql STABLE AS $fn$
WITH own AS NOT MATERIALIZED (
    SELECT b.subscription_id, b.id, b.event_type, b.effective_at, b.amount_micros, b.currency_code, b.product_id,
           b.reason, b.billing_period,
           CASE b.billing_period
               WHEN 'P1W' THEN 52 WHEN 'P2W' THEN 26 WHEN 'P4W' THEN 13 WHEN 'P1M' THEN 12 WHEN 'P2M' THEN 6
               WHEN 'P3M' THEN 4 WHEN 'P6M' THEN 2 WHEN 'P1Y' THEN 1 END AS factor,
           b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
               AND b.amount_micros > 0 AS is_charge,
           b.event_type IN ('EXPIRED', 'REFUNDED', 'REVOKED') AS is_end
    FROM billing_transaction b
    WHERE b.effective_at <= $1 AND ($2 = 'corrected' OR b.recorded_at <= $1)
),
-- The given subscriptions' rows as known on the basis, no test purchase's (NOT IN: the few test subscriptions hashed
-- once, tested in the scan).
hist AS NOT MATERIALIZED (
    SELECT b.* FROM billing_transaction b
    WHERE ($3 IS NULL OR b.subscription_id = ANY ($3))
      AND b.effective_at <= $1 AND ($2 = 'corrected' OR b.recorded_at <= $1)
      AND b.subscription_id NOT IN (SELECT t.subscription_id FROM billing_transaction t WHERE t.is_test)
),
-- Their paid charges, each with its subscription's next one's instant (it is the latest at the instants from its own
-- up to that one) and, for a renewal or recovery that charged less than the previous paid charge of the same product
-- and currency, that charge's amount (decreased_from): one sorted pass serves both.
charge AS MATERIALIZED (
    SELECT h.subscription_id, h.provider, h.effective_at, h.amount_micros, h.currency_code, h.country_code, h.product_id,
           h.period_end_at, lead(h.effective_at) OVER w AS next_charge_at,
           CASE WHEN h.event_type IN ('RENEWED', 'RECOVERED') AND lag(h.product_id) OVER w = h.product_id
                     AND lag(h.currency_code) OVER w = h.currency_code AND h.amount_micros < lag(h.amount_micros) OVER w
                THEN lag(h.amount_micros) OVER w END AS decreased_from
    FROM hist h
    WHERE h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND h.amount_micros > 0
    -- (ROWS: lead and lag ignore the frame, and ROWS spares the default RANGE frame's peer test of every row)
    WINDOW w AS (PARTITION BY h.subscription_id ORDER BY h.effective_at, h.id ROWS UNBOUNDED PRECEDING)
),
told AS (
    SELECT DISTINCT ON (n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
                        k.new_amount_micros, k.mode)
           n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
           k.new_amount_micros, k.mode, n.effective_at AS start_at,
           CASE WHEN n.period_end_at > n.effective_at THEN n.period_end_at
                ELSE n.period_end_at + n.billing_period::interval END AS target_at
    FROM report_run_price_change_notice($1, $2) n
    JOIN report_price_change($1, $2) k
      ON k.provider = n.provider AND k.product_id = n.product_id AND k.region_code = n.country_code
         AND k.currency_code = COALESCE(n.currency_code, n.billed_currency)
         AND (k.new_amount_micros = n.amount_micros OR (n.amount_micros IS NULL AND k.old_amount_micros = n.billed_micros))
    WHERE $3 IS NULL OR n.subscription_id = ANY ($3)
    ORDER BY n.subscription_id, k.provider, k.product_id, k.region_code, k.currency_code, k.old_amount_micros,
             k.new_amount_micros, k.mode, n.effective_at
),
untold AS (
    SELECT DISTINCT ON (ch.subscription_id, ch.product_id, ch.country_code, ch.currency_code, ch.decreased_from, ch.amount_micros)
           ch.subscription_id, ch.provider::text AS provider, ch.product_id, ch.country_code AS region_code, ch.currency_code,
           ch.decreased_from AS old_amount_micros, ch.amount_micros AS new_amount_micros, 'PRICE_DECREASE' AS mode,
           ch.effective_at AS start_at, ch.effective_at AS target_at
    FROM charge ch
    WHERE ch.decreased_from IS NOT NULL
    ORDER BY ch.subscription_id, ch.product_id, ch.country_code, ch.currency_code, ch.decreased_from, ch.amount_micros,
             ch.effective_at
),
member AS (
    SELECT y.* FROM (
        SELECT x.*, bool_or(x.was_told) OVER (PARTITION BY x.subscription_id, x.currency_code, x.old_amount_micros,
                                                           x.new_amount_micros) AS any_told
        FROM (SELECT t.*, true AS was_told FROM told t
              UNION ALL
              SELECT u.*, false FROM untold u) x) y
    WHERE y.was_told OR NOT y.any_told
),
outcome AS MATERIALIZED (
    SELECT m.subscription_id, m.provider, m.product_id, m.region_code, m.currency_code, m.old_amount_micros,
           m.new_amount_micros, m.mode, m.was_told, m.start_at, COALESCE(m.target_at, ap.effective_at) AS aimed_at,
           pl.factor, pl.billing_period,
           EXISTS (SELECT 1 FROM own a WHERE a.subscription_id = m.subscription_id AND a.event_type = 'PRICE_CHANGE_ACCEPTED'
                   AND a.effective_at >= m.start_at) AS consented,
           ap.effective_at IS NOT NULL AS applied, pc.effective_at IS NOT NULL AS churned_due_to_change,
           en.effective_at AS ended_at
    FROM member m
    -- The plan's billing period: the latest charge (a free trial's included) at or before start_at.
    LEFT JOIN LATERAL (
        SELECT h.factor, h.billing_period FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.factor IS NOT NULL AND h.effective_at <= m.start_at
          AND h.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
        ORDER BY h.effective_at DESC, h.id DESC LIMIT 1) pl ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.is_charge AND h.event_type IN ('RENEWED', 'RECOVERED')
          AND h.amount_micros = m.new_amount_micros AND h.currency_code = m.currency_code AND h.effective_at >= m.start_at
        ORDER BY h.effective_at, h.id LIMIT 1) ap ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.event_type = 'EXPIRED'
          AND h.reason = 'PRICE_INCREASE_NOT_CONSENTED' AND h.effective_at >= m.start_at
        ORDER BY h.effective_at, h.id LIMIT 1) pc ON true
    LEFT JOIN LATERAL (
        SELECT h.effective_at FROM own h
        WHERE h.subscription_id = m.subscription_id AND h.is_end AND h.effective_at >= m.start_at
          AND h.reason IS DISTINCT FROM 'PRICE_INCREASE_NOT_CONSENTED'
        ORDER BY h.effective_at, h.id LIMIT 1) en ON true
),
slot AS MATERIALIZED (
    SELECT x.window_start, x.provider::billing_provider AS provider, x.product_id
    FROM jsonb_to_recordset($4) AS x(window_start timestamptz, provider text, product_id text)
    WHERE $4 IS NOT NULL
    UNION
    SELECT min(o.start_at), o.provider::billing_provider, o.product_id FROM outcome o
    WHERE $4 IS NULL AND o.provider IS NOT NULL AND o.product_id IS NOT NULL
    GROUP BY o.provider, o.product_id, o.region_code, o.currency_code, o.old_amount_micros, o.new_amount_micros, o.mode
),
candidate AS (
    SELECT s.window_start, s.provider, s.product_id, l.subscription_id, l.country_code, l.effective_at AS charged_at
    FROM slot s
    JOIN charge l ON l.provider = s.provider AND l.product_id = s.product_id
                     AND l.effective_at <= s.window_start AND (l.next_charge_at IS NULL OR l.next_charge_at > s.window_start)
                     AND l.period_end_at > s.window_start
    -- (implied by the join, tested first so that only the charges around the window starts are joined)
    WHERE l.period_end_at > (SELECT min(w.window_start) FROM slot w) AND l.effective_at <= (SELECT max(w.window_start) FROM slot w)
),
-- The rows that disrupt paying: read once and hashed (a look-up per candidate was slower); every subscription's by
-- the (provider, event type, effective_at) index, the given ones' by theirs.
disruption AS MATERIALIZED (
    SELECT h.subscription_id, h.effective_at, h.event_type IN ('EXPIRED', 'REFUNDED', 'REVOKED') AS is_end
    FROM hist h
    WHERE ($3 IS NOT NULL OR h.provider = ANY (enum_range(NULL::billing_provider)))
      AND h.event_type IN ('EXPIRED', 'REFUNDED', 'REVOKED', 'ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED')
      AND EXISTS (SELECT 1 FROM slot)
),
peer AS (
    SELECT a.window_start, a.provider::text AS provider, a.product_id, a.subscription_id, a.country_code,
           min(d.effective_at) FILTER (WHERE d.is_end AND d.effective_at >= a.window_start) AS first_end_at
    FROM candidate a
    LEFT JOIN disruption d ON d.subscription_id = a.subscription_id AND d.effective_at >= a.charged_at
    GROUP BY a.window_start, a.provider, a.product_id, a.subscription_id, a.country_code, a.charged_at
    HAVING NOT COALESCE(bool_or(d.effective_at > a.charged_at AND d.effective_at <= a.window_start), false)
)
SELECT 'member', o.subscription_id, o.provider, o.product_id, o.region_code, o.currency_code, o.old_amount_micros,
       o.new_amount_micros, o.mode, o.was_told, o.start_at, o.aimed_at, o.factor, o.billing_period, o.consented,
       o.applied, o.churned_due_to_change, o.ended_at, NULL::timestamptz, NULL::text, NULL::timestamptz
FROM outcome o
UNION ALL
SELECT 'peer', p.subscription_id, p.provider, p.product_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, p.window_start, p.country_code, p.first_end_at
FROM peer p
$fn$;
COMMENT ON FUNCTION report_price_change_fact(timestamptz, text, uuid[], jsonb) IS
    'price_change_churn: the price-change cohort memberships (kind member) and the peer states in the slots $4 (kind peer; NULL: the memberships'' own slots) of the given subscriptions (all with NULL) as of $1 under basis $2 (migration 0059).';

CREATE TABLE report_price_change_member_run (subscription_id uuid, provider text, product_id text, region_code text,
                                             currency_code text CHECK (currency_code ~ '^[A-Z]{3}$'),
                                             old_amount_micros bigint, new_amount_micros bigint, mode text,
                                             was_told boolean, start_at timestamptz, aimed_at timestamptz, factor integer,
                                             billing_period text, consented boolean, applied boolean,
                                             churned_due_to_change boolean, ended_at timestamptz,
                                             CHECK (currency_code IS NOT NULL OR (old_amount_micros IS NULL AND new_amount_micros IS NULL)),
                                             CONSTRAINT report_price_change_member_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_price_change_member_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0059).';

CREATE FUNCTION report_run_price_change_member(as_of timestamptz, basis text)
RETURNS SETOF report_price_change_member_run
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_price_change_member_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_member' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.subscription_id, e.provider, e.product_id, e.region_code, e.currency_code, e.old_amount_micros,
       e.new_amount_micros, e.mode, e.was_told, e.start_at, e.aimed_at, e.factor, e.billing_period, e.consented,
       e.applied, e.churned_due_to_change, e.ended_at
FROM report_price_change_fact($1, $2, NULL, '[]') e
WHERE e.kind = 'member'
  AND NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_member' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_price_change_member(timestamptz, text) IS
    'The run''s price-change memberships (report_price_change_member_run) when build-reports filled them for this as-of instant and basis; computed by report_price_change_fact otherwise (migration 0059).';

-- The slots the baseline reads: each cohort's window start (the earliest start of its members; a cohort: provider x
-- product x region x currency x old -> new price x mode) with its provider and product, distinct and in order, as a
-- jsonb array of {window_start, provider, product_id}.
CREATE FUNCTION report_price_change_slots(as_of timestamptz, basis text)
RETURNS jsonb
LANGUAGE sql STABLE AS $fn$
SELECT COALESCE(jsonb_agg(jsonb_build_object('window_start', s.window_start, 'provider', s.provider, 'product_id', s.product_id)
                          ORDER BY s.window_start, s.provider, s.product_id), '[]')
FROM (SELECT DISTINCT min(m.start_at) AS window_start, m.provider, m.product_id
      FROM report_run_price_change_member($1, $2) m
      WHERE m.provider IS NOT NULL AND m.product_id IS NOT NULL
      GROUP BY m.provider, m.product_id, m.region_code, m.currency_code, m.old_amount_micros, m.new_amount_micros, m.mode) s
$fn$;
COMMENT ON FUNCTION report_price_change_slots(timestamptz, text) IS
    'price_change_churn: the (window start, provider, product) of the run''s price-change cohorts, distinct and in order, as a jsonb array (migration 0059).';

CREATE TABLE report_price_change_peer_run (window_start timestamptz, provider text, product_id text,
                                           subscription_id uuid, country_code text, first_end_at timestamptz,
                                           CONSTRAINT report_price_change_peer_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_price_change_peer_run IS 'Always empty: shadowed by build-reports'' temporary table of one run (migration 0059).';

CREATE FUNCTION report_run_price_change_peer(as_of timestamptz, basis text)
RETURNS SETOF report_price_change_peer_run
LANGUAGE sql STABLE AS $fn$
SELECT r.* FROM report_price_change_peer_run r
WHERE EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_peer' AND f.as_of = $1 AND f.basis = $2)
UNION ALL
SELECT e.window_start, e.provider, e.product_id, e.subscription_id, e.country_code, e.first_end_at
FROM report_price_change_fact($1, $2, NULL, NULL) e
WHERE e.kind = 'peer'
  AND NOT EXISTS (SELECT 1 FROM report_run_filled f WHERE f.relation = 'price_change_peer' AND f.as_of = $1 AND f.basis = $2)
$fn$;
COMMENT ON FUNCTION report_run_price_change_peer(timestamptz, text) IS
    'The run''s peer states (report_price_change_peer_run) when build-reports filled them for this as-of instant and basis; computed by report_price_change_fact otherwise (migration 0059).';

-- The stores, per basis: the facts of every subscription as of the span set's as-of instant and snapshot; caches
-- (UNLOGGED), each row with the digest of the SQL that computed it (the members' also with the change set's digest).
CREATE UNLOGGED TABLE report_stored_price_change_notice (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    id              uuid,
    provider        text,
    event_type      text,
    effective_at    timestamptz,
    amount_micros   bigint,
    currency_code   text CHECK (currency_code ~ '^[A-Z]{3}$'),
    country_code    text,
    product_id      text,
    period_end_at   timestamptz,
    billing_period  text,
    billed_micros   bigint,
    billed_currency text CHECK (billed_currency ~ '^[A-Z]{3}$'),
    definition      text NOT NULL,
    CHECK ((amount_micros IS NULL) = (currency_code IS NULL)),
    CHECK ((billed_micros IS NULL) = (billed_currency IS NULL))
);
CREATE INDEX report_stored_price_change_notice_subscription ON report_stored_price_change_notice (basis, subscription_id);
COMMENT ON TABLE report_stored_price_change_notice IS
    'build-reports: per basis, the price-change notices (report_price_change_notice) of every subscription as of the stored span set''s as-of instant and snapshot (migration 0059).';

CREATE UNLOGGED TABLE report_stored_price_change_member (
    basis                 text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id       uuid NOT NULL,
    provider              text,
    product_id            text,
    region_code           text,
    currency_code         text CHECK (currency_code ~ '^[A-Z]{3}$'),
    old_amount_micros     bigint,
    new_amount_micros     bigint,
    mode                  text,
    was_told              boolean,
    start_at              timestamptz,
    aimed_at              timestamptz,
    factor                integer,
    billing_period        text,
    consented             boolean,
    applied               boolean,
    churned_due_to_change boolean,
    ended_at              timestamptz,
    definition            text NOT NULL,
    -- (a membership's prices are in its currency: told ones in the change's, untold ones in the charge's)
    CHECK (currency_code IS NOT NULL OR (old_amount_micros IS NULL AND new_amount_micros IS NULL))
);
CREATE INDEX report_stored_price_change_member_subscription ON report_stored_price_change_member (basis, subscription_id);
COMMENT ON TABLE report_stored_price_change_member IS
    'build-reports: per basis, the price-change cohort memberships (report_price_change_member) of every subscription as of the stored span set''s as-of instant and snapshot; definition: the SQL''s digest and the change set''s (migration 0059).';

CREATE UNLOGGED TABLE report_stored_price_change_peer (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    window_start    timestamptz NOT NULL,
    provider        text NOT NULL,
    product_id      text NOT NULL,
    subscription_id uuid NOT NULL,
    country_code    text,
    first_end_at    timestamptz,
    definition      text NOT NULL
);
CREATE INDEX report_stored_price_change_peer_subscription ON report_stored_price_change_peer (basis, subscription_id);
COMMENT ON TABLE report_stored_price_change_peer IS
    'build-reports: per basis, the peer states (report_price_change_peer) of every subscription in each stored slot as of the stored span set''s as-of instant and snapshot (migration 0059).';
