#!/usr/bin/env python3
"""Independent peer of build-reports: the finance reports recomputed with pandas from Reports/README.md.

Written from the definitions in Reports/README.md (not from Reports/*.sql), it reads the same PostgreSQL tables and
writes the same CSV files (mrr, mrr_bridge, mrr_movements, refunds, grace_hold_recovery, price_change_churn,
entitlement_leakage, subscribers, kpis, trial_conversion, plan_change_mix, cohorts) with the same columns, so Benchmarks/reports/compare_peer.sh can diff them cell by cell.

usage: reports_peer.py --dsn <conninfo> --as-of <instant> --from YYYY-MM --to YYYY-MM --currency USD
                       --basis corrected|known --out DIR
Identifiers are written whole (build-reports --raw-ids).
"""
import argparse
import csv
import math
import os
import sys
import tempfile
import time
from decimal import Decimal, ROUND_HALF_EVEN, ROUND_HALF_UP
from fractions import Fraction

import numpy as np
import pandas as pd
import psycopg2

CHARGE_TYPES = ("PURCHASED", "RENEWED", "RECOVERED", "RESTARTED", "PRODUCT_CHANGED")
STOP_TYPES = ("ENTERED_ON_HOLD", "PAUSED", "EXPIRED", "REVOKED", "REFUNDED")
TWELFTHS = {"P1W": 52, "P2W": 26, "P4W": 13, "P1M": 12, "P2M": 6, "P3M": 4, "P6M": 2, "P1Y": 1}
ZERO_DECIMAL = {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
                "XAF", "XOF", "XPF"}
THREE_DECIMAL = {"BHD", "JOD", "KWD", "OMR", "TND", "IQD", "LYD"}
MS = pd.Timedelta(milliseconds=1)


# ---------------------------------------------------------------- arithmetic and formatting

def round_even(value):
    """Rounds a Fraction/int half to even to an int (Python's round on a Fraction is half-even)."""
    return int(round(Fraction(value)))


def div12_even(x):
    """Vectorised round-half-even of integer array x / 12."""
    x = np.asarray(x, dtype=np.int64)
    q, r = np.divmod(x, 12)
    up = (r * 2 > 12) | ((r * 2 == 12) & (q % 2 == 1))
    return q + up.astype(np.int64)


def minor_units(currency):
    if currency in ZERO_DECIMAL:
        return 0
    if currency in THREE_DECIMAL:
        return 3
    return 2


def money(micros, currency):
    if micros is None or (isinstance(micros, float) and math.isnan(micros)):
        return ""
    d = minor_units(currency)
    value = (Decimal(int(micros)) / Decimal(1_000_000)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN)
    return f"{value:.{d}f}"


def fixed(value, places):
    """A fraction rounded like PostgreSQL's round(numeric, places) (half away from zero)."""
    if value is None:
        return ""
    f = Fraction(value)
    d = Decimal(f.numerator) / Decimal(f.denominator) if f.denominator != 1 else Decimal(f.numerator)
    # exact enough: recompute with a wide context
    from decimal import localcontext
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(f.numerator) / Decimal(f.denominator)
        return str(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def ratio(num, den, places):
    return "" if not den else fixed(Fraction(num, den), places)


def instant(ts):
    if ts is None or pd.isna(ts):
        return ""
    return pd.Timestamp(ts).tz_convert("UTC").strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def millis(ts):
    """An instant to the millisecond (truncated), ISO 8601 UTC."""
    if ts is None or pd.isna(ts):
        return ""
    t = pd.Timestamp(ts).tz_convert("UTC")
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def second(ts):
    """An instant to the second (truncated), ISO 8601 UTC."""
    return pd.Timestamp(ts).tz_convert("UTC").strftime("%Y-%m-%dT%H:%M:%SZ")


def days(delta):
    """A timedelta in days as an exact Fraction (microsecond resolution)."""
    us = int(delta / pd.Timedelta(microseconds=1))
    return Fraction(us, 86_400_000_000)


def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(header)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])


def month_of(ts):
    return ts.dt.strftime("%Y-%m")


def month_start(ym):
    return pd.Timestamp(ym + "-01", tz="UTC")


def next_month(ym):
    return (month_start(ym) + pd.offsets.MonthBegin(1)).strftime("%Y-%m")


def prev_month(ym):
    return (month_start(ym) - pd.offsets.MonthBegin(1)).strftime("%Y-%m")


def months_between(a, b):
    out = []
    m = a
    while m <= b:
        out.append(m)
        m = next_month(m)
    return out


# ---------------------------------------------------------------- loading

def read_table(cur, sql, params=None, text=(), repeated=(), instants=()):
    """One query's rows as a DataFrame, read through COPY … TO STDOUT (CSV) into pandas' C parser instead of a Python
    tuple per row (psycopg2's fetchall, which needed several times the frame's size at 1M subscriptions).
    `text` and `repeated` columns are strings; a `repeated` one (few distinct values: codes, a subscription's id on its
    rows) holds one string object per distinct value instead of one per row. `instants` are UTC datetimes
    (microseconds); the rest are inferred as read_sql inferred them (int64, or float64 when a NULL is present; t/f
    booleans). Loading only: the values are those read_sql gave."""
    query = cur.mogrify(sql, params).decode() if params is not None else sql
    dtypes = {c: "str" for c in text} | {c: "category" for c in repeated}
    with tempfile.TemporaryFile() as buf:
        cur.copy_expert(f"COPY ({query}) TO STDOUT WITH (FORMAT csv, HEADER, NULL '\\N')", buf)
        buf.seek(0)
        frame = pd.read_csv(buf, dtype=dtypes, na_values=["\\N"], keep_default_na=False,
                            true_values=["t"], false_values=["f"], low_memory=False)
    for c in repeated:
        frame[c] = frame[c].astype("str")
    for c in instants:
        frame[c] = pd.to_datetime(frame[c], utc=True, format="ISO8601").astype("datetime64[us, UTC]")
    return frame


def load(dsn, as_of, basis, currency):
    conn = psycopg2.connect(dsn)
    conn.set_session(readonly=True, isolation_level="REPEATABLE READ")
    cur = conn.cursor()
    tx = read_table(cur, """SELECT b.id::text AS id, b.subscription_id::text AS subscription_id, b.provider::text AS provider,
                     b.event_type::text AS event_type, b.transaction_key, b.effective_at, b.recorded_at, b.amount_micros,
                     b.currency_code, b.country_code, b.is_test, b.reason, b.product_id, b.plan_id::text AS plan_id,
                     b.billing_period, b.period_start_at, b.period_end_at, b.refunded_transaction_key,
                     b.refund_kind::text AS refund_kind, b.revocation_reason, b.revocation_type, b.voided_source,
                     b.voided_reason, b.is_derived, b.expires_at
              FROM billing_transaction b""",
                    text=("id", "transaction_key", "refunded_transaction_key"),
                    repeated=("subscription_id", "provider", "event_type", "currency_code", "country_code", "reason",
                              "product_id", "plan_id", "billing_period", "refund_kind", "revocation_type"),
                    instants=("effective_at", "recorded_at", "period_start_at", "period_end_at", "expires_at"))
    tx["amount_micros"] = tx["amount_micros"].astype("float64")
    for c in ("revocation_reason", "voided_source", "voided_reason"):
        tx[c] = tx[c].astype("float64")
    subs = read_table(cur, """SELECT id::text AS subscription_id, billing_account_id::text AS billing_account_id,
                       is_test_purchase, is_sandbox FROM subscription""", text=("subscription_id", "billing_account_id"))
    plans = read_table(cur, "SELECT id::text AS plan_id, code AS plan_code FROM plan", text=("plan_id", "plan_code"))
    fx = read_table(cur, "SELECT month, from_currency, rate::text AS rate FROM fx_rate WHERE to_currency = %s", (currency,),
                    text=("month", "from_currency", "rate"))
    pcs = read_table(cur, """SELECT id::text AS id, subscription_id::text AS subscription_id, provider::text AS provider,
                      mode::text AS mode, currency_code, old_amount_micros, new_amount_micros, product_id, region_code,
                      created_at, announced_at
               FROM subscription_price_change""",
                     text=("id", "subscription_id"), repeated=("provider", "mode", "currency_code", "product_id", "region_code"),
                     instants=("created_at", "announced_at"))
    ents = read_table(cur, """SELECT e.subscription_id::text AS subscription_id, e.billing_account_id::text AS billing_account_id,
                       e.plan_id::text AS plan_id, e.valid_from, e.valid_until, e.ended_at, e.recorded_at
                FROM entitlement_interval e""", text=("subscription_id", "billing_account_id"), repeated=("plan_id",),
                      instants=("valid_from", "valid_until", "ended_at", "recorded_at"))
    apple_events = read_table(cur, """SELECT to_char(e.event_date, 'YYYY-MM-DD') AS event_date, e.event,
                       e.subscription_offer_type, e.quantity
                FROM apple_subscription_event_row e JOIN report_file f ON f.id = e.report_file_id
                WHERE f.replaced_by IS NULL AND (%s = 'corrected' OR f.imported_at <= %s)
                  AND e.event_date <= (%s::timestamptz AT TIME ZONE 'America/Los_Angeles')::date""",
                              (basis, as_of.isoformat(), as_of.isoformat()), text=("event_date", "event", "subscription_offer_type"))
    cur.close()
    conn.close()
    for c in ("effective_at", "recorded_at", "period_start_at", "period_end_at", "expires_at"):
        tx[c] = pd.to_datetime(tx[c], utc=True)
    for c in ("valid_from", "valid_until", "ended_at", "recorded_at"):
        ents[c] = pd.to_datetime(ents[c], utc=True)
    tx["amount_micros"] = tx["amount_micros"].astype("Int64")
    # plan_code beside plan_id (a left join on the unique plan id, without copying the history)
    code = plans.set_index("plan_id")["plan_code"]
    tx["plan_code"] = tx["plan_id"].map(code)
    ents["plan_code"] = ents["plan_id"].map(code)
    # The basis: nothing effective after as-of; "known" also drops rows recorded after it.
    keep = tx["effective_at"] <= as_of
    if basis == "known":
        keep &= tx["recorded_at"] <= as_of
    # Every row, whatever the basis, for the columns read from it (test flags, refunded charges, currencies).
    tx_all = tx[["id", "subscription_id", "event_type", "transaction_key", "effective_at", "currency_code", "is_test"]]
    tx = tx[keep].copy()
    # Who counts: a subscription flagged test/sandbox, or with any (readable) test history row, counts nowhere.
    test_rows = set(tx_all.loc[tx_all["is_test"], "subscription_id"])
    flagged = set(subs.loc[subs["is_test_purchase"] | subs["is_sandbox"], "subscription_id"])
    test_subs = test_rows | flagged
    fx["month"] = pd.to_datetime(fx["month"]).dt.strftime("%Y-%m")
    rates = {(r.month, r.from_currency): Fraction(Decimal(r.rate)) for r in fx.itertuples()}
    rate_text = {(r.month, r.from_currency): r.rate for r in fx.itertuples()}
    apple_events["subscription_offer_type"] = apple_events["subscription_offer_type"].fillna("")
    return dict(apple_events=apple_events, basis=basis, tx=tx, tx_all=tx_all, subs=subs, test_subs=test_subs, test_rows=test_rows, rates=rates, rate_text=rate_text, pcs=pcs,
                ents=ents)


def rate_of(data, month, cur, reporting):
    if cur == reporting:
        return Fraction(1)
    return data["rates"].get((month, cur))


# ---------------------------------------------------------------- MRR state

def state_rows(tx):
    """The rows that set a subscription's MRR state, sorted, each with the value it contributes."""
    is_charge = tx["event_type"].isin(CHARGE_TYPES) & tx["amount_micros"].notna() & tx["period_end_at"].notna()
    is_grace = tx["event_type"] == "ENTERED_GRACE_PERIOD"
    is_stop = tx["event_type"].isin(STOP_TYPES)
    s = tx[is_charge | is_grace | is_stop].copy()
    s["kind"] = np.where(s["event_type"] == "ENTERED_GRACE_PERIOD", "grace",
                         np.where(s["event_type"].isin(STOP_TYPES), "stop", "charge"))
    # At one instant: charges, then grace, then hold and pause, then endings (the last read holds); rows of one kind
    # by transaction_key, never by id (Reports/README.md, "Order at one instant").
    s["rank"] = np.where(s["kind"] == "charge", 0, np.where(s["kind"] == "grace", 1,
                         np.where(s["event_type"].isin(("ENTERED_ON_HOLD", "PAUSED")), 2, 3)))
    s = s.sort_values(["subscription_id", "effective_at", "rank", "transaction_key"]).reset_index(drop=True)
    s["tw"] = s["billing_period"].map(TWELFTHS)
    ch = s["kind"] == "charge"
    g = s.groupby("subscription_id", sort=False)
    # latest charge (trial included) and latest paid charge at or before each row
    for col in ("amount_micros", "tw", "product_id", "plan_code", "billing_period", "country_code", "currency_code"):
        s["lc_" + col] = s[col].where(ch)
        s["lc_" + col] = s.groupby("subscription_id", sort=False)["lc_" + col].ffill()
        paid = ch & (s["amount_micros"].fillna(0) > 0) & s["tw"].notna()
        s["lp_" + col] = s[col].where(paid)
        s["lp_" + col] = s.groupby("subscription_id", sort=False)["lp_" + col].ffill()
    # contribution of each row: a charge its twelfths until its period ends; a stop row nothing
    s["value"] = np.zeros(len(s), dtype=np.int64)
    cm = ch & s["tw"].notna()
    s.loc[cm, "value"] = (s.loc[cm, "amount_micros"].astype("int64") * s.loc[cm, "tw"].astype("int64")).values
    s["until"] = s["period_end_at"].where(ch)
    s["v_currency"], s["v_product"], s["v_plan"] = s["currency_code"], s["product_id"], s["plan_code"]
    s["v_period"], s["v_country"] = s["billing_period"], s["country_code"]
    # the subscription's first charge strictly after each row (is it the RECOVERED charge that ends the failure?)
    chg = s[ch][["subscription_id", "effective_at", "event_type", "amount_micros", "tw", "currency_code",
                 "country_code", "product_id", "plan_code", "billing_period"]].copy()
    chg = chg.drop_duplicates(["subscription_id", "effective_at"], keep="first").sort_values("effective_at",
                                                                                            kind="stable")
    chg.columns = ["subscription_id", "n_at"] + ["n_" + c for c in chg.columns[2:]]
    gr = s[s["kind"] == "grace"].copy()
    gr["_row"] = gr.index
    gr = pd.merge_asof(gr.sort_values("effective_at", kind="stable"), chg, left_on="effective_at", right_on="n_at",
                       by="subscription_id", direction="forward", allow_exact_matches=False).set_index("_row")
    rec = (gr["n_event_type"] == "RECOVERED") & gr["n_tw"].notna()
    val = pd.Series(np.nan, index=gr.index, dtype="float64").astype("object")
    # the RECOVERED charge that ends the failure
    val[rec] = [int(a) * int(t) for a, t in zip(gr.loc[rec, "n_amount_micros"], gr.loc[rec, "n_tw"])]
    # else the grace row's amount over the latest charge's period
    g2 = ~rec & gr["amount_micros"].notna() & gr["lc_tw"].notna()
    val[g2] = [int(a) * int(t) for a, t in zip(gr.loc[g2, "amount_micros"], gr.loc[g2, "lc_tw"])]
    # else the latest paid charge
    g3 = ~rec & ~g2 & gr["lp_amount_micros"].notna() & gr["lp_tw"].notna()
    val[g3] = [int(a) * int(t) for a, t in zip(gr.loc[g3, "lp_amount_micros"], gr.loc[g3, "lp_tw"])]
    # Never paid (no paid charge at or before the grace row): the grace contributes nothing (README "MRR").
    val[gr["lp_amount_micros"].isna()] = np.nan
    has = val.notna()
    s.loc[val.index[has], "value"] = val[has].astype("int64").values
    # A grace holds until its end: expires_at when later than the row (open otherwise).
    s.loc[gr.index, "until"] = gr["expires_at"].where(gr["expires_at"] > gr["effective_at"])
    s.loc[gr.index, "v_currency"] = gr["n_currency_code"].where(rec, gr["currency_code"]).fillna(gr["lp_currency_code"])
    for col, src in (("v_country", "country_code"), ("v_product", "product_id"), ("v_plan", "plan_code"),
                     ("v_period", "billing_period")):
        x = gr["n_" + src].where(rec, gr["lc_" + src])
        s.loc[gr.index, col] = x.where(x.notna(), gr[src])
    # one row per subscription and instant: the last in the order above
    s = s.drop_duplicates(["subscription_id", "effective_at"], keep="last")
    return s


def snapshots(s, as_of, first_month, last_month):
    months = months_between(min(first_month, s["effective_at"].min().strftime("%Y-%m")) if len(s) else first_month,
                            last_month)
    snaps = {}
    for m in months:
        end = month_start(next_month(m)) - MS
        snaps[m] = min(end, as_of)
    return months, snaps


def contributions(s, subs, months, snaps):
    """Per snapshot month: the contributing subscriptions with value (twelfths of a micro) and attributes."""
    s = s.sort_values("effective_at")
    acct = subs.set_index("subscription_id")["billing_account_id"]
    out = []
    ids = pd.DataFrame({"subscription_id": s["subscription_id"].unique()})
    for m in months:
        t = snaps[m]
        left = ids.assign(t=t)
        left["t"] = pd.to_datetime(left["t"], utc=True)
        hit = pd.merge_asof(left, s, left_on="t", right_on="effective_at", by="subscription_id", direction="backward",
                            allow_exact_matches=True)
        hit = hit[hit["effective_at"].notna()]
        live = (hit["value"] > 0) & (hit["until"].isna() | (hit["t"] < hit["until"]))
        hit = hit[live]
        hit = hit[["subscription_id", "provider", "value", "v_currency", "v_product", "v_plan", "v_period",
                   "v_country"]].copy()
        hit["month"] = m
        out.append(hit)
    c = pd.concat(out, ignore_index=True)
    c["value"] = c["value"].astype("int64")
    c["account"] = c["subscription_id"].map(acct)
    c["account"] = c["account"].fillna(c["subscription_id"])
    return c


# ---------------------------------------------------------------- MRR reports

def report_mrr(c, rep_months, out):
    rows = []
    cc = c[c["month"].isin(rep_months)]
    g = cc.groupby(["month", "provider", "v_product", "v_plan", "v_period", "v_currency", "v_country"], dropna=False)
    agg = g.agg(tw=("value", "sum"), n=("subscription_id", "nunique")).reset_index()
    agg = agg.sort_values(["month", "provider", "v_product", "v_plan", "v_period", "v_currency", "v_country"])
    for r in agg.itertuples():
        mrr = round_even(Fraction(int(r.tw), 12))
        arppu = round_even(Fraction(int(r.tw), 12 * int(r.n)))
        rows.append([r.month, r.provider, r.v_product, r.v_plan, r.v_period, r.v_currency, r.v_country,
                     money(mrr, r.v_currency), mrr, int(r.n), money(arppu, r.v_currency), arppu])
    write_csv(os.path.join(out, "mrr.csv"),
              ["month", "provider", "product_id", "plan_code", "billing_period", "currency", "country", "mrr",
               "mrr_micros", "paying_subscribers", "arppu", "arppu_micros"], rows)


def movements(c, months):
    """Per month × provider × account × currency: p, v, movement, amount (twelfths)."""
    acc = c.groupby(["month", "provider", "account", "v_currency"]).agg(
        v=("value", "sum"), subs=("subscription_id", "min"), nsubs=("subscription_id", "size")).reset_index()
    idx = {m: i for i, m in enumerate(months)}
    acc["mi"] = acc["month"].map(idx)
    key = ["provider", "account", "v_currency"]
    cur = acc[key + ["mi", "v", "subs", "nsubs"]]
    prev = cur.assign(mi=cur["mi"] + 1).rename(columns={"v": "p", "subs": "psubs", "nsubs": "pnsubs"})
    prev = prev[prev["mi"] < len(months)]
    mv = cur.merge(prev, on=key + ["mi"], how="outer")
    mv["v"] = mv["v"].fillna(0).astype("int64")
    mv["p"] = mv["p"].fillna(0).astype("int64")
    first_paid = acc.groupby(key)["mi"].min().rename("first_mi").reset_index()
    mv = mv.merge(first_paid, on=key, how="left")
    conds = [
        (mv["p"] == 0) & (mv["v"] > 0) & (mv["first_mi"] >= mv["mi"]),
        (mv["p"] == 0) & (mv["v"] > 0) & (mv["first_mi"] < mv["mi"]),
        (mv["v"] == 0) & (mv["p"] > 0),
        (mv["v"] > mv["p"]) & (mv["p"] > 0),
        (mv["v"] > 0) & (mv["v"] < mv["p"]),
    ]
    mv["movement"] = np.select(conds, ["new", "reactivation", "churn", "expansion", "contraction"], default="")
    mv["amount"] = np.select(conds, [mv["v"], mv["v"], mv["p"], mv["v"] - mv["p"], mv["p"] - mv["v"]], default=0)
    mv["month"] = mv["mi"].map(dict(enumerate(months)))
    return mv


def report_bridge(c, mv, months, rep_months, data, reporting, out):
    key = ["month", "provider", "v_currency"]
    end = c.groupby(key)["value"].sum()
    paying = c.groupby(key)["account"].nunique()
    moved = mv[mv["movement"] != ""]
    msum = moved.groupby(key + ["movement"])["amount"].sum()
    mcnt = moved.groupby(key + ["movement"])["amount"].size()
    names = ["new", "expansion", "contraction", "churn", "reactivation"]
    cells = set(end.index) | set((m, p, cu) for (m, p, cu, _) in msum.index)
    # previous month's end: a cell also exists when it had an end last month
    prev_cells = set((months[months.index(m) + 1], p, cu) for (m, p, cu) in end.index if months.index(m) + 1 < len(months))
    cells |= prev_cells
    rows = []
    local_end = {}
    for k in sorted(cells):
        m, p, cu = k
        local_end[k] = round_even(Fraction(int(end.get(k, 0)), 12))
    for k in sorted(cells):
        m, p, cu = k
        if m not in rep_months:
            continue
        i = months.index(m)
        pk = (months[i - 1], p, cu) if i > 0 else None
        start = local_end.get(pk, 0) if pk else 0
        e = local_end[k]
        mov = {n: round_even(Fraction(int(msum.get(k + (n,), 0)), 12)) for n in names}
        cnt = {n: int(mcnt.get(k + (n,), 0)) for n in names}
        fxv = e - start - mov["new"] - mov["expansion"] + mov["contraction"] + mov["churn"] - mov["reactivation"]
        rows.append((m, p, "local", cu, start, fxv, mov, e, cnt, int(paying.get(k, 0))))
    # reporting view: all of a provider's currencies converted
    provs = sorted(set((m, p) for (m, p, cu) in cells))
    rep_end = {}
    ok = {}
    for (m, p) in provs:
        i = months.index(m)
        curs_now = [cu for (mm, pp, cu) in cells if mm == m and pp == p and int(end.get((mm, pp, cu), 0)) > 0]
        total = Fraction(0)
        good = True
        for cu in curs_now:
            r = rate_of(data, m, cu, reporting)
            if r is None:
                good = False
                break
            total += int(end.get((m, p, cu), 0)) * r
        rep_end[(m, p)] = round_even(total / 12) if good else None
    for (m, p) in provs:
        if m not in rep_months:
            continue
        i = months.index(m)
        pm = months[i - 1] if i > 0 else None
        curs = sorted(cu for (mm, pp, cu) in cells if mm == m and pp == p)
        good = rep_end.get((m, p)) is not None
        for cu in curs:
            if rate_of(data, m, cu, reporting) is None:
                good = False
            if pm and int(end.get((pm, p, cu), 0)) > 0 and rate_of(data, pm, cu, reporting) is None:
                good = False
        if pm and (pm, p) in rep_end and rep_end[(pm, p)] is None:
            good = False
        if not good:
            continue
        start = rep_end.get((pm, p), 0) if pm else 0
        start = start or 0
        e = rep_end[(m, p)]
        mov, cnt = {}, {}
        for n in names:
            tot = Fraction(0)
            k_ = 0
            for cu in curs:
                tot += int(msum.get((m, p, cu, n), 0)) * rate_of(data, m, cu, reporting)
                k_ += int(mcnt.get((m, p, cu, n), 0))
            mov[n] = round_even(tot / 12)
            cnt[n] = k_
        fxv = e - start - mov["new"] - mov["expansion"] + mov["contraction"] + mov["churn"] - mov["reactivation"]
        pay = c[(c["month"] == m) & (c["provider"] == p)]["account"].nunique()
        rows.append((m, p, "reporting", reporting, start, fxv, mov, e, cnt, int(pay)))
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3]))
    body = []
    for (m, p, view, cu, start, fxv, mov, e, cnt, pay) in rows:
        line = [m, p, view, cu, money(start, cu), start, money(fxv, cu), fxv]
        for n in names:
            line += [money(mov[n], cu), mov[n]]
        line += [money(e, cu), e] + [cnt[n] for n in names] + [pay]
        body.append(line)
    header = ["month", "provider", "view", "currency", "start_mrr", "start_mrr_micros", "fx", "fx_micros"]
    for n in names:
        header += [n, n + "_micros"]
    header += ["mrr", "mrr_micros"] + [n + "_count" for n in names] + ["paying_accounts_count"]
    write_csv(os.path.join(out, "mrr_bridge.csv"), header, body)
    return rows


def report_movements(mv, months, rep_months, data, reporting, out):
    moved = mv[(mv["movement"] != "") & mv["month"].isin(rep_months)].copy()
    moved = moved.sort_values(["month", "provider", "account", "v_currency"])
    rows = []
    for r in moved.itertuples():
        cu = r.v_currency
        i = months.index(r.month)
        rt = "1" if cu == reporting else data["rate_text"].get((r.month, cu), "")
        prt = "1" if cu == reporting else ("" if i == 0 else data["rate_text"].get((months[i - 1], cu), ""))
        # the account's lowest paying subscription id and how many pay, at this snapshot (the previous one for churn)
        sub, nsub = (r.psubs, r.pnsubs) if r.movement == "churn" else (r.subs, r.nsubs)
        sm, em, am = round_even(Fraction(int(r.p), 12)), round_even(Fraction(int(r.v), 12)), round_even(Fraction(int(r.amount), 12))
        rows.append([r.month, r.provider, r.account, cu, r.movement, money(sm, cu), sm, money(em, cu), em,
                     money(am, cu), am, int(r.p), int(r.v), int(r.amount), rt, prt, sub, int(nsub)])
    write_csv(os.path.join(out, "mrr_movements.csv"),
              ["month", "provider", "billing_account_id", "currency", "movement", "start", "start_micros", "end",
               "end_micros", "amount", "amount_micros", "start_twelfths", "end_twelfths", "amount_twelfths",
               "rate_to_reporting", "previous_rate_to_reporting", "subscription_id", "subscriptions_count"], rows)


# ---------------------------------------------------------------- refunds

SOURCES = {0: "user", 1: "developer", 2: "google"}
REASONS = {0: "other", 1: "remorse", 2: "not received", 3: "defective", 4: "accidental purchase", 5: "fraud",
           6: "friendly fraud", 7: "chargeback"}
APPLE_REASONS = {0: "other", 1: "app issue"}


def _code(value, words):
    if value is None or pd.isna(value):
        return "none"
    n = int(value)
    return f"{n} {words[n]}" if n in words else str(n)


def store_reason(r):
    """The store's codes in words (Reports/README.md, "Refunds")."""
    if r.provider == "APPLE":
        if r.refund_kind == "FAMILY_REVOKE":
            t = r.revocation_type if isinstance(r.revocation_type, str) else "FAMILY_REVOKE"
            return f"apple revocationType {t}"
        return f"apple revocationReason {_code(r.revocation_reason, APPLE_REASONS)}"
    return f"google voidedSource {_code(r.voided_source, SOURCES)} voidedReason {_code(r.voided_reason, REASONS)}"


def report_refunds(data, rep_months, out):
    tx = data["tx"]
    tx = tx[~tx["subscription_id"].isin(data["test_subs"])]
    ref = tx[(tx["event_type"] == "REFUNDED") & tx["refund_kind"].isin(["REFUND", "CHARGEBACK"])].copy()
    fam = tx[(tx["event_type"].isin(["REFUNDED", "REVOKED"])) & (tx["refund_kind"] == "FAMILY_REVOKE")].copy()
    fam = fam.sort_values(["subscription_id", "effective_at", "id"]).drop_duplicates(
        ["subscription_id", "effective_at"])
    allr = pd.concat([ref, fam], ignore_index=True)
    charges = tx[tx["event_type"].isin(CHARGE_TYPES) & (tx["amount_micros"].fillna(0) > 0)]
    # the refunded charge, by its key, among all rows
    by_key = data["tx_all"].set_index("transaction_key")
    allr["charge_at"] = allr["refunded_transaction_key"].map(by_key["effective_at"])
    allr["charge_cur"] = allr["refunded_transaction_key"].map(by_key["currency_code"])
    allr["charge_month"] = month_of(allr["charge_at"])
    allr["refund_month"] = month_of(allr["effective_at"])
    allr["refunded_key"] = allr["refunded_transaction_key"].fillna(allr["transaction_key"])
    # currency: the row's, else the refunded charge's, else the latest non-refund row with a currency before it
    cur_rows = data["tx_all"]
    cur_rows = cur_rows[cur_rows["currency_code"].notna() & (cur_rows["event_type"] != "REFUNDED")]
    cur_rows = cur_rows[["subscription_id", "effective_at", "id", "currency_code"]].sort_values(
        ["effective_at", "id"], kind="stable").rename(columns={"currency_code": "latest_cur", "effective_at": "l_at"})
    allr["_i"] = range(len(allr))
    latest = pd.merge_asof(allr[["_i", "subscription_id", "effective_at"]].sort_values("effective_at", kind="stable"),
                           cur_rows[["subscription_id", "l_at", "latest_cur"]], left_on="effective_at", right_on="l_at",
                           by="subscription_id", direction="backward").set_index("_i")["latest_cur"]
    allr["latest_cur"] = allr["_i"].map(latest)
    allr["cur"] = allr["currency_code"].fillna(allr["charge_cur"]).fillna(allr["latest_cur"])
    allr["store_reason"] = [store_reason(r) for r in allr.itertuples()]
    paid = charges.assign(month=month_of(charges["effective_at"])).groupby(
        ["month", "provider", "currency_code"]).size()
    rows = []
    for view, mcol in (("by_refund_month", "refund_month"), ("by_charge_month", "charge_month")):
        v = allr[allr[mcol].notna() & allr[mcol].isin(rep_months)]
        for k, g in v.groupby([mcol, "provider", "cur", "refund_kind", "store_reason"], dropna=False):
            m, p, cu, kind, sr = k
            n = len(g)
            nt = g["refunded_key"].nunique()
            amt = int((-g["amount_micros"].fillna(0)).sum()) if kind != "FAMILY_REVOKE" else 0
            pc = int(paid.get((m, p, cu), 0)) if isinstance(cu, str) else 0
            rate = "" if kind == "FAMILY_REVOKE" or pc == 0 else fixed(Fraction(nt, pc), 6)
            d = sorted(days(x) for x in (g["effective_at"] - g["charge_at"]).dropna())
            med = p90 = ""
            if d:
                med = fixed(d[max(0, math.ceil(0.5 * len(d)) - 1)], 4)
                p90 = fixed(d[max(0, math.ceil(0.9 * len(d)) - 1)], 4)
            cux = cu if isinstance(cu, str) else ""
            rows.append([view, m, p, cux, kind, sr, n, nt, money(amt, cux) if kind != "FAMILY_REVOKE" else money(0, cux),
                         amt, pc, rate, med, p90])
    rows.sort(key=lambda r: (r[0] != "by_refund_month", r[1], r[2], r[3], r[4], r[5]))
    write_csv(os.path.join(out, "refunds.csv"),
              ["view", "month", "provider", "currency", "refund_kind", "store_reason", "refunds_count",
               "refunded_transactions_count", "refunds", "refunds_micros", "paid_transactions_count", "refund_rate",
               "median_days", "p90_days"], rows)


# ---------------------------------------------------------------- grace and hold

def report_grace(data, rep_months, out):
    tx = data["tx"]
    # grace and hold: a test purchase is one with any test history row (Reports/README.md)
    tx = tx[~tx["subscription_id"].isin(data["test_rows"])]
    is_fail = tx["event_type"].isin(["ENTERED_GRACE_PERIOD", "ENTERED_ON_HOLD"])
    is_charge = tx["event_type"].isin(CHARGE_TYPES)
    is_end = tx["event_type"].isin(["EXPIRED", "REVOKED", "REFUNDED"])
    r = tx[is_fail | is_charge | is_end].copy()
    r = r[r["subscription_id"].isin(set(tx.loc[is_fail, "subscription_id"]))]
    # At one instant: grace, hold, charge, ending; then by id.
    r["rank"] = np.select([r["event_type"] == "ENTERED_GRACE_PERIOD", r["event_type"] == "ENTERED_ON_HOLD",
                           r["event_type"].isin(CHARGE_TYPES)], [0, 0, 1], 2)
    r["sub_rank"] = (r["event_type"] == "ENTERED_ON_HOLD").astype(int)
    r = r.sort_values(["subscription_id", "effective_at", "rank", "sub_rank", "id"])
    episodes = []
    for sid, g in r.groupby("subscription_id", sort=False):
        open_ep = None
        last_charge_plan = last_charge_cur = None
        for x in g.itertuples():
            if x.rank == 1:
                paid = not pd.isna(x.amount_micros) and x.amount_micros > 0
                if open_ep is not None and paid:
                    open_ep.update(outcome="recovered", at=x.effective_at, amount=int(x.amount_micros),
                                   tw=TWELFTHS.get(x.billing_period), plan=x.plan_code, rcur=x.currency_code)
                    episodes.append(open_ep)
                    open_ep = None
                if not pd.isna(x.plan_id):
                    last_charge_plan, last_charge_cur = x.plan_code, x.currency_code
            elif x.rank == 0:
                if open_ep is None:
                    open_ep = dict(sid=sid, provider=x.provider, start=x.effective_at,
                                   grace=x.event_type == "ENTERED_GRACE_PERIOD", hold=x.event_type == "ENTERED_ON_HOLD",
                                   country=x.country_code, fcur=x.currency_code, plan0=last_charge_plan,
                                   cur0=last_charge_cur,
                                   outcome="open")
                elif x.event_type == "ENTERED_ON_HOLD":
                    open_ep["hold"] = True
            else:
                if open_ep is not None:
                    open_ep.update(outcome="churned")
                    episodes.append(open_ep)
                    open_ep = None
        if open_ep is not None:
            episodes.append(open_ep)
    e = pd.DataFrame(episodes)
    rows = []
    if len(e):
        e["month"] = pd.to_datetime(e["start"], utc=True).dt.strftime("%Y-%m")
        e = e[e["month"].isin(rep_months)]
        if "plan" not in e:
            e["plan"] = None
        e["plan_f"] = e["plan"].where(e["outcome"] == "recovered", None)
        e["plan_f"] = e["plan_f"].fillna(e["plan0"])
        if "rcur" not in e:
            e["rcur"] = None
        e["currency"] = e["fcur"].fillna(e["rcur"].where(e["outcome"] == "recovered")).fillna(e["cur0"])
        for k, g in e.groupby(["month", "provider", "plan_f", "country", "currency"], dropna=False):
            m, p, plan, country, cu = k
            n = len(g)
            ge = int(g["grace"].sum())
            rec = g[g["outcome"] == "recovered"]
            gr = int((rec["hold"] == False).sum())  # noqa: E712
            he = int(g["hold"].sum())
            hr = int((rec["hold"] == True).sum())  # noqa: E712
            chn = int((g["outcome"] == "churned").sum())
            op = int((g["outcome"] == "open").sum())
            d = sorted(days(pd.Timestamp(a) - pd.Timestamp(b)) for a, b in zip(rec["at"], rec["start"]))
            med = fixed(d[max(0, math.ceil(0.5 * len(d)) - 1)], 4) if d else ""
            p90 = fixed(d[max(0, math.ceil(0.9 * len(d)) - 1)], 4) if d else ""
            tw = sum(int(a) * int(t) for a, t in zip(rec["amount"], rec["tw"]) if not pd.isna(t))
            mrr = round_even(Fraction(tw, 12))
            cux = cu if isinstance(cu, str) else ""
            rows.append([m, p, plan if isinstance(plan, str) else "", country if isinstance(country, str) else "", cux,
                         n, ge, gr, he, hr, chn, op, ratio(gr, ge, 6), ratio(hr, he, 6), ratio(gr + hr, n, 6),
                         ratio(chn, n, 6), med, p90, money(mrr, cux), mrr])
    rows.sort(key=lambda r: tuple(r[:5]))
    write_csv(os.path.join(out, "grace_hold_recovery.csv"),
              ["failure_month", "provider", "plan", "country", "currency", "episodes_count", "grace_entered_count",
               "grace_recovered_count", "hold_entered_count", "hold_recovered_count", "churned_count", "open_count",
               "grace_recovery_rate", "hold_recovery_rate", "recovery_rate", "churn_rate", "median_recovery_days",
               "p90_recovery_days", "mrr_recovered", "mrr_recovered_micros"], rows)


# ---------------------------------------------------------------- entitlement leakage

def report_leakage(data, s, as_of, out):
    ents = data["ents"]
    e = ents[(ents["recorded_at"] <= as_of) & (ents["valid_from"] <= as_of)].copy()
    e["until"] = e[["valid_until", "ended_at"]].min(axis=1)
    e = e[e["until"].isna() | (e["until"] > as_of)]
    latest = s.sort_values(["subscription_id", "effective_at", "rank"]).groupby("subscription_id").tail(1)
    latest = latest.set_index("subscription_id")
    subs = data["subs"].set_index("subscription_id")
    rows = []
    for r in e.itertuples():
        if r.subscription_id not in latest.index:
            continue
        st = latest.loc[r.subscription_id]
        if st["event_type"] not in STOP_TYPES:
            continue
        flags = subs.loc[r.subscription_id]
        is_test = bool(flags["is_test_purchase"]) or bool(flags["is_sandbox"])
        rows.append([r.subscription_id, r.billing_account_id, st["provider"], r.plan_code, st["event_type"],
                     millis(st["effective_at"]), millis(r.valid_from), millis(r.until),
                     "true" if is_test else "false"])
    rows.sort()
    write_csv(os.path.join(out, "entitlement_leakage.csv"),
              ["subscription_id", "billing_account_id", "provider", "plan_code", "state", "state_at", "entitled_from",
               "entitled_until", "is_test"], rows)


# ---------------------------------------------------------------- price-change churn

def add_period(ts, period):
    n, unit = int(period[1:-1]), period[-1]
    if unit == "W":
        return ts + pd.Timedelta(weeks=n)
    if unit == "D":
        return ts + pd.Timedelta(days=n)
    if unit == "M":
        return ts + pd.DateOffset(months=n)
    return ts + pd.DateOffset(years=n)


def wilson(x, n, z):
    from decimal import localcontext
    with localcontext() as ctx:
        ctx.prec = 50
        x, n = Decimal(x), Decimal(n)
        # z² and its half and quarter to six decimals, as Reports/README.md states
        z2, z2_2, z2_4 = Decimal("3.841459"), Decimal("1.920729"), Decimal("0.960365")
        centre = (x + z2_2) / (n + z2)
        half = z * (x * (n - x) / n + z2_4).sqrt() / (n + z2)
        return centre - half, centre + half


def newcombe(x1, n1, x2, n2):
    from decimal import localcontext
    z = Decimal("1.959964")
    with localcontext() as ctx:
        ctx.prec = 50
        p1, p2 = Decimal(x1) / Decimal(n1), Decimal(x2) / Decimal(n2)
        l1, u1 = wilson(x1, n1, z)
        l2, u2 = wilson(x2, n2, z)
        d = p1 - p2
        low = d - ((p1 - l1) ** 2 + (u2 - p2) ** 2).sqrt()
        high = d + ((u1 - p1) ** 2 + (p2 - l2) ** 2).sqrt()
        return Fraction(low), Fraction(high)


class _Groups:
    """Lazy per-subscription slices of a frame sorted by subscription_id."""

    def __init__(self, df):
        self.df = df
        self.pos = {k: (v[0], v[-1] + 1) for k, v in df.groupby("subscription_id", sort=False).indices.items()}

    def __getitem__(self, sid):
        a, b = self.pos[sid]
        return self.df.iloc[a:b]


def baseline(tx, prov, prod, region, ws, we, members):
    """Peers (other countries, not members) paying for the product at ws, and those ending by we."""
    t = tx[tx["provider"] == prov]
    paid = t[t["event_type"].isin(CHARGE_TYPES) & (t["amount_micros"].fillna(0) > 0) & (t["effective_at"] <= ws)]
    lc = paid.groupby("subscription_id", sort=False).tail(1).set_index("subscription_id")
    lc = lc[(lc["product_id"] == prod) & (lc["country_code"].isna() | (lc["country_code"] != region))
            & (lc["period_end_at"] > ws) & ~lc.index.isin(members)]
    stops = t[t["event_type"].isin(["EXPIRED", "REFUNDED", "REVOKED", "ENTERED_GRACE_PERIOD", "ENTERED_ON_HOLD",
                                    "PAUSED"]) & (t["effective_at"] <= ws)]
    last_stop = stops.groupby("subscription_id")["effective_at"].max()
    ls = last_stop.reindex(lc.index)
    lc = lc[ls.isna() | (ls <= lc["effective_at"])]
    ends = t[t["event_type"].isin(["EXPIRED", "REFUNDED", "REVOKED"]) & (t["effective_at"] >= ws)]
    first_end = ends.groupby("subscription_id")["effective_at"].min().reindex(lc.index)
    return len(lc), int((first_end <= we).sum())


def report_price_change(data, as_of, rep_months, out):
    tx = data["tx"]
    # price changes: a test purchase is one with any test history row (Reports/README.md)
    tx = tx[~tx["subscription_id"].isin(data["test_rows"])].copy()
    tx = tx.sort_values(["subscription_id", "effective_at", "id"], kind="stable")
    by_sub = _Groups(tx)
    is_chg_type = tx["event_type"].isin(CHARGE_TYPES)
    paid = tx[is_chg_type & (tx["amount_micros"].fillna(0) > 0)]
    # the changes the history knows
    pcs = data["pcs"]
    pcs = pcs[pcs["old_amount_micros"].notna() & pcs["product_id"].notna()
              & (pd.to_datetime(pcs["announced_at"], utc=True) <= as_of)]
    if data["basis"] == "known":
        pcs = pcs[pd.to_datetime(pcs["created_at"], utc=True) <= as_of]
    changes = set((r.provider, r.product_id, r.region_code, r.currency_code, int(r.old_amount_micros),
                   int(r.new_amount_micros), r.mode) for r in pcs.itertuples())
    known = set((c[0], c[1], c[2], c[3], c[5]) for c in changes)
    # every notice with the latest charge (a free trial's included) at it
    notices = tx[(tx["event_type"] == "PRICE_CHANGE_PENDING")
                 | ((tx["event_type"] == "PRICE_CHANGE_CANCELED") & tx["amount_micros"].isna())].copy()
    chg_rows = tx[is_chg_type & tx["product_id"].notna()][["subscription_id", "effective_at", "product_id",
                                                            "period_end_at", "billing_period", "amount_micros",
                                                            "currency_code"]]
    chg_rows = chg_rows.rename(columns={c: "l_" + c for c in chg_rows.columns if c != "subscription_id"})
    notices = pd.merge_asof(notices.sort_values("effective_at", kind="stable"),
                            chg_rows.sort_values("l_effective_at", kind="stable"), left_on="effective_at",
                            right_on="l_effective_at", by="subscription_id", direction="backward")
    notices = notices[notices["l_product_id"].notna()].sort_values(["effective_at", "id"], kind="stable")
    # changes only trial subscribers were told of: from the earliest notice with an earlier paid price
    for n in notices[notices["event_type"] == "PRICE_CHANGE_PENDING"].itertuples():
        if pd.isna(n.amount_micros):
            continue
        key = (n.provider, n.l_product_id, n.country_code, n.currency_code, int(n.amount_micros))
        if key in known:
            continue
        o = paid[(paid["provider"] == n.provider) & (paid["product_id"] == n.l_product_id)
                 & (paid["country_code"] == n.country_code) & (paid["currency_code"] == n.currency_code)
                 & (paid["amount_micros"] != int(n.amount_micros)) & (paid["effective_at"] <= n.effective_at)]
        if not len(o):
            continue
        old = int(o.sort_values(["effective_at", "id"], kind="stable").iloc[-1]["amount_micros"])
        new = int(n.amount_micros)
        changes.add(key[:4] + (old, new, "PRICE_DECREASE" if new < old else "PRICE_INCREASE"))
        known.add(key)
    members = {}  # (cohort, sid) -> member

    def add(cohort, sid, start, told, target):
        k = (cohort, sid)
        if k not in members or start < members[k]["start"]:
            members[k] = dict(start=start, told=told, target=target)

    by_match = {}
    for c in changes:
        by_match.setdefault(c[:4], []).append(c)
    for n in notices.itertuples():
        cur = n.currency_code if isinstance(n.currency_code, str) else n.l_currency_code
        pend = n.l_period_end_at
        target = None
        if not pd.isna(pend):
            if pend > n.effective_at:
                target = pend
            elif isinstance(n.l_billing_period, str):
                target = add_period(pend, n.l_billing_period)
        for c in by_match.get((n.provider, n.l_product_id, n.country_code, cur), []):
            if (not pd.isna(n.amount_micros) and c[5] == int(n.amount_micros)) or (
                    pd.isna(n.amount_micros) and not pd.isna(n.l_amount_micros) and c[4] == int(n.l_amount_micros)):
                add(c, n.subscription_id, n.effective_at, True, target)
    told = set((sid, c[3], c[4], c[5]) for (c, sid) in members)
    # decreases applied without a notice: a renewal or recovery below the previous paid charge of the same product
    ch = paid.copy()
    g = ch.groupby("subscription_id", sort=False)
    ch["prev"], ch["prev_product"], ch["prev_cur"] = (g["amount_micros"].shift(1), g["product_id"].shift(1),
                                                      g["currency_code"].shift(1))
    dec = ch[ch["event_type"].isin(["RENEWED", "RECOVERED"]) & ch["prev"].notna() & (ch["prev_product"] == ch["product_id"])
             & (ch["prev_cur"] == ch["currency_code"]) & (ch["amount_micros"] < ch["prev"])]
    for c in dec.itertuples():
        cohort = (c.provider, c.product_id, c.country_code, c.currency_code, int(c.prev), int(c.amount_micros),
                  "PRICE_DECREASE")
        if (c.subscription_id, c.currency_code, int(c.prev), int(c.amount_micros)) in told:
            continue
        add(cohort, c.subscription_id, c.effective_at, False, c.effective_at)
    by_cohort = {}
    for (cohort, sid), m in members.items():
        by_cohort.setdefault(cohort, {})[sid] = m
    rows = []
    for cohort, mem in by_cohort.items():
        prov, prod, region, cur, old, new, mode = cohort
        ws = min(m["start"] for m in mem.values())
        if ws.strftime("%Y-%m") not in rep_months:
            continue
        notified = consented = applied = due = other = 0
        lost = gained = 0
        aims = []
        for sid, m in mem.items():
            g = by_sub[sid]
            before = g[g["event_type"].isin(CHARGE_TYPES) & g["billing_period"].map(TWELFTHS).notna()
                       & (g["effective_at"] <= m["start"])]
            period = before["billing_period"].iloc[-1] if len(before) else None
            tw = TWELFTHS[period] if period else None
            after = g[g["effective_at"] >= m["start"]]
            ap = after[after["event_type"].isin(["RENEWED", "RECOVERED"]) & (after["amount_micros"].fillna(0) > 0)
                       & (after["amount_micros"] == new) & (after["currency_code"] == cur)]
            ap_at = ap["effective_at"].iloc[0] if len(ap) else None
            aimed = m["target"] if m["target"] is not None else ap_at
            wend = min(as_of, add_period(aimed if aimed is not None else m["start"], period or "P1M"))
            if aimed is not None:
                aims.append(add_period(aimed, period or "P1M"))
            notified += m["told"]
            consented += bool((after["event_type"] == "PRICE_CHANGE_ACCEPTED").any())
            if ap_at is not None:
                applied += 1
                if tw is not None:
                    gained += (new - old) * tw
            if ((after["event_type"] == "EXPIRED") & (after["reason"] == "PRICE_INCREASE_NOT_CONSENTED")).any():
                due += 1
                if tw is not None:
                    lost += old * tw
            else:
                e = after[after["event_type"].isin(["EXPIRED", "REFUNDED", "REVOKED"])
                          & (after["reason"] != "PRICE_INCREASE_NOT_CONSENTED")]
                if len(e) and e["effective_at"].iloc[0] <= wend:
                    other += 1
        we = min(as_of, max(aims)) if aims else None
        peers, churned = baseline(tx, prov, prod, region, ws, we if we is not None else ws, set(mem))
        n = len(mem)
        cr = Fraction(due + other, n)
        br = Fraction(churned, peers) if peers else None
        ex = cr - br if br is not None else None
        lo = hi = None
        if peers:
            lo, hi = newcombe(due + other, n, churned, peers)
        lost_m, gained_m = round_even(Fraction(lost, 12)), round_even(Fraction(gained, 12))
        rows.append([prov, prod or "", region or "", cur, money(old, cur), old, money(new, cur), new, mode, second(ws),
                     "" if we is None else second(we), n, notified, consented, applied, due, other, peers, churned,
                     fixed(cr, 6), "" if br is None else fixed(br, 6), "" if ex is None else fixed(ex, 6),
                     "" if lo is None else fixed(lo, 6), "" if hi is None else fixed(hi, 6),
                     money(lost_m, cur), lost_m, money(gained_m, cur), gained_m, money(gained_m - lost_m, cur),
                     gained_m - lost_m])
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3], r[5], r[7], r[8]))
    write_csv(os.path.join(out, "price_change_churn.csv"),
              ["provider", "product_id", "region", "currency", "old_price", "old_price_micros", "new_price",
               "new_price_micros", "mode", "window_start", "window_end", "affected_count", "notified_count",
               "consented_count", "applied_count", "churned_due_to_change_count", "other_churn_count",
               "baseline_peers_count", "baseline_churned_count", "cohort_churn_rate", "baseline_churn_rate",
               "excess_churn_rate", "excess_churn_ci_low_rate", "excess_churn_ci_high_rate", "mrr_lost",
               "mrr_lost_micros", "mrr_gained", "mrr_gained_micros", "net_mrr", "net_mrr_micros"], rows)


# ---------------------------------------------------------------- subscribers, KPIs, trial conversion (issue 30)

def ranked_rows(data):
    """The non-test history rows read, with their rank: 0 charge, 1 grace, 2 hold or pause, 3 ending, 4 the auto-renew
    switch (CANCELED; RESTARTED without a charge), sorted in reading order (Reports/README.md "Subscribers")."""
    tx = data["tx"]
    tx = tx[~tx["subscription_id"].isin(data["test_subs"])]
    is_charge = tx["event_type"].isin(CHARGE_TYPES) & tx["amount_micros"].notna() & tx["period_end_at"].notna()
    rank = np.select([is_charge, tx["event_type"] == "ENTERED_GRACE_PERIOD",
                      tx["event_type"].isin(("ENTERED_ON_HOLD", "PAUSED")),
                      tx["event_type"].isin(("EXPIRED", "REVOKED", "REFUNDED")),
                      tx["event_type"].isin(("CANCELED", "RESTARTED"))], [0, 1, 2, 3, 4], -1)
    h = tx.assign(rank=rank)
    h = h[h["rank"] >= 0]
    return h.sort_values(["subscription_id", "effective_at", "rank", "transaction_key"], kind="stable")


def subscriber_states(data, months, snaps):
    """Per snapshot month: each counted subscription's state and product (Reports/README.md "Subscribers")."""
    h = ranked_rows(data)
    last = lambda f: f.drop_duplicates(["subscription_id", "effective_at"], keep="last").sort_values("effective_at", kind="stable")
    st = last(h[h["rank"] <= 3])[["subscription_id", "effective_at", "provider", "rank", "event_type", "amount_micros",
                                  "period_end_at", "expires_at"]]
    ch = last(h[h["rank"] == 0])[["subscription_id", "effective_at", "product_id"]].rename(columns={"effective_at": "c_at"})
    sw = last(h[h["rank"].isin([0, 4])])
    sw = sw.assign(off=sw["event_type"] == "CANCELED")[["subscription_id", "effective_at", "off"]].rename(
        columns={"effective_at": "w_at"})
    ids = pd.DataFrame({"subscription_id": st["subscription_id"].unique()})
    out = []
    for i, m in enumerate(months):
        left = ids.assign(t=pd.Timestamp(snaps[m]))
        left["t"] = left["t"].astype("datetime64[us, UTC]")
        a = pd.merge_asof(left, st, left_on="t", right_on="effective_at", by="subscription_id", direction="backward")
        a = pd.merge_asof(a, ch, left_on="t", right_on="c_at", by="subscription_id", direction="backward")
        a = pd.merge_asof(a, sw, left_on="t", right_on="w_at", by="subscription_id", direction="backward")
        a = a[a["effective_at"].notna()]
        off = a["off"].fillna(False).astype(bool)
        grace_end = a["expires_at"].where(a["expires_at"] > a["effective_at"])
        state = np.select(
            [(a["rank"] == 0) & (a["t"] < a["period_end_at"]) & (a["amount_micros"] == 0),
             (a["rank"] == 0) & (a["t"] < a["period_end_at"]) & off,
             (a["rank"] == 0) & (a["t"] < a["period_end_at"]),
             (a["rank"] == 1) & (grace_end.isna() | (a["t"] < grace_end)),
             (a["rank"] == 1),
             (a["rank"] == 2) & (a["event_type"] == "PAUSED"),
             (a["rank"] == 2)],
            ["trialing", "cancelled_paid_through", "paying", "grace", "billing_retry", "paused", "billing_retry"], "")
        a = a.assign(state=state, mi=i, month=m)
        out.append(a[a["state"] != ""][["mi", "month", "subscription_id", "provider", "product_id", "state"]])
    return pd.concat(out, ignore_index=True)


SUBSCRIBER_STATES = ["trialing", "paying", "grace", "billing_retry", "paused", "cancelled_paid_through"]


def report_subscribers(states, months, rep_months, out):
    """Returns {(month, provider): active subscriptions} for the KPIs."""
    st = states.assign(product=states["product_id"].fillna(""))
    key = ["subscription_id", "product"]
    prev = st[key + ["mi"]].assign(mi=st["mi"] + 1, was=True)
    cur = st.merge(prev, on=key + ["mi"], how="left")
    cur["start"] = cur["was"].isna()
    nxt = st[key + ["mi", "provider"]].assign(mi=st["mi"] + 1)
    nxt = nxt[nxt["mi"] < len(months)].merge(st[key + ["mi"]].assign(now=True), on=key + ["mi"], how="left")
    ends = nxt[nxt["now"].isna()].groupby(["mi", "provider", "product"]).size()
    counts = cur.groupby(["mi", "provider", "product", "state"]).size()
    starts = cur.groupby(["mi", "provider", "product"])["start"].sum()
    cells = set((mi, p, pr) for (mi, p, pr, _) in counts.index) | set(ends.index)
    rows, active = [], {}
    for (mi, p, pr) in sorted(cells, key=lambda k: (k[0], k[1], k[2])):
        m = months[mi]
        per = [int(counts.get((mi, p, pr, x), 0)) for x in SUBSCRIBER_STATES]
        act, n_start, n_end = sum(per), int(starts.get((mi, p, pr), 0)), int(ends.get((mi, p, pr), 0))
        active[(m, p)] = active.get((m, p), 0) + act
        if m in rep_months:
            rows.append([m, p, pr] + per + [act, n_start, n_end, n_start - n_end])
    write_csv(os.path.join(out, "subscribers.csv"),
              ["month", "provider", "product_id"] + [x + "_count" for x in SUBSCRIBER_STATES]
              + ["active_count", "starts_count", "ends_count", "net_change_count"], rows)
    return active


def half_even(num, den):
    return round_even(Fraction(num, den))


def report_kpis(bridge, active, data, c, months, rep_months, as_of, reporting, out):
    """Each KPI from its report's figures (Reports/README.md "KPIs"): the bridge's reporting rows, the subscribers'
    active counts, paid charges and refunds by refund month."""
    tx = data["tx"]
    tx = tx[~tx["subscription_id"].isin(data["test_subs"])]
    paid = tx[tx["event_type"].isin(CHARGE_TYPES) & (tx["amount_micros"].fillna(0) > 0)]
    paid = paid.assign(month=month_of(paid["effective_at"])).groupby(["month", "provider"]).size()
    ref = tx[(tx["event_type"] == "REFUNDED") & tx["refund_kind"].isin(["REFUND", "CHARGEBACK"])]
    ref = ref.assign(month=month_of(ref["effective_at"]), key=ref["refunded_transaction_key"].fillna(ref["transaction_key"]))
    refunded = ref.groupby(["month", "provider", "refund_kind"])["key"].nunique()
    paying = c.groupby(["month", "provider"])["account"].nunique()
    partial_month = as_of.strftime("%Y-%m") if as_of < month_start(next_month(as_of.strftime("%Y-%m"))) - MS else None
    rows = []
    for m in rep_months:
        mine = {r[1]: r for r in bridge if r[0] == m and r[2] == "reporting"}
        for p in {p for (mm, p) in active if mm == m and active[(mm, p)] > 0} - set(mine):
            zero = {n: 0 for n in ("new", "expansion", "contraction", "churn", "reactivation")}
            mine[p] = (m, p, "reporting", reporting, 0, 0, zero, 0, zero, 0)
        if not mine:
            continue
        i = months.index(m)
        cells = []
        for (_, p, _, _, start, _, mov, e, cnt, pay) in sorted(mine.values(), key=lambda r: r[1]):
            cells.append(dict(provider=p, mrr=e, start=start, new=mov["new"], expansion=mov["expansion"],
                              reactivation=mov["reactivation"], contraction=mov["contraction"], churn=mov["churn"],
                              paying=pay, start_paying=int(paying.get((months[i - 1], p), 0)) if i > 0 else 0,
                              churned=cnt["churn"], active=active.get((m, p), 0), paid=int(paid.get((m, p), 0)),
                              refunded=int(refunded.get((m, p, "REFUND"), 0)), chargebacks=int(refunded.get((m, p, "CHARGEBACK"), 0))))
        total = {k: sum(x[k] for x in cells) for k in cells[0] if k != "provider"}
        total["provider"] = "ALL"
        for k in cells + [total]:
            net = k["new"] + k["expansion"] + k["reactivation"] - k["contraction"] - k["churn"]
            lost = k["contraction"] + k["churn"]
            rows.append([m, k["provider"], reporting, "true" if m == partial_month else "false",
                         money(k["mrr"], reporting), k["mrr"], money(12 * k["mrr"], reporting), 12 * k["mrr"],
                         money(net, reporting), net, money(k["start"], reporting), k["start"],
                         money(k["new"], reporting), k["new"], money(k["expansion"], reporting), k["expansion"],
                         money(k["reactivation"], reporting), k["reactivation"],
                         money(k["contraction"], reporting), k["contraction"], money(k["churn"], reporting), k["churn"],
                         k["paying"], k["start_paying"], k["churned"], k["active"],
                         money(half_even(k["mrr"], k["paying"]), reporting) if k["paying"] else "",
                         half_even(k["mrr"], k["paying"]) if k["paying"] else "",
                         money(half_even(k["mrr"], k["active"]), reporting) if k["active"] else "",
                         half_even(k["mrr"], k["active"]) if k["active"] else "",
                         ratio(k["churned"], k["start_paying"], 6), ratio(lost, k["start"], 6),
                         ratio(k["start"] + k["expansion"] - lost, k["start"], 6),
                         ratio(k["new"] + k["expansion"] + k["reactivation"], lost, 4),
                         k["paid"], k["refunded"], k["chargebacks"], ratio(k["refunded"], k["paid"], 6),
                         ratio(k["chargebacks"], k["paid"], 6)])
    header = ["month", "provider", "currency", "is_partial"]
    for n in ("mrr", "arr", "net_new_mrr", "start_mrr", "new", "expansion", "reactivation", "contraction", "churn"):
        header += [n, n + "_micros"]
    header += ["paying_accounts_count", "start_paying_accounts_count", "churned_accounts_count", "active_count",
               "arppu", "arppu_micros", "arpu", "arpu_micros", "logo_churn_rate", "revenue_churn_rate", "nrr_rate",
               "quick_ratio", "paid_transactions_count", "refunded_transactions_count", "chargebacks_count",
               "refund_rate", "chargeback_rate"]
    write_csv(os.path.join(out, "kpis.csv"), header, rows)


WILSON_Z, WILSON_Z2, WILSON_HALF, WILSON_QUARTER = (Decimal("1.959964"), Decimal("3.841459"), Decimal("1.920729"),
                                                    Decimal("0.960365"))


def wilson_bounds(x, n):
    """The Wilson score interval of x of n with the README's six-decimal constants, clamped to [0, 1]."""
    from decimal import localcontext
    with localcontext() as ctx:
        ctx.prec = 50
        x, n = Decimal(x), Decimal(n)
        centre = (x + WILSON_HALF) / (n + WILSON_Z2)
        half = WILSON_Z * (x * (n - x) / n + WILSON_QUARTER).sqrt() / (n + WILSON_Z2)
        return max(Decimal(0), centre - half), min(Decimal(1), centre + half)


def report_trial_conversion(data, as_of, rep_months, out):
    h = ranked_rows(data)
    charges = h[h["rank"] == 0]
    first = charges.drop_duplicates("subscription_id", keep="first").set_index("subscription_id")
    trials = first[first["amount_micros"] == 0]
    paid = charges[charges["amount_micros"] > 0].groupby("subscription_id")["effective_at"].min()
    failed = h[(h["rank"] == 1) | (h["event_type"] == "ENTERED_ON_HOLD")].groupby("subscription_id")["effective_at"].min()
    ended = h[h["rank"] == 3].groupby("subscription_id")["effective_at"].min()
    window = h["subscription_id"].map(trials["period_end_at"]).where(lambda e: e < as_of, as_of)
    inside = h["effective_at"] <= window
    off = h[inside & (h["event_type"] == "CANCELED")].groupby("subscription_id")["effective_at"].max()
    on = h[inside & (h["event_type"] == "RESTARTED") & (h["rank"] == 4)].groupby("subscription_id")["effective_at"].max()
    t = trials.assign(converted_at=trials.index.map(paid), failed_at=trials.index.map(failed),
                      ended_at=trials.index.map(ended), off_at=trials.index.map(off), on_at=trials.index.map(on))
    conv = t["converted_at"].notna()
    t["outcome"] = np.select(
        [conv & (t["failed_at"] < t["converted_at"]), conv,
         t["off_at"].notna() & (t["on_at"].isna() | (t["off_at"] > t["on_at"])), t["ended_at"].notna()],
        ["converted_after_retry", "converted_in_trial", "cancelled", "failed"], "open")
    t["month"] = month_of(t["effective_at"])
    rows = []
    for (m, p, pr, co), g in t.groupby(["month", "provider", "product_id", "country_code"], dropna=False):
        if m not in rep_months:
            continue
        k = g["outcome"].value_counts()
        a, b, ca, fa, op = (int(k.get(x, 0)) for x in ("converted_in_trial", "converted_after_retry", "cancelled", "failed", "open"))
        x, n = a + b, a + b + ca + fa
        d = sorted(Decimal(fixed(days(v), 4)) for v in (g["converted_at"] - g["effective_at"]).dropna())
        med = str(d[max(0, math.ceil(0.5 * len(d)) - 1)]) if d else ""
        p90 = str(d[max(0, math.ceil(0.9 * len(d)) - 1)]) if d else ""
        lo, hi = wilson_bounds(x, n) if n else (None, None)
        rows.append(["cohort", m, p, "" if pd.isna(pr) else pr, "" if pd.isna(co) else co, len(g), a, b, x, ca, fa, op,
                     ratio(x, n, 6), fixed(lo, 6) if n else "", fixed(hi, 6) if n else "", med, p90, "", "", "", ""])
    ev = data.get("apple_events")
    if ev is not None and len(ev):
        apple = t[t["provider"] == "APPLE"]
        pacific = lambda s: s.dt.tz_convert("America/Los_Angeles").dt.strftime("%Y-%m")
        ours_t = pacific(apple["effective_at"]).value_counts()
        ours_c = pacific(apple["converted_at"].dropna()).value_counts()
        ev = ev.assign(month=ev["event_date"].str[:7])
        start = ev["event"].isin(["Start Free Trial", "Start Introductory Offer"]) & (ev["subscription_offer_type"] == "Free Trial")
        done = (ev["event"] == "Paid Subscription from Free Trial") | (
            (ev["event"] == "Paid Subscription from Introductory Offer") & ev["subscription_offer_type"].isin(["Free Trial", ""]))
        for m in sorted(ev["month"].unique()):
            if m not in rep_months:
                continue
            at, ac = int(ev.loc[start & (ev["month"] == m), "quantity"].sum()), int(ev.loc[done & (ev["month"] == m), "quantity"].sum())
            ot, oc = int(ours_t.get(m, 0)), int(ours_c.get(m, 0))
            rows.append(["apple_events", m, "APPLE", "", "", ot, "", "", oc, "", "", "", "", "", "", "", "", at, ac, ot - at, oc - ac])
    rows.sort(key=lambda r: (r[0] != "cohort", r[1], r[2], r[3], r[4]))
    write_csv(os.path.join(out, "trial_conversion.csv"),
              ["view", "month", "provider", "product_id", "country", "trials_count", "converted_in_trial_count",
               "converted_after_retry_count", "converted_count", "cancelled_count", "failed_count", "open_count",
               "conversion_rate", "conversion_ci_low_rate", "conversion_ci_high_rate", "median_conversion_days",
               "p90_conversion_days", "apple_trials_count", "apple_converted_count", "trials_difference_count",
               "converted_difference_count"], rows)


def report_plan_change_mix(data, rep_months, out):
    """Reports/README.md "Plan-change mix": consecutive charges of a subscription whose product or period differ."""
    tx = data["tx"]
    tx = tx[~tx["subscription_id"].isin(data["test_subs"])]
    ch = tx[tx["event_type"].isin(CHARGE_TYPES) & tx["amount_micros"].notna() & tx["period_end_at"].notna()]
    ch = ch.sort_values(["subscription_id", "effective_at", "transaction_key"], kind="stable").copy()
    ch["tw"] = ch["billing_period"].map(TWELFTHS)
    ch["value"] = [int(a) * int(t) if not pd.isna(t) else None for a, t in zip(ch["amount_micros"], ch["tw"])]
    g = ch.groupby("subscription_id", sort=False)
    ch["from_product"], ch["from_period"], ch["from_value"] = g["product_id"].shift(), g["billing_period"].shift(), g["value"].shift()
    ch["n"] = g.cumcount()
    ch = ch[(ch["n"] > 0) & ((ch["product_id"] != ch["from_product"]) | (ch["billing_period"] != ch["from_period"]))].copy()
    ch["month"] = month_of(ch["effective_at"])
    ch = ch[ch["month"].isin(rep_months)]
    cells = {}
    for r in ch.itertuples():
        new, old = (0 if r.value is None or pd.isna(r.value) else int(r.value)), (0 if r.from_value is None or pd.isna(r.from_value) else int(r.from_value))
        kind = ("period_change" if r.billing_period != r.from_period else
                "upgrade" if new > old else "downgrade" if new < old else "crossgrade")
        key = (r.month, r.provider, kind, r.from_product, r.product_id, r.from_period, r.billing_period, r.currency_code)
        n, f, t = cells.get(key, (0, 0, 0))
        cells[key] = (n + 1, f + old, t + new)
    rows = [list(k) + [n, round_even(Fraction(f, 12)), round_even(Fraction(t, 12)), round_even(Fraction(t - f, 12))]
            for k, (n, f, t) in sorted(cells.items())]
    write_csv(os.path.join(out, "plan_change_mix.csv"),
              ["month", "provider", "change_type", "from_product_id", "to_product_id", "from_billing_period",
               "to_billing_period", "currency", "changes_count", "from_mrr", "from_mrr_micros", "to_mrr", "to_mrr_micros",
               "mrr_moved", "mrr_moved_micros"],
              [r[:9] + [money(r[9], r[7]), r[9], money(r[10], r[7]), r[10], money(r[11], r[7]), r[11]] for r in rows])


def report_cohorts(data, c, rep_months, last, out):
    """Reports/README.md "Cohorts": customers (account, provider, currency) by the month of their first paid charge."""
    tx = data["tx"]
    tx = tx[~tx["subscription_id"].isin(data["test_subs"])]
    paid = tx["event_type"].isin(CHARGE_TYPES) & (tx["amount_micros"].fillna(0) > 0)
    refund = (tx["event_type"] == "REFUNDED") & tx["refund_kind"].isin(["REFUND", "CHARGEBACK"]) & tx["amount_micros"].notna()
    m = tx[paid | refund].copy()
    acct = data["subs"].set_index("subscription_id")["billing_account_id"]
    m["account"] = m["subscription_id"].map(acct).fillna(m["subscription_id"])
    m["month"] = month_of(m["effective_at"])
    m["paid"] = paid[paid | refund]
    key = ["account", "provider", "currency_code"]
    start = m[m["paid"]].groupby(key)["month"].min().rename("start")
    m = m.join(start, on=key)
    m = m[m["start"].notna()]
    net = m.groupby(["start", "provider", "currency_code", "month"])["amount_micros"].sum()
    size = start.reset_index().groupby(["start", "provider", "currency_code"]).size()
    pay = c[["month", "account", "provider", "v_currency"]].drop_duplicates().rename(columns={"v_currency": "currency_code"})
    pay = pay.join(start, on=key)
    kept = pay[pay["start"].notna()].groupby(["start", "provider", "currency_code", "month"]).size()
    rows = []
    for (st, p, cu), n in sorted(size.items()):
        if st not in rep_months:
            continue
        total, first = 0, None
        for k, mo in enumerate(months_between(st, last)):
            v = int(net.get((st, p, cu, mo), 0))
            total += v
            first = v if first is None else first
            r = int(kept.get((st, p, cu, mo), 0))
            rows.append([st, p, cu, k, mo, int(n), r, ratio(r, int(n), 6), money(v, cu), v, money(total, cu), total,
                         ratio(v, first, 6) if first > 0 else "", money(half_even(total, int(n)), cu), half_even(total, int(n))])
    write_csv(os.path.join(out, "cohorts.csv"),
              ["cohort_month", "provider", "currency", "months_since_start", "month", "cohort_subscribers",
               "retained_subscribers", "subscriber_retention_rate", "net_revenue", "net_revenue_micros",
               "cumulative_net_revenue", "cumulative_net_revenue_micros", "revenue_retention_rate", "ltv", "ltv_micros"], rows)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dsn", required=True)
    ap.add_argument("--as-of", required=True)
    ap.add_argument("--from", dest="first", required=True)
    ap.add_argument("--to", dest="last", required=True)
    ap.add_argument("--currency", default="USD")
    ap.add_argument("--basis", default="corrected")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.basis not in ("corrected", "known"):
        print(f"reports_peer: unknown basis {a.basis}", file=sys.stderr)
        return 2
    as_of = pd.Timestamp(a.as_of)
    as_of = as_of.tz_localize("UTC") if as_of.tzinfo is None else as_of.tz_convert("UTC")
    last = min(a.last, as_of.strftime("%Y-%m"))
    rep_months = months_between(a.first, last)
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    data = load(a.dsn, as_of, a.basis, a.currency)
    t1 = time.time()
    tx = data["tx"]
    s_all = state_rows(tx)
    s = s_all[~s_all["subscription_id"].isin(data["test_subs"])]
    # Each intermediate is dropped once its last report is written (the order of the reports changes no output).
    report_leakage(data, s_all, as_of, a.out)
    del s_all
    months, snaps = snapshots(s, as_of, a.first, last)
    c = contributions(s, data["subs"], months, snaps)
    del s
    mv = movements(c, months)
    report_mrr(c, rep_months, a.out)
    bridge = report_bridge(c, mv, months, rep_months, data, a.currency, a.out)
    active = report_subscribers(subscriber_states(data, months, snaps), months, rep_months, a.out)
    report_kpis(bridge, active, data, c, months, rep_months, as_of, a.currency, a.out)
    report_trial_conversion(data, as_of, rep_months, a.out)
    report_plan_change_mix(data, rep_months, a.out)
    report_cohorts(data, c, rep_months, last, a.out)
    del c
    report_movements(mv, months, rep_months, data, a.currency, a.out)
    del mv
    report_refunds(data, rep_months, a.out)
    report_grace(data, rep_months, a.out)
    report_price_change(data, as_of, rep_months, a.out)
    print(f"reports_peer: load {t1 - t0:.1f} s, compute {time.time() - t1:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
