#!/usr/bin/env python3
"""Independent check of a build-reports output folder: reads reports.xlsx with openpyxl (not our code) and compares
every report sheet cell by cell with its CSV, and the CSV's SHA-256 with the one the cover sheet lists.

usage: check_xlsx.py OUT_DIR      (OUT_DIR holds reports.xlsx and the <report>.csv files)
Prints one line per sheet and a final `check_xlsx ok=… sheets=… cells=… charts=…`; exits 1 on any difference.
"""
import csv
import hashlib
import math
import os
import sys

import openpyxl


def number(text):
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def main(folder):
    book = openpyxl.load_workbook(os.path.join(folder, "reports.xlsx"))
    cover = book["Cover"]
    # The cover lists each report's sheet title, then "SHA-256 <name>.csv" with the hash of that CSV.
    titles = set(book.sheetnames)
    current, csv_of, hash_of = None, {}, {}
    for key, value in cover.iter_rows(min_col=1, max_col=2, values_only=True):
        key = (key or "").strip()
        if key in titles:
            current = key
        elif current and key.startswith("SHA-256 ") and key.endswith(".csv"):
            csv_of[current] = key[len("SHA-256 "):]
            hash_of[current] = value
    problems, cells, charts = [], 0, 0
    for title in book.sheetnames:
        if title not in csv_of:
            continue
        sheet, name = book[title], csv_of[title]
        path = os.path.join(folder, name)
        with open(path, "rb") as handle:
            raw = handle.read()
        if hashlib.sha256(raw).hexdigest() != hash_of[title]:
            problems.append(f"{name}: SHA-256 differs from the cover's")
        records = list(csv.reader(raw.decode("utf-8").splitlines()))
        rows = list(sheet.iter_rows(values_only=True))
        if len(rows) != len(records):
            problems.append(f"{title}: {len(rows)} rows in the sheet, {len(records)} records in {name}")
        for r, (record, row) in enumerate(zip(records, rows), start=1):
            row = list(row) + [None] * max(0, len(record) - len(row))
            for c, field in enumerate(record):
                cell = row[c]
                cells += 1
                if field == "":
                    ok = cell is None
                elif isinstance(cell, (int, float)) and not isinstance(cell, bool):
                    expected = number(field)
                    ok = expected is not None and (expected == cell or abs(expected - cell) <= 1e-12 * max(1.0, abs(expected)))
                else:
                    ok = cell == field
                if not ok:
                    problems.append(f"{title}!R{r}C{c + 1}: sheet {cell!r}, CSV {field!r}")
        print(f"{title}: {len(records) - 1} rows x {len(records[0]) if records else 0} columns equal to {name}; "
              f"frozen at {sheet.freeze_panes}, filter {sheet.auto_filter.ref}")
    # Every chart is on the Charts sheet (after the cover), none on a report sheet.
    charts = sum(len(getattr(book[title], "_charts", [])) for title in book.sheetnames)
    problems += check_reconciliation(folder, csv_of)
    for problem in problems[:40]:
        print("DIFF", problem)
    print(f"check_xlsx ok={'yes' if not problems and csv_of else 'no'} sheets={len(csv_of)} cells={cells} charts={charts} "
          f"openpyxl={openpyxl.__version__}")
    return 0 if not problems and csv_of else 1


def check_reconciliation(folder, csv_of):
    """The Reconciliation sheet's arithmetic, from its CSV: per provider, period and currency the category rows'
    variances sum to the total row's, and every row's variance is its report gross less its database gross."""
    name = csv_of.get("Reconciliation")
    if name is None:
        return ["Reconciliation: no sheet (build-reports writes one, empty or not)"]
    with open(os.path.join(folder, name), newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    problems, sums, totals = [], {}, {}
    for row in rows:
        if row["row_kind"] == "":
            continue
        key = (row["provider"], row["period"], row["currency"])
        variance = int(row["variance_micros"])
        if int(row["report_gross_micros"]) - int(row["database_gross_micros"]) != variance:
            problems.append(f"Reconciliation {key} {row['row_kind']} {row['category']}: gross difference is not the variance")
        if row["row_kind"] == "category":
            sums[key] = sums.get(key, 0) + variance
        elif row["row_kind"] == "total":
            totals[key] = variance
    for key in set(sums) | set(totals):
        if sums.get(key, 0) != totals.get(key):
            problems.append(f"Reconciliation {key}: categories sum to {sums.get(key, 0)}, total variance {totals.get(key)}")
    empty = len(rows) == 1 and rows[0]["note"] != ""
    print(f"Reconciliation: {len(totals)} provider x period x currency totals, categories tie: {'yes' if not problems else 'no'}"
          + (f" (empty: {rows[0]['note']})" if empty else ""))
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
