#!/usr/bin/env python3
"""DuckDB peer of build-reports: every report but reconciliation (mrr, mrr_bridge, mrr_movements, refunds,
grace_hold_recovery, entitlement_leakage, price_change_churn, subscribers, kpis, trial_conversion, plan_change_mix,
cohorts) in DuckDB SQL, from Reports/README.md.

Written from the definitions in Reports/README.md (not from Reports/*.sql), like the pandas peer reports_peer.py. The
tables the reports read are exported from PostgreSQL with `psql \\copy (…) TO STDOUT` (CSV), each into a pipe that
DuckDB reads while psql writes it, all at once (one thread per table); the export is part of this process's time.
Every computation and the CSV formatting are DuckDB SQL: money is integer micros (HUGEINT where a sum is multiplied
by an FX rate scaled by 10^12), divided and rounded half to even once per cell, as the page says.

usage: reports_duckdb.py --dsn <conninfo> --as-of <instant> --from YYYY-MM --to YYYY-MM --currency USD
                         --basis corrected|known --out DIR [--threads N] [--raw-ids] [--export-only]
--export-only reads the exports to their end and discards them (the floor: what reading the same inputs out of
PostgreSQL costs, before any loading or computing).
Identifiers (subscription_id, billing_account_id) are masked as build-reports masks them (first four … last four
characters; `…` for nine characters or fewer) unless --raw-ids, as build-reports without and with --raw-ids. The Newcombe interval is computed in doubles (the page's
constants), rounded to six decimals.
"""
import argparse
import os
import subprocess
import tempfile
import threading

import duckdb

MICROS = "(extract(epoch FROM {0}) * 1000000)::bigint AS {1}"

# What is exported: the columns the reports read. Instants as integer microseconds since the epoch (exact).
EXPORTS = {
    "tx": f"""SELECT b.id::text AS id, b.subscription_id::text AS sub, b.provider::text AS provider,
                     b.event_type::text AS event_type, b.transaction_key AS tkey,
                     {MICROS.format('b.effective_at', 'eff')}, {MICROS.format('b.recorded_at', 'recorded')},
                     {MICROS.format('b.expires_at', 'expires')}, {MICROS.format('b.period_end_at', 'period_end')},
                     b.amount_micros AS amount, b.currency_code AS currency, b.country_code AS country, b.is_test,
                     b.product_id, b.plan_id::text AS plan_id, b.billing_period, b.refunded_transaction_key AS refunded_key,
                     b.refund_kind::text AS refund_kind, b.revocation_reason, b.revocation_type, b.voided_source,
                     b.voided_reason, b.reason
              FROM billing_transaction b""",
    "sub": """SELECT id::text AS sub, provider::text AS provider, billing_account_id::text AS account, is_test_purchase,
                     is_sandbox FROM subscription""",
    "plan": "SELECT id::text AS plan_id, code AS plan_code FROM plan",
    "fx": "SELECT to_char(month, 'YYYY-MM') AS month, from_currency, to_currency, rate::text AS rate FROM fx_rate",
    "pc": f"""SELECT provider::text AS provider, product_id, region_code, currency_code, old_amount_micros AS old_micros,
                     new_amount_micros AS new_micros, mode::text AS mode, {MICROS.format('announced_at', 'announced')},
                     {MICROS.format('created_at', 'created')}
              FROM subscription_price_change""",
    "ent": f"""SELECT subscription_id::text AS sub, billing_account_id::text AS account, plan_id::text AS plan_id,
                      {MICROS.format('valid_from', 'valid_from')}, {MICROS.format('valid_until', 'valid_until')},
                      {MICROS.format('ended_at', 'ended')}, {MICROS.format('recorded_at', 'recorded')}
               FROM entitlement_interval""",
}
TYPES = {
    "tx": {"id": "VARCHAR", "sub": "VARCHAR", "provider": "VARCHAR", "event_type": "VARCHAR", "tkey": "VARCHAR",
           "eff": "BIGINT", "recorded": "BIGINT", "expires": "BIGINT", "period_end": "BIGINT", "amount": "BIGINT",
           "currency": "VARCHAR", "country": "VARCHAR", "is_test": "BOOLEAN", "product_id": "VARCHAR",
           "plan_id": "VARCHAR", "billing_period": "VARCHAR", "refunded_key": "VARCHAR", "refund_kind": "VARCHAR",
           "revocation_reason": "INTEGER", "revocation_type": "VARCHAR", "voided_source": "INTEGER",
           "voided_reason": "INTEGER", "reason": "VARCHAR"},
    "sub": {"sub": "VARCHAR", "provider": "VARCHAR", "account": "VARCHAR", "is_test_purchase": "BOOLEAN",
            "is_sandbox": "BOOLEAN"},
    "plan": {"plan_id": "VARCHAR", "plan_code": "VARCHAR"},
    "fx": {"month": "VARCHAR", "from_currency": "VARCHAR", "to_currency": "VARCHAR", "rate": "VARCHAR"},
    "pc": {"provider": "VARCHAR", "product_id": "VARCHAR", "region_code": "VARCHAR", "currency_code": "VARCHAR",
           "old_micros": "BIGINT", "new_micros": "BIGINT", "mode": "VARCHAR", "announced": "BIGINT", "created": "BIGINT"},
    "ev": {"month": "VARCHAR", "event": "VARCHAR", "offer": "VARCHAR", "quantity": "BIGINT"},
    "ent": {"sub": "VARCHAR", "account": "VARCHAR", "plan_id": "VARCHAR", "valid_from": "BIGINT", "valid_until": "BIGINT",
            "ended": "BIGINT", "recorded": "BIGINT"},
}

# Arithmetic and formatting (Reports/README.md, "Parameters and columns", "Rounding"; docs/REPORT_OUTPUT.md).
MACROS = """
CREATE MACRO fdiv(x, k) AS CASE WHEN x % k < 0 THEN x // k - 1 ELSE x // k END;
CREATE MACRO div_even(x, k) AS fdiv(x, k) + CASE WHEN 2 * (x - k * fdiv(x, k)) > k
    OR (2 * (x - k * fdiv(x, k)) = k AND fdiv(x, k) % 2 <> 0) THEN 1 ELSE 0 END;
CREATE MACRO div_away(x, k) AS sign(x) * ((abs(x) * 2 + k) // (2 * k));
CREATE MACRO digits(c) AS CASE WHEN c IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX',
    'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF') THEN 0 WHEN c IN ('BHD', 'JOD', 'KWD', 'OMR', 'TND', 'IQD', 'LYD') THEN 3 ELSE 2 END;
CREATE MACRO decimal_text(q, d) AS (CASE WHEN q < 0 THEN '-' ELSE '' END) || (abs(q) // (10 ** d)::BIGINT)::VARCHAR
    || CASE WHEN d = 0 THEN '' ELSE '.' || lpad((abs(q) % (10 ** d)::BIGINT)::VARCHAR, d, '0') END;
CREATE MACRO money(micros, c) AS CASE WHEN micros IS NULL OR c IS NULL THEN NULL
    ELSE decimal_text(div_even(micros::HUGEINT, (10 ** (6 - digits(c)))::BIGINT), digits(c)) END;
CREATE MACRO ratio6(num, den) AS CASE WHEN den = 0 THEN NULL ELSE decimal_text(div_away(num::HUGEINT * 1000000, den), 6) END;
CREATE MACRO days4(us) AS decimal_text(div_away(us::HUGEINT, 8640000), 4);
CREATE MACRO month_of(us) AS strftime(make_timestamp(us), '%Y-%m');
CREATE MACRO month_index(m) AS CAST(substr(m, 1, 4) AS INTEGER) * 12 + CAST(substr(m, 6, 2) AS INTEGER) - 1;
CREATE MACRO month_text(i) AS lpad((i // 12)::VARCHAR, 4, '0') || '-' || lpad((i % 12 + 1)::VARCHAR, 2, '0');
CREATE MACRO month_start_us(i) AS epoch_us(make_timestamp(i // 12, i % 12 + 1, 1, 0, 0, 0));
"""


def export(dsn, folder):
    """Starts one psql per table, each writing CSV into a named pipe; returns the pipes and the processes."""
    pipes, procs = {}, []
    for name, sql in EXPORTS.items():
        pipe = os.path.join(folder, name + ".csv")
        os.mkfifo(pipe)
        pipes[name] = pipe
        procs.append(subprocess.Popen(["psql", "-X", "-q", "-d", dsn, "-o", pipe, "-c",
                                       f"\\copy ({' '.join(sql.split())}) TO STDOUT WITH (FORMAT csv, HEADER)"]))
    return pipes, procs


def each_pipe(pipes, read):
    """Calls read(name) for every pipe at once, one thread each (psql writes them all at once), and waits for all."""
    threads = [threading.Thread(target=read, args=(name,)) for name in pipes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def load(con, pipes):
    def read(name):
        columns = "{" + ", ".join(f"'{c}': '{t}'" for c, t in TYPES[name].items()) + "}"
        con.cursor().execute(f"CREATE TABLE {name}_raw AS SELECT * FROM read_csv('{pipes[name]}', header = true, delim = ',', "
                             f"columns = {columns}, quote = '\"', escape = '\"', nullstr = '')")
    each_pipe(pipes, read)


def drain(pipes):
    """Reads every export to its end, one thread per pipe, and keeps nothing (--export-only)."""
    def read(name):
        with open(pipes[name], "rb") as f:
            while f.read(1 << 20):
                pass
    each_pipe(pipes, read)


KNOWN = {"value": "FALSE"}


def known_sql():
    """TRUE under basis 'known' (rows recorded after the as-of instant are not read), as SQL."""
    return KNOWN["value"]


def prepare(con, a):
    """The rows read under the basis, who counts, the snapshots and each paying subscription's contribution at each."""
    as_of = f"epoch_us(TIMESTAMPTZ '{a.as_of}')"
    known = KNOWN["value"] = "TRUE" if a.basis == "known" else "FALSE"
    first, last = f"month_index('{a.first}')", f"LEAST(month_index('{a.last}'), month_index(month_of({as_of})))"
    con.execute(f"""
    CREATE TABLE params AS SELECT {as_of} AS as_of, {first} AS first_i, {last} AS last_i, '{a.currency}' AS reporting;
    -- Read: effective by the as-of instant; under 'known' also recorded by then.
    CREATE TABLE tx AS SELECT t.* FROM tx_raw t, params p WHERE t.eff <= p.as_of AND (NOT {known} OR t.recorded <= p.as_of);
    -- Test and sandbox purchases count nowhere: the subscription's flags, or any history row of it a test row.
    CREATE TABLE counted AS SELECT s.sub, s.provider, coalesce(s.account, s.sub) AS account FROM sub_raw s
        WHERE NOT s.is_test_purchase AND NOT s.is_sandbox AND s.sub NOT IN (SELECT sub FROM tx_raw WHERE is_test);
    CREATE TABLE factor (billing_period VARCHAR, f BIGINT);
    INSERT INTO factor VALUES ('P1W', 52), ('P2W', 26), ('P4W', 13), ('P1M', 12), ('P2M', 6), ('P3M', 4), ('P6M', 2), ('P1Y', 1);
    -- Snapshots: each month from the earlier of the first month and the month of the first history row read, to the
    -- last; the month's last millisecond, or the as-of instant when earlier.
    CREATE TABLE snap AS SELECT i AS mi, month_text(i) AS month, LEAST(month_start_us(i + 1) - 1000, p.as_of) AS at_us,
        i >= p.first_i AS reported
        FROM params p, range(LEAST(p.first_i, coalesce((SELECT month_index(month_of(min(eff))) FROM tx), p.first_i)), p.last_i + 1) r(i);
    -- The MRR state rows in reading order: charges (an amount and a paid period), then grace, then hold and pause,
    -- then expiry, revocation, refund; one kind by transaction key.
    CREATE TABLE state AS SELECT t.*, c.provider AS sub_provider, c.account, f.f,
        CASE WHEN t.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                  AND t.amount IS NOT NULL AND t.period_end IS NOT NULL THEN 0
             WHEN t.event_type = 'ENTERED_GRACE_PERIOD' THEN 1
             WHEN t.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
             WHEN t.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 END AS rnk
        FROM tx t JOIN counted c USING (sub) LEFT JOIN factor f USING (billing_period);
    DELETE FROM state WHERE rnk IS NULL;
    CREATE TABLE ordered AS SELECT s.*,
        lead(s.eff) OVER (PARTITION BY s.sub ORDER BY s.eff, s.rnk, s.tkey) AS next_at,
        last_value(CASE WHEN rnk = 0 THEN {{'amount': amount, 'f': f, 'currency': currency, 'country': country,
            'product_id': product_id, 'plan_id': plan_id, 'billing_period': billing_period}} END IGNORE NULLS)
            OVER (PARTITION BY s.sub ORDER BY s.eff, s.rnk, s.tkey ROWS UNBOUNDED PRECEDING) AS l,
        last_value(CASE WHEN rnk = 0 AND amount > 0 AND f IS NOT NULL THEN {{'tw': amount * f, 'currency': currency}} END
            IGNORE NULLS) OVER (PARTITION BY s.sub ORDER BY s.eff, s.rnk, s.tkey ROWS UNBOUNDED PRECEDING) AS c,
        first_value(CASE WHEN rnk = 0 THEN {{'recovered': event_type = 'RECOVERED', 'tw': amount * f, 'currency': currency,
            'country': country, 'product_id': product_id, 'plan_id': plan_id, 'billing_period': billing_period}} END
            IGNORE NULLS) OVER (PARTITION BY s.sub ORDER BY s.eff, s.rnk, s.tkey ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS nx
        FROM state s;
    -- What each charge or grace row contributes until the next row or its own end: a charge its amount x factor
    -- until its period ends; a grace row the recovering charge after it, else its own amount x the latest charge's
    -- factor, else the latest paid charge, until the grace ends; nothing when never paid.
    CREATE TABLE span AS SELECT sub, sub_provider AS provider, account, eff, next_at,
        CASE WHEN rnk = 0 THEN period_end WHEN expires > eff THEN expires END AS end_at,
        CASE WHEN rnk = 0 THEN amount * f
             WHEN c IS NOT NULL THEN coalesce(CASE WHEN nx.recovered THEN nx.tw END, amount * l.f, c.tw) END AS tw,
        CASE WHEN rnk = 0 THEN currency ELSE coalesce(CASE WHEN nx.recovered THEN nx.currency END, currency, c.currency) END AS currency,
        CASE WHEN rnk = 0 THEN country ELSE coalesce(CASE WHEN nx.recovered THEN nx.country END, l.country, country) END AS country,
        CASE WHEN rnk = 0 THEN product_id ELSE coalesce(CASE WHEN nx.recovered THEN nx.product_id END, l.product_id, product_id) END AS product_id,
        CASE WHEN rnk = 0 THEN plan_id ELSE coalesce(CASE WHEN nx.recovered THEN nx.plan_id END, l.plan_id, plan_id) END AS plan_id,
        CASE WHEN rnk = 0 THEN billing_period ELSE coalesce(CASE WHEN nx.recovered THEN nx.billing_period END, l.billing_period, billing_period) END AS billing_period
        FROM ordered WHERE rnk IN (0, 1);
    DELETE FROM span WHERE tw IS NULL OR tw <= 0;
    CREATE TABLE contrib AS SELECT n.mi, n.month, n.reported, s.provider, s.account, s.sub, s.currency, s.country,
        s.product_id, s.plan_id, s.billing_period, s.tw
        FROM span s JOIN snap n ON n.at_us >= s.eff AND n.at_us < LEAST(coalesce(s.next_at, 9223372036854775807),
                                                                      coalesce(s.end_at, 9223372036854775807));
    -- Rates to the reporting currency, as exact integers scaled by 10^12 (and their text).
    CREATE TABLE rate AS SELECT month, from_currency AS currency, rate AS rate_text,
        CAST(CAST(rate AS DECIMAL(24, 12)) * 1000000000000 AS HUGEINT) AS r12
        FROM fx_raw, params p WHERE to_currency = p.reporting AND from_currency <> p.reporting
        UNION ALL SELECT month, p.reporting, '1', 1000000000000::HUGEINT FROM snap, params p;
    """)


def report_mrr(con, out):
    con.execute(f"""COPY (
        SELECT month, provider, product_id, plan_code, billing_period, currency, country, money(m, currency) AS mrr,
               m AS mrr_micros, n AS paying_subscribers, money(a, currency) AS arppu, a AS arppu_micros
        FROM (SELECT c.month, c.provider, c.product_id, pl.plan_code, c.billing_period, c.currency, c.country,
                     div_even(sum(c.tw), 12) AS m, count(*) AS n, div_even(sum(c.tw), 12 * count(*)) AS a
              FROM contrib c LEFT JOIN plan_raw pl USING (plan_id) WHERE c.reported
              GROUP BY c.month, c.provider, c.product_id, pl.plan_code, c.billing_period, c.currency, c.country)
        ORDER BY month, provider, product_id NULLS FIRST, plan_code NULLS FIRST, billing_period NULLS FIRST, currency,
                 country NULLS FIRST
    ) TO '{out}/mrr.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def movements(con):
    """Per account, provider and currency: p at the previous snapshot, v at this one, and the movement."""
    con.execute("""
    CREATE TABLE acct AS SELECT mi, provider, account, currency, sum(tw) AS v, min(sub) AS low_sub, count(*) AS subs
        FROM contrib GROUP BY ALL;
    CREATE TABLE mv AS
    WITH pairs AS (
        SELECT coalesce(x.mi, y.mi + 1) AS mi, coalesce(x.provider, y.provider) AS provider,
               coalesce(x.account, y.account) AS account, coalesce(x.currency, y.currency) AS currency,
               coalesce(y.v, 0) AS p, coalesce(x.v, 0) AS v,
               x.low_sub AS sub_now, x.subs AS subs_now, y.low_sub AS sub_before, y.subs AS subs_before
        FROM acct x FULL JOIN acct y ON y.mi = x.mi - 1 AND y.provider = x.provider AND y.account = x.account
                                       AND y.currency = x.currency),
    first_paid AS (SELECT provider, account, currency, min(mi) AS first_mi FROM acct GROUP BY ALL)
    SELECT q.*, CASE WHEN p = 0 AND v > 0 AND f.first_mi >= q.mi THEN 'new'
                     WHEN p = 0 AND v > 0 THEN 'reactivation'
                     WHEN v = 0 AND p > 0 THEN 'churn'
                     WHEN v > p AND p > 0 THEN 'expansion'
                     WHEN v > 0 AND v < p THEN 'contraction' END AS movement,
           CASE WHEN v = 0 THEN p ELSE abs(v - p) END AS amount
    FROM pairs q JOIN first_paid f USING (provider, account, currency)
    WHERE q.mi <= (SELECT max(mi) FROM snap);
    DELETE FROM mv WHERE movement IS NULL;
    """)


def report_movements(con, out):
    con.execute(f"""COPY (
        SELECT n.month, m.provider, shown_id(m.account) AS billing_account_id, m.currency, m.movement,
               money(div_even(m.p, 12), m.currency) AS start, div_even(m.p, 12) AS start_micros,
               money(div_even(m.v, 12), m.currency) AS "end", div_even(m.v, 12) AS end_micros,
               money(div_even(m.amount, 12), m.currency) AS amount, div_even(m.amount, 12) AS amount_micros,
               m.p AS start_twelfths, m.v AS end_twelfths, m.amount AS amount_twelfths,
               r.rate_text AS rate_to_reporting, pr.rate_text AS previous_rate_to_reporting,
               shown_id(CASE WHEN m.movement = 'churn' THEN m.sub_before ELSE m.sub_now END) AS subscription_id,
               CASE WHEN m.movement = 'churn' THEN m.subs_before ELSE m.subs_now END AS subscriptions_count
        FROM mv m JOIN snap n ON n.mi = m.mi
        LEFT JOIN rate r ON r.month = n.month AND r.currency = m.currency
        LEFT JOIN snap pn ON pn.mi = m.mi - 1
        LEFT JOIN rate pr ON pr.month = pn.month AND pr.currency = m.currency
        WHERE n.reported
        ORDER BY n.month, m.provider, m.currency, m.movement, m.account
    ) TO '{out}/mrr_movements.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_bridge(con, out):
    names = ["new", "expansion", "contraction", "churn", "reactivation"]
    sums = ", ".join(f"sum(CASE WHEN movement = '{n}' THEN amount ELSE 0 END) AS {n}_tw, "
                     f"count(*) FILTER (WHERE movement = '{n}') AS {n}_count" for n in names)
    local = ", ".join(f"div_even(coalesce(m.{n}_tw, 0), 12) AS {n}" for n in names)
    converted = ", ".join(f"div_even(sum(coalesce(m.{n}_tw, 0) * r.r12), 12 * 1000000000000) AS {n}" for n in names)
    counts_local = ", ".join(f"coalesce(m.{n}_count, 0) AS {n}_count" for n in names)
    counts_sum = ", ".join(f"sum(coalesce(m.{n}_count, 0)) AS {n}_count" for n in names)
    columns = ", ".join(f"money({n}, currency) AS {n}, {n} AS {n}_micros" for n in names)
    counted = ", ".join(f"{n}_count" for n in names)
    fx = "e - s - new - expansion + contraction + churn - reactivation"
    con.execute(f"""CREATE TABLE bridge AS
        WITH ends AS (SELECT mi, provider, currency, sum(tw) AS tw, count(DISTINCT account) AS accounts FROM contrib GROUP BY ALL),
        moves AS (SELECT mi, provider, currency, {sums} FROM mv GROUP BY ALL),
        cell AS (SELECT mi, provider, currency FROM ends UNION SELECT mi, provider, currency FROM moves
                 UNION SELECT mi + 1, provider, currency FROM ends WHERE mi + 1 <= (SELECT max(mi) FROM snap)),
        local AS (
            SELECT k.mi, k.provider, 'local' AS view, k.currency, div_even(coalesce(pe.tw, 0), 12) AS s,
                   div_even(coalesce(e.tw, 0), 12) AS e, {local}, {counts_local}, coalesce(e.accounts, 0) AS paying
            FROM cell k LEFT JOIN ends e USING (mi, provider, currency)
            LEFT JOIN ends pe ON pe.mi = k.mi - 1 AND pe.provider = k.provider AND pe.currency = k.currency
            LEFT JOIN moves m USING (mi, provider, currency)),
        end_rep AS (
            SELECT e.mi, e.provider, div_even(sum(e.tw * r.r12), 12 * 1000000000000) AS e
            FROM ends e JOIN snap n USING (mi) JOIN rate r ON r.month = n.month AND r.currency = e.currency GROUP BY ALL),
        paying_rep AS (SELECT mi, provider, count(DISTINCT account) AS paying FROM contrib GROUP BY ALL),
        reporting AS (
            SELECT k.mi, k.provider, 'reporting' AS view, (SELECT reporting FROM params) AS currency,
                   coalesce(pr.e, 0) AS s, coalesce(er.e, 0) AS e, {converted}, {counts_sum},
                   coalesce(any_value(py.paying), 0) AS paying
            FROM cell k JOIN snap n USING (mi) JOIN rate r ON r.month = n.month AND r.currency = k.currency
            LEFT JOIN moves m ON m.mi = k.mi AND m.provider = k.provider AND m.currency = k.currency
            LEFT JOIN end_rep er ON er.mi = k.mi AND er.provider = k.provider
            LEFT JOIN end_rep pr ON pr.mi = k.mi - 1 AND pr.provider = k.provider
            LEFT JOIN paying_rep py ON py.mi = k.mi AND py.provider = k.provider
            GROUP BY k.mi, k.provider, pr.e, er.e),
        bridge AS (SELECT * FROM local UNION ALL SELECT * FROM reporting)
        SELECT * FROM bridge""")
    con.execute(f"""COPY (
        SELECT n.month, b.provider, b.view, b.currency, money(s, currency) AS start_mrr, s AS start_mrr_micros,
               money({fx}, currency) AS fx, {fx} AS fx_micros, {columns}, money(e, currency) AS mrr, e AS mrr_micros,
               {counted}, paying AS paying_accounts_count
        FROM bridge b JOIN snap n USING (mi) WHERE n.reported
        ORDER BY n.month, b.provider, b.view, b.currency
    ) TO '{out}/mrr_bridge.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_refunds(con, out):
    reason = """CASE WHEN r.provider = 'APPLE' AND r.refund_kind = 'FAMILY_REVOKE'
                     THEN 'apple revocationType ' || coalesce(r.revocation_type, 'none')
                     WHEN r.provider = 'APPLE' THEN 'apple revocationReason ' || code(r.revocation_reason, ['other', 'app issue'])
                     ELSE 'google voidedSource ' || code(r.voided_source, ['user', 'developer', 'google'])
                          || ' voidedReason ' || code(r.voided_reason, ['other', 'remorse', 'not received', 'defective',
                             'accidental purchase', 'fraud', 'friendly fraud', 'chargeback']) END"""
    con.execute(f"""
    CREATE MACRO code(v, words) AS CASE WHEN v IS NULL THEN 'none'
        WHEN v >= 0 AND v < len(words) THEN v::VARCHAR || ' ' || words[v + 1] ELSE v::VARCHAR END;
    COPY (
        WITH read AS (SELECT t.* FROM tx t JOIN counted c USING (sub)),
        refund AS (
            SELECT * FROM read WHERE event_type = 'REFUNDED' AND refund_kind IN ('REFUND', 'CHARGEBACK')
            UNION ALL
            SELECT * FROM read WHERE event_type IN ('REFUNDED', 'REVOKED') AND refund_kind = 'FAMILY_REVOKE'
            QUALIFY row_number() OVER (PARTITION BY sub, eff ORDER BY id) = 1),
        currency_row AS (
            SELECT sub, eff, currency FROM tx_raw WHERE currency IS NOT NULL AND event_type <> 'REFUNDED'
            QUALIFY row_number() OVER (PARTITION BY sub, eff ORDER BY id DESC) = 1),
        placed AS (
            SELECT r.*, ch.eff AS charge_at, coalesce(r.refunded_key, r.tkey) AS counted_key,
                   coalesce(r.currency, ch.currency, lc.currency) AS cur, {reason} AS store_reason
            FROM refund r LEFT JOIN tx_raw ch ON ch.tkey = r.refunded_key
            ASOF LEFT JOIN currency_row lc ON lc.sub = r.sub AND r.eff >= lc.eff),
        viewed AS (
            SELECT 'by_refund_month' AS view, month_of(eff) AS month, * FROM placed
            UNION ALL SELECT 'by_charge_month', month_of(charge_at), * FROM placed WHERE charge_at IS NOT NULL),
        paid AS (
            SELECT month_of(eff) AS month, provider, currency AS cur, count(*) AS n FROM read
            WHERE event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND amount > 0
            GROUP BY ALL),
        grouped AS (
            SELECT view, month, provider, cur, refund_kind, store_reason, count(*) AS refunds,
                   count(DISTINCT counted_key) AS refunded,
                   sum(CASE WHEN refund_kind = 'FAMILY_REVOKE' THEN 0 ELSE -coalesce(amount, 0) END) AS micros,
                   list_sort(list(eff - charge_at) FILTER (WHERE charge_at IS NOT NULL)) AS d
            FROM viewed v, params p WHERE month_index(month) BETWEEN p.first_i AND p.last_i GROUP BY ALL)
        SELECT g.view, g.month, g.provider, g.cur AS currency, g.refund_kind, g.store_reason, g.refunds AS refunds_count,
               g.refunded AS refunded_transactions_count, money(g.micros, g.cur) AS refunds, g.micros AS refunds_micros,
               coalesce(pd.n, 0) AS paid_transactions_count,
               CASE WHEN g.refund_kind = 'FAMILY_REVOKE' THEN NULL ELSE ratio6(g.refunded, coalesce(pd.n, 0)) END AS refund_rate,
               CASE WHEN len(g.d) > 0 THEN days4(g.d[(len(g.d) + 1) // 2]) END AS median_days,
               CASE WHEN len(g.d) > 0 THEN days4(g.d[(9 * len(g.d) + 9) // 10]) END AS p90_days
        FROM grouped g LEFT JOIN paid pd ON pd.month = g.month AND pd.provider = g.provider AND pd.cur = g.cur
        ORDER BY g.view DESC, g.month, g.provider, g.cur, g.refund_kind, g.store_reason
    ) TO '{out}/refunds.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_grace(con, out):
    """Billing failures by month of first failure (Reports/README.md, "Grace and hold recovery")."""
    con.execute(f"""COPY (
        WITH event AS (
            SELECT t.sub, t.tkey, t.eff, t.provider, t.country, t.currency, t.amount, t.plan_id, f.f,
                   CASE WHEN t.event_type = 'ENTERED_GRACE_PERIOD' THEN 0 WHEN t.event_type = 'ENTERED_ON_HOLD' THEN 1
                        WHEN t.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 ELSE 2 END AS kind
            FROM tx t LEFT JOIN factor f USING (billing_period)
            WHERE t.sub NOT IN (SELECT sub FROM tx_raw WHERE is_test)
              AND (t.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'EXPIRED', 'REVOKED', 'REFUNDED')
                   OR (t.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND t.amount > 0))),
        -- a failure runs from its first grace or hold row after a closing row (a paid charge or an ending) to the next one
        segmented AS (
            SELECT e.*, row_number() OVER w AS pos,
                   coalesce(count(*) FILTER (WHERE kind >= 2) OVER (PARTITION BY sub ORDER BY eff, kind, tkey
                            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS seg
            FROM event e WINDOW w AS (PARTITION BY sub ORDER BY eff, kind, tkey)),
        episode AS (
            SELECT sub, seg, arg_min(eff, pos) FILTER (WHERE kind < 2) AS failed_at,
                   arg_min(kind, pos) FILTER (WHERE kind < 2) AS first_kind,
                   arg_min(provider, pos) FILTER (WHERE kind < 2) AS provider,
                   arg_min(country, pos) FILTER (WHERE kind < 2) AS country,
                   arg_min(currency, pos) FILTER (WHERE kind < 2) AS failure_currency,
                   bool_or(kind = 1) AS entered_hold,
                   any_value(kind) FILTER (WHERE kind >= 2) AS close_kind, any_value(eff) FILTER (WHERE kind >= 2) AS closed_at,
                   any_value(plan_id) FILTER (WHERE kind >= 2) AS close_plan,
                   any_value(currency) FILTER (WHERE kind >= 2) AS close_currency,
                   any_value(amount * f) FILTER (WHERE kind >= 2) AS recovered_tw
            FROM segmented GROUP BY sub, seg HAVING count(*) FILTER (WHERE kind < 2) > 0),
        planned AS (
            SELECT sub, eff, tkey, plan_id, currency FROM tx_raw, params p
            WHERE plan_id IS NOT NULL AND ({known_sql()} = FALSE OR recorded <= p.as_of)),
        placed AS (
            SELECT e.*, month_of(e.failed_at) AS failure_month,
                   coalesce(CASE WHEN e.close_kind = 2 THEN e.close_plan END, l.plan_id) AS plan_id,
                   coalesce(e.failure_currency, CASE WHEN e.close_kind = 2 THEN e.close_currency END, l.currency) AS cur
            FROM episode e
            LEFT JOIN LATERAL (SELECT plan_id, currency FROM planned l WHERE l.sub = e.sub AND l.eff <= e.failed_at
                               ORDER BY l.eff DESC, l.tkey DESC LIMIT 1) l ON true),
        cell AS (
            SELECT failure_month, provider, coalesce(pl.plan_code, '') AS plan, coalesce(country, '') AS country,
                   coalesce(cur, '') AS currency, count(*) AS episodes, count(*) FILTER (WHERE first_kind = 0) AS grace_entered,
                   count(*) FILTER (WHERE close_kind = 2 AND NOT entered_hold) AS grace_recovered,
                   count(*) FILTER (WHERE entered_hold) AS hold_entered,
                   count(*) FILTER (WHERE close_kind = 2 AND entered_hold) AS hold_recovered,
                   count(*) FILTER (WHERE close_kind = 3) AS churned, count(*) FILTER (WHERE close_kind IS NULL) AS still_open,
                   list_sort(list(closed_at - failed_at) FILTER (WHERE close_kind = 2)) AS d,
                   coalesce(sum(recovered_tw) FILTER (WHERE close_kind = 2), 0) AS tw
            FROM placed LEFT JOIN plan_raw pl USING (plan_id), params p
            WHERE month_index(failure_month) BETWEEN p.first_i AND p.last_i
            GROUP BY ALL)
        SELECT failure_month, provider, plan, country, currency, episodes AS episodes_count,
               grace_entered AS grace_entered_count, grace_recovered AS grace_recovered_count,
               hold_entered AS hold_entered_count, hold_recovered AS hold_recovered_count, churned AS churned_count,
               still_open AS open_count, ratio6(grace_recovered, grace_entered) AS grace_recovery_rate,
               ratio6(hold_recovered, hold_entered) AS hold_recovery_rate,
               ratio6(grace_recovered + hold_recovered, episodes) AS recovery_rate, ratio6(churned, episodes) AS churn_rate,
               CASE WHEN len(d) > 0 THEN days4(d[(len(d) + 1) // 2]) END AS median_recovery_days,
               CASE WHEN len(d) > 0 THEN days4(d[(9 * len(d) + 9) // 10]) END AS p90_recovery_days,
               money(div_even(tw, 12), currency) AS mrr_recovered, div_even(tw, 12) AS mrr_recovered_micros
        FROM cell ORDER BY failure_month, provider, plan, country, currency
    ) TO '{out}/grace_hold_recovery.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_leakage(con, out):
    """Grants covering the as-of instant of a subscription not entitled then (Reports/README.md, "Entitlement leakage")."""
    con.execute(f"""COPY (
        WITH grant_at AS (
            SELECT e.sub, e.account, e.plan_id, e.valid_from,
                   LEAST(coalesce(e.valid_until, 9223372036854775807), coalesce(e.ended, 9223372036854775807)) AS until_us
            FROM ent_raw e, params p
            WHERE e.recorded <= p.as_of AND e.valid_from <= p.as_of
              AND p.as_of < LEAST(coalesce(e.valid_until, 9223372036854775807), coalesce(e.ended, 9223372036854775807))),
        state_at AS (
            SELECT t.sub, t.event_type AS state, t.eff FROM tx t
            WHERE t.sub IN (SELECT sub FROM grant_at)
              AND (t.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
                   OR (t.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                       AND t.amount IS NOT NULL AND t.period_end IS NOT NULL))
            QUALIFY row_number() OVER (PARTITION BY t.sub ORDER BY t.eff DESC,
                CASE WHEN t.event_type = 'ENTERED_GRACE_PERIOD' THEN 1 WHEN t.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
                     WHEN t.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3 ELSE 0 END DESC, t.tkey DESC) = 1)
        SELECT shown_id(g.sub) AS subscription_id, shown_id(g.account) AS billing_account_id, s.provider, pl.plan_code, st.state,
               strftime(make_timestamp(st.eff), '%Y-%m-%dT%H:%M:%S.%fZ') AS state_at,
               strftime(make_timestamp(g.valid_from), '%Y-%m-%dT%H:%M:%S.%gZ') AS entitled_from,
               CASE WHEN g.until_us < 9223372036854775807 THEN strftime(make_timestamp(g.until_us), '%Y-%m-%dT%H:%M:%S.%gZ') END
                   AS entitled_until,
               CASE WHEN s.is_test_purchase OR s.is_sandbox THEN 'true' ELSE 'false' END AS is_test
        FROM grant_at g JOIN state_at st USING (sub) JOIN sub_raw s ON s.sub = g.sub JOIN plan_raw pl ON pl.plan_id = g.plan_id
        WHERE st.state IN ('ENTERED_ON_HOLD', 'PAUSED', 'EXPIRED', 'REVOKED', 'REFUNDED')
        ORDER BY g.sub, pl.plan_code, g.valid_from
    ) TO '{out}/entitlement_leakage.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_price_change(con, out):
    """Price-change cohorts, their churn against a baseline, and the money (Reports/README.md, "Price-change churn")."""
    charge_types = "('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')"
    con.execute(f"""
    CREATE MACRO period_of(p) AS CASE p WHEN 'P1W' THEN INTERVAL 7 DAY WHEN 'P2W' THEN INTERVAL 14 DAY
        WHEN 'P4W' THEN INTERVAL 28 DAY WHEN 'P1M' THEN INTERVAL 1 MONTH WHEN 'P2M' THEN INTERVAL 2 MONTH
        WHEN 'P3M' THEN INTERVAL 3 MONTH WHEN 'P6M' THEN INTERVAL 6 MONTH WHEN 'P1Y' THEN INTERVAL 12 MONTH END;
    CREATE MACRO plus_period(us, p) AS epoch_us(make_timestamp(us) + period_of(p));
    CREATE TABLE hist AS SELECT t.*, f.f AS factor,
        t.event_type IN {charge_types} AND t.amount > 0 AS is_charge,
        t.event_type IN ('EXPIRED', 'REFUNDED', 'REVOKED') AS is_end
        FROM tx t LEFT JOIN factor f USING (billing_period) WHERE t.sub NOT IN (SELECT sub FROM tx_raw WHERE is_test);
    -- the latest charge-type row with a product at or before each row of a subscription (a free trial's included)
    CREATE TABLE product_row AS SELECT sub, eff, id, product_id, period_end, billing_period, amount, currency FROM hist
        WHERE product_id IS NOT NULL AND event_type IN {charge_types};
    CREATE TABLE known_change AS SELECT DISTINCT c.provider, c.product_id, c.region_code, c.currency_code, c.old_micros,
        c.new_micros, c.mode FROM pc_raw c, params p
        WHERE c.old_micros IS NOT NULL AND c.product_id IS NOT NULL AND c.announced <= p.as_of
          AND (NOT {known_sql()} OR c.created <= p.as_of);
    CREATE TABLE notice AS SELECT n.*, l.product_id AS l_product, l.period_end AS l_end, l.billing_period AS l_period,
            l.amount AS l_amount, l.currency AS l_currency
        FROM (SELECT * FROM hist WHERE event_type IN ('PRICE_CHANGE_PENDING', 'PRICE_CHANGE_CANCELED')) n
        JOIN LATERAL (SELECT * FROM product_row l WHERE l.sub = n.sub AND l.eff <= n.eff ORDER BY l.eff DESC, l.id DESC LIMIT 1) l ON true;
    CREATE TABLE inferred_change AS SELECT provider, l_product AS product_id, country AS region_code, currency AS currency_code,
            old_micros, amount AS new_micros,
            CASE WHEN amount < old_micros THEN 'PRICE_DECREASE' ELSE 'PRICE_INCREASE' END AS mode
        FROM (SELECT n.*, (SELECT h.amount FROM hist h WHERE h.provider = n.provider AND h.product_id = n.l_product
                              AND h.country = n.country AND h.currency = n.currency AND h.is_charge AND h.amount <> n.amount
                              AND h.eff <= n.eff ORDER BY h.eff DESC, h.id DESC LIMIT 1) AS old_micros
              FROM notice n WHERE n.event_type = 'PRICE_CHANGE_PENDING'
                AND NOT EXISTS (SELECT 1 FROM known_change k WHERE k.provider = n.provider AND k.product_id = n.l_product
                                  AND k.region_code = n.country AND k.currency_code = n.currency AND k.new_micros = n.amount)) x
        WHERE old_micros IS NOT NULL
        QUALIFY row_number() OVER (PARTITION BY provider, l_product, country, currency, amount ORDER BY eff, id) = 1;
    CREATE TABLE change AS SELECT * FROM known_change UNION SELECT * FROM inferred_change;
    CREATE TABLE told AS SELECT n.sub, k.provider, k.product_id, k.region_code, k.currency_code, k.old_micros, k.new_micros,
            k.mode, n.eff AS start_at,
            CASE WHEN n.l_end > n.eff THEN n.l_end ELSE plus_period(n.l_end, n.l_period) END AS target_at, true AS was_told
        FROM notice n JOIN change k ON k.provider = n.provider AND k.product_id = n.l_product AND k.region_code = n.country
            AND k.currency_code = coalesce(n.currency, n.l_currency)
            AND (k.new_micros = n.amount OR (n.amount IS NULL AND k.old_micros = n.l_amount))
        WHERE n.event_type = 'PRICE_CHANGE_PENDING' OR (n.event_type = 'PRICE_CHANGE_CANCELED' AND n.amount IS NULL)
        QUALIFY row_number() OVER (PARTITION BY n.sub, k.provider, k.product_id, k.region_code, k.currency_code, k.old_micros,
                                   k.new_micros, k.mode ORDER BY n.eff) = 1;
    CREATE TABLE untold AS SELECT sub, provider, product_id, country AS region_code, currency AS currency_code,
            prev_amount AS old_micros, amount AS new_micros, 'PRICE_DECREASE' AS mode, eff AS start_at, eff AS target_at,
            false AS was_told
        FROM (SELECT h.*, lag(amount) OVER w AS prev_amount, lag(product_id) OVER w AS prev_product,
                     lag(currency) OVER w AS prev_currency
              FROM hist h WHERE is_charge WINDOW w AS (PARTITION BY sub ORDER BY eff, id)) ch
        WHERE event_type IN ('RENEWED', 'RECOVERED') AND prev_product = product_id AND prev_currency = currency
          AND amount < prev_amount
        QUALIFY row_number() OVER (PARTITION BY sub, product_id, country, currency, prev_amount, amount ORDER BY eff) = 1;
    CREATE TABLE member AS SELECT * EXCLUDE (any_told) FROM (
        SELECT x.*, bool_or(was_told) OVER (PARTITION BY sub, currency_code, old_micros, new_micros) AS any_told
        FROM (SELECT * FROM told UNION ALL SELECT * FROM untold) x) WHERE was_told OR NOT any_told;
    CREATE TABLE outcome AS SELECT m.*, pl.factor, pl.billing_period,
            coalesce(m.target_at, ap.eff) AS aimed_at,
            LEAST(p.as_of, plus_period(coalesce(m.target_at, ap.eff, m.start_at), coalesce(pl.billing_period, 'P1M'))) AS window_end,
            EXISTS (SELECT 1 FROM hist a WHERE a.sub = m.sub AND a.event_type = 'PRICE_CHANGE_ACCEPTED' AND a.eff >= m.start_at) AS consented,
            ap.eff IS NOT NULL AS applied,
            EXISTS (SELECT 1 FROM hist h WHERE h.sub = m.sub AND h.event_type = 'EXPIRED'
                    AND h.reason = 'PRICE_INCREASE_NOT_CONSENTED' AND h.eff >= m.start_at) AS churned_due,
            (SELECT min(h.eff) FROM hist h WHERE h.sub = m.sub AND h.is_end AND h.eff >= m.start_at
                AND h.reason IS DISTINCT FROM 'PRICE_INCREASE_NOT_CONSENTED') AS ended_at
        FROM member m CROSS JOIN params p
        LEFT JOIN LATERAL (SELECT h.factor, h.billing_period FROM hist h WHERE h.sub = m.sub AND h.factor IS NOT NULL
                           AND h.eff <= m.start_at AND h.event_type IN {charge_types} ORDER BY h.eff DESC, h.id DESC LIMIT 1) pl ON true
        LEFT JOIN LATERAL (SELECT h.eff FROM hist h WHERE h.sub = m.sub AND h.is_charge AND h.event_type IN ('RENEWED', 'RECOVERED')
                           AND h.amount = m.new_micros AND h.currency = m.currency_code AND h.eff >= m.start_at
                           ORDER BY h.eff, h.id LIMIT 1) ap ON true;
    CREATE TABLE cohort AS SELECT provider, product_id, region_code, currency_code, old_micros, new_micros, mode,
            min(start_at) AS window_start,
            LEAST(any_value(p.as_of), coalesce(max(plus_period(aimed_at, coalesce(billing_period, 'P1M'))), any_value(p.as_of))) AS window_end,
            count(*) AS affected, count(*) FILTER (WHERE was_told) AS notified, count(*) FILTER (WHERE consented) AS consented,
            count(*) FILTER (WHERE applied) AS applied, count(*) FILTER (WHERE churned_due) AS churned_due,
            count(*) FILTER (WHERE NOT churned_due AND ended_at <= window_end) AS other_churn,
            coalesce(sum(old_micros * factor) FILTER (WHERE churned_due), 0) AS lost_tw,
            coalesce(sum((new_micros - old_micros) * factor) FILTER (WHERE applied), 0) AS gained_tw
        FROM outcome, params p GROUP BY provider, product_id, region_code, currency_code, old_micros, new_micros, mode;
    -- baseline peers: at the window start, the latest paid charge (of any product) is of the cohort's product, in
    -- another country, its period running, and nothing disrupting after it; churned: first ending up to window end
    CREATE TABLE peer AS SELECT c.provider, c.product_id, c.region_code, c.currency_code, c.old_micros, c.new_micros, c.mode,
            (SELECT min(h.eff) FROM hist h WHERE h.sub = l.sub AND h.is_end AND h.eff >= c.window_start) AS first_end
        FROM cohort c JOIN LATERAL (
            SELECT h.sub, arg_max(h.product_id, (h.eff, h.id)) AS product_id, arg_max(h.country, (h.eff, h.id)) AS country,
                   arg_max(h.period_end, (h.eff, h.id)) AS period_end, max(h.eff) AS at
            FROM hist h WHERE h.provider = c.provider AND h.is_charge AND h.eff <= c.window_start GROUP BY h.sub) l ON true
        WHERE l.product_id = c.product_id AND l.period_end > c.window_start AND l.country IS DISTINCT FROM c.region_code
          AND NOT EXISTS (SELECT 1 FROM hist d WHERE d.sub = l.sub AND d.eff > l.at AND d.eff <= c.window_start
                            AND (d.is_end OR d.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD', 'PAUSED')))
          AND NOT EXISTS (SELECT 1 FROM member m WHERE m.sub = l.sub AND m.provider = c.provider AND m.product_id = c.product_id
                            AND m.currency_code = c.currency_code AND m.old_micros = c.old_micros AND m.new_micros = c.new_micros);
    """)
    con.execute(f"""COPY (
        WITH base AS (
            SELECT provider, product_id, region_code, currency_code, old_micros, new_micros, mode, count(*) AS peers,
                   count(*) FILTER (WHERE first_end <= (SELECT window_end FROM cohort c WHERE c.provider = peer.provider
                       AND c.product_id = peer.product_id AND c.region_code IS NOT DISTINCT FROM peer.region_code
                       AND c.currency_code = peer.currency_code AND c.old_micros = peer.old_micros
                       AND c.new_micros = peer.new_micros AND c.mode = peer.mode)) AS churned
            FROM peer GROUP BY ALL),
        rated AS (
            SELECT c.*, coalesce(b.peers, 0) AS peers, coalesce(b.churned, 0) AS bchurned,
                   (c.churned_due + c.other_churn)::DOUBLE AS x1, c.affected::DOUBLE AS n1,
                   coalesce(b.churned, 0)::DOUBLE AS x2, coalesce(b.peers, 0)::DOUBLE AS n2
            FROM cohort c LEFT JOIN base b ON b.provider = c.provider AND b.product_id = c.product_id
                AND b.region_code IS NOT DISTINCT FROM c.region_code AND b.currency_code = c.currency_code
                AND b.old_micros = c.old_micros AND b.new_micros = c.new_micros AND b.mode = c.mode, params p
            WHERE month_index(month_of(c.window_start)) BETWEEN p.first_i AND p.last_i),
        wilson AS (
            SELECT r.*, x1 / nullif(n1, 0) AS p1, x2 / nullif(n2, 0) AS p2,
                   (x1 + 1.920729) / nullif(n1 + 3.841459, 0) - 1.959964 * sqrt(x1 * (n1 - x1) / nullif(n1, 0) + 0.960365) / nullif(n1 + 3.841459, 0) AS lo1,
                   (x1 + 1.920729) / nullif(n1 + 3.841459, 0) + 1.959964 * sqrt(x1 * (n1 - x1) / nullif(n1, 0) + 0.960365) / nullif(n1 + 3.841459, 0) AS hi1,
                   (x2 + 1.920729) / nullif(n2 + 3.841459, 0) - 1.959964 * sqrt(x2 * (n2 - x2) / nullif(n2, 0) + 0.960365) / nullif(n2 + 3.841459, 0) AS lo2,
                   (x2 + 1.920729) / nullif(n2 + 3.841459, 0) + 1.959964 * sqrt(x2 * (n2 - x2) / nullif(n2, 0) + 0.960365) / nullif(n2 + 3.841459, 0) AS hi2
            FROM rated r)
        SELECT provider, coalesce(product_id, '') AS product_id, coalesce(region_code, '') AS region, currency_code AS currency,
               money(old_micros, currency_code) AS old_price, old_micros AS old_price_micros,
               money(new_micros, currency_code) AS new_price, new_micros AS new_price_micros, mode,
               strftime(make_timestamp(window_start), '%Y-%m-%dT%H:%M:%SZ') AS window_start,
               strftime(make_timestamp(window_end), '%Y-%m-%dT%H:%M:%SZ') AS window_end,
               affected AS affected_count, notified AS notified_count, consented AS consented_count, applied AS applied_count,
               churned_due AS churned_due_to_change_count, other_churn AS other_churn_count, peers AS baseline_peers_count,
               bchurned AS baseline_churned_count,
               ratio6(churned_due + other_churn, affected) AS cohort_churn_rate, ratio6(bchurned, peers) AS baseline_churn_rate,
               round(p1 - p2, 6) AS excess_churn_rate,
               round(p1 - p2 - sqrt((p1 - lo1) ** 2 + (hi2 - p2) ** 2), 6) AS excess_churn_ci_low_rate,
               round(p1 - p2 + sqrt((hi1 - p1) ** 2 + (p2 - lo2) ** 2), 6) AS excess_churn_ci_high_rate,
               money(div_even(lost_tw, 12), currency_code) AS mrr_lost, div_even(lost_tw, 12) AS mrr_lost_micros,
               money(div_even(gained_tw, 12), currency_code) AS mrr_gained, div_even(gained_tw, 12) AS mrr_gained_micros,
               money(div_even(gained_tw, 12) - div_even(lost_tw, 12), currency_code) AS net_mrr,
               div_even(gained_tw, 12) - div_even(lost_tw, 12) AS net_mrr_micros
        FROM wilson ORDER BY provider, product_id, region, currency, old_price_micros, new_price_micros, mode
    ) TO '{out}/price_change_churn.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def subscriber_states(con):
    """Each counted subscription's state and product at every snapshot (Reports/README.md, "Subscribers"): the latest
    MRR state row, the latest charge's product and the auto-renew switch (CANCELED off; a charge or RESTARTED on)."""
    con.execute("""
    CREATE TABLE ctx AS SELECT t.*, c.account FROM tx t JOIN counted c USING (sub);
    CREATE TABLE ranked AS SELECT t.*,
        CASE WHEN t.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                  AND t.amount IS NOT NULL AND t.period_end IS NOT NULL THEN 0
             WHEN t.event_type = 'ENTERED_GRACE_PERIOD' THEN 1
             WHEN t.event_type IN ('ENTERED_ON_HOLD', 'PAUSED') THEN 2
             WHEN t.event_type IN ('EXPIRED', 'REVOKED', 'REFUNDED') THEN 3
             WHEN t.event_type IN ('CANCELED', 'RESTARTED') THEN 4 END AS rnk
        FROM ctx t;
    DELETE FROM ranked WHERE rnk IS NULL;
    CREATE TABLE st_row AS SELECT sub, eff, provider, rnk, event_type, amount, period_end,
        CASE WHEN expires > eff THEN expires END AS grace_end FROM ranked WHERE rnk <= 3
        QUALIFY row_number() OVER (PARTITION BY sub, eff ORDER BY rnk DESC, tkey DESC) = 1;
    CREATE TABLE product_at AS SELECT sub, eff, product_id FROM ranked WHERE rnk = 0
        QUALIFY row_number() OVER (PARTITION BY sub, eff ORDER BY tkey DESC) = 1;
    CREATE TABLE switch_at AS SELECT sub, eff, event_type = 'CANCELED' AS off FROM ranked WHERE rnk IN (0, 4)
        QUALIFY row_number() OVER (PARTITION BY sub, eff ORDER BY rnk DESC, tkey DESC) = 1;
    CREATE TABLE sub_snap AS SELECT s.sub, n.mi, n.month, n.at_us FROM (SELECT DISTINCT sub FROM st_row) s, snap n;
    CREATE TABLE sstate AS SELECT x.mi, x.month, x.sub, r.provider, pa.product_id,
        CASE WHEN r.rnk = 0 AND x.at_us < r.period_end AND r.amount = 0 THEN 'trialing'
             WHEN r.rnk = 0 AND x.at_us < r.period_end AND coalesce(sw.off, false) THEN 'cancelled_paid_through'
             WHEN r.rnk = 0 AND x.at_us < r.period_end THEN 'paying'
             WHEN r.rnk = 1 AND (r.grace_end IS NULL OR x.at_us < r.grace_end) THEN 'grace'
             WHEN r.rnk = 1 THEN 'billing_retry'
             WHEN r.rnk = 2 AND r.event_type = 'PAUSED' THEN 'paused'
             WHEN r.rnk = 2 THEN 'billing_retry' END AS state
        FROM sub_snap x ASOF JOIN st_row r ON r.sub = x.sub AND x.at_us >= r.eff
        ASOF LEFT JOIN product_at pa ON pa.sub = x.sub AND x.at_us >= pa.eff
        ASOF LEFT JOIN switch_at sw ON sw.sub = x.sub AND x.at_us >= sw.eff;
    DELETE FROM sstate WHERE state IS NULL;
    """)


STATES = ["trialing", "paying", "grace", "billing_retry", "paused", "cancelled_paid_through"]


def report_subscribers(con, out):
    counts = ", ".join(f"count(*) FILTER (WHERE state = '{x}') AS {x}_count" for x in STATES)
    names = ", ".join(f"coalesce(c.{x}_count, 0) AS {x}_count" for x in STATES)
    active = " + ".join(f"coalesce(c.{x}_count, 0)" for x in STATES)
    con.execute(f"""
    CREATE TABLE subs_cell AS
    WITH keyed AS (SELECT mi, sub, provider, coalesce(product_id, '') AS product, state FROM sstate),
    cur AS (SELECT k.*, p.sub IS NULL AS is_start FROM keyed k
            LEFT JOIN keyed p ON p.sub = k.sub AND p.product = k.product AND p.mi = k.mi - 1),
    ended AS (SELECT p.mi + 1 AS mi, p.provider, p.product, count(*) AS ends FROM keyed p
              LEFT JOIN keyed k ON k.sub = p.sub AND k.product = p.product AND k.mi = p.mi + 1
              WHERE k.sub IS NULL AND p.mi + 1 <= (SELECT max(mi) FROM snap) GROUP BY ALL),
    c AS (SELECT mi, provider, product, {counts}, count(*) FILTER (WHERE is_start) AS starts FROM cur GROUP BY ALL)
    SELECT mi, provider, product, {names}, {active} AS active_count, coalesce(c.starts, 0) AS starts_count,
           coalesce(e.ends, 0) AS ends_count
    FROM c FULL JOIN ended e USING (mi, provider, product);
    COPY (
        SELECT n.month, s.provider, nullif(s.product, '') AS product_id, {", ".join(x + "_count" for x in STATES)},
               active_count, starts_count, ends_count, starts_count - ends_count AS net_change_count
        FROM subs_cell s JOIN snap n USING (mi) WHERE n.reported ORDER BY n.month, s.provider, s.product
    ) TO '{out}/subscribers.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_kpis(con, out):
    """Each KPI from its report's cells (Reports/README.md, "KPIs"): the bridge's reporting rows, the subscribers'
    active counts, the month's paid charges and its refunds and chargebacks by refund month."""
    moves = ["new", "expansion", "reactivation", "contraction", "churn"]
    money_cols = ["mrr", "arr", "net_new_mrr", "start_mrr"] + moves
    con.execute(f"""COPY (
        WITH b AS (SELECT mi, provider, e AS mrr, s AS start_mrr, {", ".join(moves)}, churn_count AS churned, paying
                   FROM bridge WHERE view = 'reporting'),
        act AS (SELECT mi, provider, sum(active_count) AS active FROM subs_cell GROUP BY ALL),
        rows AS (
            SELECT * FROM b UNION ALL
            SELECT a.mi, a.provider, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM act a
            WHERE a.active > 0 AND NOT EXISTS (SELECT 1 FROM b WHERE b.mi = a.mi AND b.provider = a.provider)),
        paying AS (SELECT mi, provider, count(DISTINCT account) AS n FROM contrib GROUP BY ALL),
        counted_tx AS (SELECT t.* FROM tx t JOIN counted c USING (sub)),
        paid AS (SELECT month_of(eff) AS month, provider, count(*) AS n FROM counted_tx
                 WHERE event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND amount > 0
                 GROUP BY ALL),
        refunded AS (SELECT month_of(eff) AS month, provider,
                            count(DISTINCT coalesce(refunded_key, tkey)) FILTER (WHERE refund_kind = 'REFUND') AS refunded,
                            count(DISTINCT coalesce(refunded_key, tkey)) FILTER (WHERE refund_kind = 'CHARGEBACK') AS chargebacks
                     FROM counted_tx WHERE event_type = 'REFUNDED' AND refund_kind IN ('REFUND', 'CHARGEBACK') GROUP BY ALL),
        cells AS (
            SELECT r.*, n.month, coalesce(py.n, 0) AS start_paying, coalesce(a.active, 0) AS active,
                   coalesce(pd.n, 0) AS paid, coalesce(rf.refunded, 0) AS refunded, coalesce(rf.chargebacks, 0) AS chargebacks
            FROM rows r JOIN snap n USING (mi) LEFT JOIN paying py ON py.mi = r.mi - 1 AND py.provider = r.provider
            LEFT JOIN act a ON a.mi = r.mi AND a.provider = r.provider
            LEFT JOIN paid pd ON pd.month = n.month AND pd.provider = r.provider
            LEFT JOIN refunded rf ON rf.month = n.month AND rf.provider = r.provider
            WHERE n.reported),
        k AS (
            SELECT month, provider, mrr, start_mrr, {", ".join(moves)}, paying, start_paying, churned, active, paid, refunded,
                   chargebacks FROM cells
            UNION ALL
            SELECT month, 'ALL', sum(mrr), sum(start_mrr), {", ".join(f"sum({m})" for m in moves)}, sum(paying),
                   sum(start_paying), sum(churned), sum(active), sum(paid), sum(refunded), sum(chargebacks)
            FROM cells GROUP BY month),
        f AS (SELECT k.*, 12 * mrr AS arr, new + expansion + reactivation - contraction - churn AS net_new_mrr,
                     contraction + churn AS lost FROM k)
        SELECT f.month, f.provider, p.reporting AS currency,
               CASE WHEN month_index(f.month) = month_index(month_of(p.as_of))
                         AND p.as_of < month_start_us(month_index(f.month) + 1) - 1000 THEN 'true' ELSE 'false' END AS is_partial,
               {", ".join(f"money({c}, p.reporting) AS {c}, {c} AS {c}_micros" for c in money_cols)},
               paying AS paying_accounts_count, start_paying AS start_paying_accounts_count,
               churned AS churned_accounts_count, active AS active_count,
               CASE WHEN paying > 0 THEN money(div_even(mrr::HUGEINT, paying), p.reporting) END AS arppu,
               CASE WHEN paying > 0 THEN div_even(mrr::HUGEINT, paying) END AS arppu_micros,
               CASE WHEN active > 0 THEN money(div_even(mrr::HUGEINT, active), p.reporting) END AS arpu,
               CASE WHEN active > 0 THEN div_even(mrr::HUGEINT, active) END AS arpu_micros,
               ratio6(churned, start_paying) AS logo_churn_rate, ratio6(lost, start_mrr) AS revenue_churn_rate,
               ratio6(start_mrr + expansion - lost, start_mrr) AS nrr_rate,
               CASE WHEN lost = 0 THEN NULL ELSE decimal_text(div_away((new + expansion + reactivation)::HUGEINT * 10000, lost), 4) END
                   AS quick_ratio,
               paid AS paid_transactions_count, refunded AS refunded_transactions_count, chargebacks AS chargebacks_count,
               ratio6(refunded, paid) AS refund_rate, ratio6(chargebacks, paid) AS chargeback_rate
        FROM f, params p ORDER BY f.month, f.provider = 'ALL', f.provider
    ) TO '{out}/kpis.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


WILSON = {"lo": "-", "hi": "+"}


def report_trial_conversion(con, out):
    """Trials (a first charge of 0) and what became of them by the as-of instant (Reports/README.md, "Trial
    conversion"); the Apple Subscription Event report's counts beside ours by US Pacific month."""
    bound = {k: f"""(x + 1.920729) / (n + 3.841459) {op} 1.959964 * sqrt(x * (n - x) / n + 0.960365) / (n + 3.841459)"""
             for k, op in WILSON.items()}
    con.execute(f"""
    CREATE TABLE trial AS
    WITH first_charge AS (SELECT * FROM ranked WHERE rnk = 0
                          QUALIFY row_number() OVER (PARTITION BY sub ORDER BY eff, rnk, tkey) = 1),
    t AS (SELECT f.sub, f.provider, f.product_id, f.country, f.eff AS started, LEAST(f.period_end, p.as_of) AS window_end
          FROM first_charge f, params p WHERE f.amount = 0),
    per AS (SELECT r.sub, min(r.eff) FILTER (WHERE r.rnk = 0 AND r.amount > 0) AS converted_at,
                   min(r.eff) FILTER (WHERE r.rnk = 1 OR r.event_type = 'ENTERED_ON_HOLD') AS failed_at,
                   min(r.eff) FILTER (WHERE r.rnk = 3) AS ended_at,
                   max(r.eff) FILTER (WHERE r.event_type = 'CANCELED' AND r.eff <= t.window_end) AS off_at,
                   max(r.eff) FILTER (WHERE r.event_type = 'RESTARTED' AND r.rnk = 4 AND r.eff <= t.window_end) AS on_at
            FROM ranked r JOIN t USING (sub) GROUP BY r.sub)
    SELECT t.*, per.converted_at, month_of(t.started) AS month,
        CASE WHEN converted_at IS NOT NULL AND failed_at < converted_at THEN 'converted_after_retry'
             WHEN converted_at IS NOT NULL THEN 'converted_in_trial'
             WHEN off_at IS NOT NULL AND (on_at IS NULL OR off_at > on_at) THEN 'cancelled'
             WHEN ended_at IS NOT NULL THEN 'failed' ELSE 'open' END AS outcome
    FROM t JOIN per USING (sub);
    CREATE TABLE trial_rows AS
    WITH g AS (
        SELECT month, provider, product_id, country, count(*) AS trials,
               count(*) FILTER (WHERE outcome = 'converted_in_trial') AS a,
               count(*) FILTER (WHERE outcome = 'converted_after_retry') AS b,
               count(*) FILTER (WHERE outcome = 'cancelled') AS ca, count(*) FILTER (WHERE outcome = 'failed') AS fa,
               count(*) FILTER (WHERE outcome = 'open') AS op,
               list_sort(list(converted_at - started) FILTER (WHERE converted_at IS NOT NULL)) AS d
        FROM trial, params p WHERE month_index(month) BETWEEN p.first_i AND p.last_i GROUP BY ALL),
    w AS (SELECT g.*, (a + b)::DOUBLE AS x, (a + b + ca + fa)::DOUBLE AS n FROM g)
    SELECT 'cohort' AS view, month, provider, product_id, country, trials AS trials_count, a AS converted_in_trial_count,
           b AS converted_after_retry_count, a + b AS converted_count, ca AS cancelled_count, fa AS failed_count,
           op AS open_count, ratio6(a + b, a + b + ca + fa) AS conversion_rate,
           CASE WHEN n > 0 THEN printf('%.6f', round(greatest(0, {bound['lo']}), 6)) END AS conversion_ci_low_rate,
           CASE WHEN n > 0 THEN printf('%.6f', round(least(1, {bound['hi']}), 6)) END AS conversion_ci_high_rate,
           CASE WHEN len(d) > 0 THEN days4(d[(len(d) + 1) // 2]) END AS median_conversion_days,
           CASE WHEN len(d) > 0 THEN days4(d[(9 * len(d) + 9) // 10]) END AS p90_conversion_days,
           NULL::BIGINT AS apple_trials_count, NULL::BIGINT AS apple_converted_count,
           NULL::BIGINT AS trials_difference_count, NULL::BIGINT AS converted_difference_count
    FROM w;
    INSERT INTO trial_rows
    WITH pac AS (SELECT strftime(timezone('America/Los_Angeles', make_timestamptz(started)), '%Y-%m') AS sm,
                        strftime(timezone('America/Los_Angeles', make_timestamptz(converted_at)), '%Y-%m') AS cm
                 FROM trial WHERE provider = 'APPLE'),
    ev AS (SELECT month,
                  sum(quantity) FILTER (WHERE event IN ('Start Free Trial', 'Start Introductory Offer') AND offer = 'Free Trial') AS apple_t,
                  sum(quantity) FILTER (WHERE event = 'Paid Subscription from Free Trial'
                      OR (event = 'Paid Subscription from Introductory Offer' AND coalesce(offer, '') IN ('Free Trial', ''))) AS apple_c
           FROM ev_raw, params p WHERE month_index(month) BETWEEN p.first_i AND p.last_i GROUP BY month)
    SELECT 'apple_events', e.month, 'APPLE', NULL, NULL, ot, NULL, NULL, oc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           coalesce(apple_t, 0), coalesce(apple_c, 0), ot - coalesce(apple_t, 0), oc - coalesce(apple_c, 0)
    FROM (SELECT e.*, (SELECT count(*) FROM pac WHERE sm = e.month) AS ot,
                 (SELECT count(*) FROM pac WHERE cm = e.month) AS oc FROM ev e) e;
    COPY (SELECT * FROM trial_rows ORDER BY view DESC, month, provider, product_id NULLS FIRST, country NULLS FIRST)
    TO '{out}/trial_conversion.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_plan_change_mix(con, out):
    """Charges whose product or billing period differ from the subscription's previous charge (Reports/README.md,
    "Plan-change mix"), typed and summed in twelfths of a micro."""
    con.execute(f"""COPY (
        WITH ch AS (
            SELECT r.*, coalesce(r.amount * f.f, 0) AS value,
                   lag(product_id) OVER w AS from_product, lag(billing_period) OVER w AS from_period,
                   lag(coalesce(r.amount * f.f, 0)) OVER w AS from_value, row_number() OVER w AS n
            FROM ranked r LEFT JOIN factor f USING (billing_period) WHERE r.rnk = 0
            WINDOW w AS (PARTITION BY sub ORDER BY eff, tkey)),
        change AS (
            SELECT month_of(eff) AS month, provider,
                   CASE WHEN billing_period IS DISTINCT FROM from_period THEN 'period_change'
                        WHEN value > from_value THEN 'upgrade' WHEN value < from_value THEN 'downgrade'
                        ELSE 'crossgrade' END AS change_type,
                   from_product, product_id, from_period, billing_period, currency, value, from_value
            FROM ch, params p WHERE n > 1 AND (product_id IS DISTINCT FROM from_product OR billing_period IS DISTINCT FROM from_period)
              AND month_index(month_of(eff)) BETWEEN p.first_i AND p.last_i),
        g AS (SELECT month, provider, change_type, from_product, product_id, from_period, billing_period, currency,
                     count(*) AS n, div_even(sum(from_value), 12) AS f, div_even(sum(value), 12) AS t,
                     div_even(sum(value - from_value), 12) AS m FROM change GROUP BY ALL)
        SELECT month, provider, change_type, from_product AS from_product_id, product_id AS to_product_id,
               from_period AS from_billing_period, billing_period AS to_billing_period, currency, n AS changes_count,
               money(f, currency) AS from_mrr, f AS from_mrr_micros, money(t, currency) AS to_mrr, t AS to_mrr_micros,
               money(m, currency) AS mrr_moved, m AS mrr_moved_micros
        FROM g ORDER BY 1, 2, 3, 4 NULLS FIRST, 5 NULLS FIRST, 6 NULLS FIRST, 7 NULLS FIRST, 8
    ) TO '{out}/plan_change_mix.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def report_cohorts(con, out):
    """Customers (account, provider, currency) by the month of their first paid charge: retained at each month's
    snapshot, realised net revenue, retention and LTV to date (Reports/README.md, "Cohorts")."""
    con.execute(f"""COPY (
        WITH money_row AS (
            SELECT account, provider, currency, month_of(eff) AS month, amount,
                   event_type <> 'REFUNDED' AS paid FROM ctx
            WHERE (event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED') AND amount > 0)
               OR (event_type = 'REFUNDED' AND refund_kind IN ('REFUND', 'CHARGEBACK') AND amount IS NOT NULL)),
        customer AS (SELECT account, provider, currency, min(month) AS start FROM money_row WHERE paid GROUP BY ALL),
        size AS (SELECT start, provider, currency, count(*) AS n FROM customer, params p
                 WHERE month_index(start) BETWEEN p.first_i AND p.last_i GROUP BY ALL),
        net AS (SELECT c.start, m.provider, m.currency, m.month, sum(m.amount) AS v
                FROM money_row m JOIN customer c USING (account, provider, currency) GROUP BY ALL),
        kept AS (SELECT c.start, x.provider, x.currency, x.month, count(*) AS r
                 FROM (SELECT DISTINCT month, account, provider, currency FROM contrib) x
                 JOIN customer c USING (account, provider, currency) GROUP BY ALL),
        grid AS (SELECT s.*, i - month_index(s.start) AS k, month_text(i) AS month
                 FROM size s, params p, range(month_index(s.start), p.last_i + 1) r(i)),
        cell AS (SELECT g.*, coalesce(k2.r, 0) AS r, coalesce(nt.v, 0) AS v FROM grid g
                 LEFT JOIN kept k2 USING (start, provider, currency, month) LEFT JOIN net nt USING (start, provider, currency, month)),
        cum AS (SELECT c.*, sum(v) OVER w AS total, first_value(v) OVER w AS first_v FROM cell c
                WINDOW w AS (PARTITION BY start, provider, currency ORDER BY k ROWS UNBOUNDED PRECEDING))
        SELECT start AS cohort_month, provider, currency, k AS months_since_start, month, n AS cohort_subscribers,
               r AS retained_subscribers, ratio6(r, n) AS subscriber_retention_rate, money(v, currency) AS net_revenue,
               v AS net_revenue_micros, money(total, currency) AS cumulative_net_revenue, total AS cumulative_net_revenue_micros,
               CASE WHEN first_v > 0 THEN ratio6(v, first_v) END AS revenue_retention_rate,
               money(div_even(total::HUGEINT, n), currency) AS ltv, div_even(total::HUGEINT, n) AS ltv_micros
        FROM cum ORDER BY 1, 2, 3, 4
    ) TO '{out}/cohorts.csv' (HEADER, DELIMITER ',', NEW_LINE '\\r\\n')""")


def main():
    parser = argparse.ArgumentParser()
    for option in ("dsn", "as-of", "from", "to", "currency", "basis", "out"):
        parser.add_argument("--" + option, required=True, dest=option.replace("-", "_") if option != "from" else "first")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--raw-ids", action="store_true")
    parser.add_argument("--export-only", action="store_true")
    a = parser.parse_args()
    a.last = a.to
    os.makedirs(a.out, exist_ok=True)
    EXPORTS["ev"] = f"""SELECT to_char(e.event_date, 'YYYY-MM') AS month, e.event, coalesce(e.subscription_offer_type, '') AS offer,
                            e.quantity FROM apple_subscription_event_row e JOIN report_file f ON f.id = e.report_file_id
                        WHERE f.replaced_by IS NULL AND ('{a.basis}' = 'corrected' OR f.imported_at <= '{a.as_of}')
                          AND e.event_date <= ('{a.as_of}'::timestamptz AT TIME ZONE 'America/Los_Angeles')::date"""
    con = duckdb.connect()
    con.execute(f"SET threads TO {a.threads}")
    con.execute("SET preserve_insertion_order = false")
    con.execute(MACROS)
    con.execute("CREATE MACRO shown_id(x) AS " + ("x" if a.raw_ids else
                "CASE WHEN x IS NULL THEN NULL WHEN length(x) > 8 THEN left(x, 4) || '…' || right(x, 4) ELSE '…' END"))
    with tempfile.TemporaryDirectory() as folder:
        pipes, procs = export(a.dsn, folder)
        if a.export_only:
            drain(pipes)
        else:
            load(con, pipes)
        for proc in procs:
            if proc.wait() != 0:
                raise SystemExit("psql export failed")
    if a.export_only:
        return
    prepare(con, a)
    report_mrr(con, a.out)
    movements(con)
    report_bridge(con, a.out)
    report_movements(con, a.out)
    report_refunds(con, a.out)
    report_grace(con, a.out)
    report_leakage(con, a.out)
    report_price_change(con, a.out)
    subscriber_states(con)
    report_subscribers(con, a.out)
    report_kpis(con, a.out)
    report_trial_conversion(con, a.out)
    report_plan_change_mix(con, a.out)
    report_cohorts(con, a.out)


if __name__ == "__main__":
    main()
