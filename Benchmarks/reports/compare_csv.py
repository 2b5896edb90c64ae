#!/usr/bin/env python3
"""Cell-by-cell comparison of two folders of report CSVs (build-reports vs the pandas peer).

Rows are matched by each report's key columns; where a key is not unique on either side (masked identifiers in a key:
first four … last four characters can repeat), the report is compared as multisets of whole rows instead. Numbers are compared as exact decimals (so 0.5 equals 0.500000) and
instants as instants. Prints the first N disagreements per report and a summary line per report; exit 1 on any.
usage: compare_csv.py SQL_DIR PEER_DIR [N] [REPORT,…]   (the last: compare only those reports; default all)
"""
import csv
import sys
from collections import Counter
from datetime import datetime
from decimal import Decimal, InvalidOperation

KEYS = {
    "mrr": ["month", "provider", "product_id", "plan_code", "billing_period", "currency", "country"],
    "mrr_bridge": ["month", "provider", "view", "currency"],
    "mrr_movements": ["month", "provider", "billing_account_id", "currency"],
    "refunds": ["view", "month", "provider", "currency", "refund_kind", "store_reason"],
    "grace_hold_recovery": ["failure_month", "provider", "plan", "country", "currency"],
    "price_change_churn": ["provider", "product_id", "region", "currency", "old_price_micros", "new_price_micros", "mode"],
    "entitlement_leakage": ["subscription_id", "plan_code", "entitled_from"],
    "subscribers": ["month", "provider", "product_id"],
    "kpis": ["month", "provider"],
    "trial_conversion": ["view", "month", "provider", "product_id", "country"],
    "plan_change_mix": ["month", "provider", "change_type", "from_product_id", "to_product_id", "from_billing_period",
                        "to_billing_period", "currency"],
    "cohorts": ["cohort_month", "provider", "currency", "months_since_start"],
}


def norm(v):
    if v == "":
        return ""
    try:
        return ("n", Decimal(v).normalize())
    except InvalidOperation:
        pass
    if len(v) >= 20 and v[4] == "-" and "T" in v and v.endswith("Z"):
        try:
            return ("t", datetime.fromisoformat(v.replace("Z", "+00:00")))
        except ValueError:
            pass
    return ("s", v)


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        r = list(csv.reader(f))
    return r[0], r[1:]


def main():
    a, b = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    only = set(sys.argv[4].split(",")) if len(sys.argv) > 4 else set(KEYS)
    bad = 0
    for name, key in KEYS.items():
        if name not in only:
            continue
        try:
            ha, ra = read(f"{a}/{name}.csv")
            hb, rb = read(f"{b}/{name}.csv")
        except FileNotFoundError as e:
            print(f"{name}: missing {e.filename}")
            bad += 1
            continue
        if ha != hb:
            print(f"{name}: header differs\n  sql : {ha}\n  peer: {hb}")
            bad += 1
            continue
        ki = [ha.index(k) for k in key]
        da = {tuple(r[i] for i in ki): r for r in ra}
        db = {tuple(r[i] for i in ki): r for r in rb}
        shown = 0
        diffs = 0
        if len(da) != len(ra) or len(db) != len(rb):  # a key repeats (masked identifiers): whole rows as multisets
            ca = Counter(tuple(norm(v) for v in r) for r in ra)
            cb = Counter(tuple(norm(v) for v in r) for r in rb)
            for side, extra in (("sql ", ca - cb), ("peer", cb - ca)):
                for row, n in sorted(extra.items(), key=str):
                    diffs += n
                    if shown < limit:
                        print(f"{name}: only in {side} ×{n}: {row}")
                        shown += 1
            print(f"== {name}: {len(ra)} rows × {len(ha)} columns = {len(ra) * len(ha)} cells (peer {len(rb)} rows); "
                  f"disagreements {diffs} (keys repeat: compared as multisets of rows)")
            bad += diffs
            continue
        for k in sorted(set(da) | set(db)):
            if k not in db:
                diffs += 1
                if shown < limit:
                    print(f"{name}: only in sql  {k}: {da[k]}")
                    shown += 1
                continue
            if k not in da:
                diffs += 1
                if shown < limit:
                    print(f"{name}: only in peer {k}: {db[k]}")
                    shown += 1
                continue
            for col, x, y in zip(ha, da[k], db[k]):
                if norm(x) != norm(y):
                    diffs += 1
                    if shown < limit:
                        print(f"{name}: {k} {col}: sql={x!r} peer={y!r}")
                        shown += 1
        cells = len(ra) * len(ha)
        print(f"== {name}: {len(ra)} rows × {len(ha)} columns = {cells} cells (peer {len(rb)} rows); "
              f"disagreements {diffs}")
        bad += diffs
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
