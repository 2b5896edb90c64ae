#!/usr/bin/env python3
"""Peer of `reconcile --provider google --file`: the same categorisation of one Google month in pandas.

    google_reconcile_pandas.py EARNINGS_ZIP YYYY-MM OUT_CSV

Reads the zip's CSV with pandas and the database side through `psql \\copy (…) TO STDOUT` (the statement the job
streams), folds both into units per order and side, categorises each unit as the job does (timing against the
neighbouring months' database rows; the neighbouring months' reports are not read) and writes one line per unit,
sorted by order and side. Amounts become micros through float64 (exact at these magnitudes: ≤ 2 decimals).
"""
import sys
import zipfile

import numpy as np
import pandas as pd

from google_reconcile_common import CLASSIFY, WINDOW, bounds, database_sql, psql_copy


def main():
    path, label, out = sys.argv[1], sys.argv[2], sys.argv[3]
    previous, start, end, following = bounds(label)
    database = psql_copy(database_sql(previous, following))
    with zipfile.ZipFile(path) as archive:
        (member,) = archive.namelist()
        with archive.open(member) as f:
            report = pd.read_csv(f, usecols=["Description", "Transaction Type", "Refund Type", "Buyer Currency",
                                             "Amount (Buyer Currency)"], dtype={"Description": str, "Transaction Type": str,
                                             "Refund Type": str, "Buyer Currency": str, "Amount (Buyer Currency)": np.float64},
                                 keep_default_na=False, na_values={"Amount (Buyer Currency)": [""]})
    db = pd.read_csv(database.stdout, dtype={"transaction_key": str, "order_id": str, "currency_code": str, "country": str,
                                             "product": str, "is_test": str}, keep_default_na=False)
    if database.wait() != 0:
        sys.exit(f"google_reconcile_pandas.py: psql \\copy of the database side failed (exit {database.returncode})")
    # Report units.
    table = pd.DataFrame([(t, r, *v) for (t, r), v in CLASSIFY.items()], columns=["type", "refund", "side", "part", "count"])
    report["refund"] = report["Refund Type"] != ""
    report = report.merge(table, left_on=["Transaction Type", "refund"], right_on=["type", "refund"], how="left")
    unknown = report["side"].isna()
    report.loc[unknown, ["side", "part", "count"]] = ["charge", "fee", 0]
    report["micros"] = (report["Amount (Buyer Currency)"] * 1_000_000).round().astype(np.int64)
    for part in ("gross", "fee", "tax"):
        report[part] = np.where(report["part"] == part, report["micros"], 0)
    report["gross_currency"] = report["Buyer Currency"].where(report["part"] == "gross")
    units = report.groupby(["Description", "side"], sort=False).agg(
        report_gross=("gross", "sum"), fee=("fee", "sum"), tax=("tax", "sum"), report_count=("count", "sum"),
        report_currency=("gross_currency", "first")).reset_index().rename(columns={"Description": "order"})
    # Database units of the three months.
    db["period"] = np.select([db["at"] < start, db["at"] < end], [-1, 0], 1)
    db["side"] = np.where(db["amount_micros"] > 0, "charge", "refund")
    db["test"] = db["is_test"] == "t"
    db_units = db.groupby(["period", "order_id", "side"], sort=False).agg(
        database_gross=("amount_micros", "sum"), database_count=("amount_micros", "size"),
        database_currency=("currency_code", "first"), at=("at", "min"), test=("test", "all")).reset_index()
    db_units = db_units.rename(columns={"order_id": "order"})
    current = db_units[db_units["period"] == 0].drop(columns="period")
    items = units.merge(current, on=["order", "side"], how="outer", indicator=True)
    # Neighbouring months' database units near the shared edges explain a unit only in the report.
    near = pd.concat([db_units[(db_units["period"] == -1) & ((db_units["at"] - start).abs() <= WINDOW)],
                      db_units[(db_units["period"] == 1) & ((db_units["at"] - end).abs() <= WINDOW)]])
    items = items.merge(near[["order", "side"]].drop_duplicates().assign(neighbour=True), on=["order", "side"], how="left")
    both = items["_merge"] == "both"
    report_only = items["_merge"] == "left_only"
    zero = (items["report_count"] == 0) & (items["report_gross"] == 0) & (items["fee"] == 0) & (items["tax"] == 0)
    neighbour = items["neighbour"].eq(True)
    items["category"] = np.select(
        [both & (items["report_currency"] != items["database_currency"]),
         both & (items["side"] == "charge") & (items["report_count"] > items["database_count"]),
         both & (items["report_gross"] == items["database_gross"]), both,
         report_only & zero, report_only & neighbour, report_only & (items["side"] == "refund"), report_only,
         items["test"].eq(True)],
        ["currency_mismatch", "duplicate", "matched", "amount_mismatch", "matched", "timing", "refund_not_reflected",
         "missing_in_database", "test_purchase_excluded"], "missing_in_store_report")
    items = items.sort_values(["order", "side"])
    columns = {"report_gross": "report_gross_micros", "database_gross": "database_gross_micros", "fee": "store_fee_micros",
               "tax": "tax_micros"}
    out_frame = items[["order", "side", "category", *columns]].rename(columns=columns)
    for column in columns.values():
        out_frame[column] = out_frame[column].fillna(0).astype(np.int64)
    out_frame.to_csv(out, index=False)
    print(f"pandas items={len(out_frame)} report_rows={len(report)} database_rows={len(db)} version={pd.__version__}")


if __name__ == "__main__":
    main()
