#!/usr/bin/env python3
"""Peer of `reconcile --provider google --file`: the same categorisation of one Google month in DuckDB SQL.

    google_reconcile_duckdb.py EARNINGS_ZIP YYYY-MM OUT_CSV

DuckDB reads the zip's CSV (decompressed by `unzip -p` into a pipe) and the database side from a second pipe fed
by `psql \\copy (…) TO STDOUT` (the statement the job streams), both at once (two threads); the units, the categories (as
the job decides them; the neighbouring months' reports are not read) and the sorted output are one SQL statement.
Amounts become micros through DECIMAL(18,6), exactly.
"""
import os
import subprocess
import sys
import tempfile
import threading

import duckdb

from google_reconcile_common import CLASSIFY, WINDOW, bounds, database_sql


def main():
    path, label, out = sys.argv[1], sys.argv[2], sys.argv[3]
    previous, start, end, following = bounds(label)
    folder = tempfile.mkdtemp()
    earnings_pipe, database_pipe = os.path.join(folder, "earnings.csv"), os.path.join(folder, "database.csv")
    os.mkfifo(earnings_pipe)
    os.mkfifo(database_pipe)
    with open(os.devnull, "w") as null:
        unzip = subprocess.Popen(f"unzip -p '{path}' > '{earnings_pipe}'", shell=True, stderr=null)
        psql = subprocess.Popen(["psql", "-X", "-q", "-o", database_pipe, "-c",
                                 f"\\copy ({database_sql(previous, following)}) TO STDOUT WITH (FORMAT csv, HEADER)"])
    con = duckdb.connect()
    con.execute("SET threads TO 2")
    classify = ",".join(f"('{t}', {str(r).lower()}, '{s}', '{p}', {c})" for (t, r), (s, p, c) in CLASSIFY.items())
    con.execute(f"CREATE TABLE classify (type VARCHAR, refund BOOLEAN, side VARCHAR, part VARCHAR, n BIGINT); "
                f"INSERT INTO classify VALUES {classify}")
    loads = [f"""CREATE TABLE report AS SELECT "Description" AS order_id, "Transaction Type" AS type,
        coalesce("Refund Type", '') <> '' AS refund, "Buyer Currency" AS currency,
        CAST(CAST("Amount (Buyer Currency)" AS DECIMAL(18, 6)) * 1000000 AS BIGINT) AS micros
        FROM read_csv('{earnings_pipe}', header = true, all_varchar = true, quote = '"')""",
             f"""CREATE TABLE db AS SELECT * FROM read_csv('{database_pipe}', header = true,
        columns = {{'transaction_key': 'VARCHAR', 'order_id': 'VARCHAR', 'amount_micros': 'BIGINT', 'currency_code': 'VARCHAR',
                    'country': 'VARCHAR', 'product': 'VARCHAR', 'is_test': 'VARCHAR', 'at': 'BIGINT'}})"""]
    # Both inputs at once: one cursor per pipe, each on its own thread (DuckDB releases the GIL).
    failures = []

    def load(cursor, sql):
        try:
            cursor.execute(sql)
        except duckdb.Error as error:
            failures.append(error)

    threads = [threading.Thread(target=load, args=(con.cursor(), sql)) for sql in loads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # An input that failed is an error, not an empty side: without the database rows every order would come out
    # "missing in the database" and the peer would still finish.
    for name, process in (("unzip -p " + path, unzip), ("psql \\copy of the database side", psql)):
        if process.wait() != 0:
            sys.exit(f"google_reconcile_duckdb.py: {name} failed (exit {process.returncode})")
    if failures:
        sys.exit(f"google_reconcile_duckdb.py: loading the inputs failed: {failures[0]}")
    con.execute(f"""COPY (
        WITH r AS (
            SELECT order_id, coalesce(c.side, 'charge') AS side, coalesce(c.part, 'fee') AS part, coalesce(c.n, 0) AS n,
                   currency, micros
            FROM report LEFT JOIN classify c USING (type, refund)),
        ru AS (
            SELECT order_id, side, sum(CASE WHEN part = 'gross' THEN micros ELSE 0 END) AS report_gross,
                   sum(CASE WHEN part = 'fee' THEN micros ELSE 0 END) AS fee,
                   sum(CASE WHEN part = 'tax' THEN micros ELSE 0 END) AS tax, sum(n) AS report_count,
                   any_value(currency) FILTER (WHERE part = 'gross') AS report_currency
            FROM r GROUP BY order_id, side),
        d AS (
            SELECT order_id, CASE WHEN amount_micros > 0 THEN 'charge' ELSE 'refund' END AS side,
                   CASE WHEN "at" < {start} THEN -1 WHEN "at" < {end} THEN 0 ELSE 1 END AS period,
                   amount_micros, currency_code, transaction_key, "at", is_test = 't' AS test FROM db),
        du AS (
            SELECT period, order_id, side, sum(amount_micros) AS database_gross, count(*) AS database_count,
                   arg_min(currency_code, transaction_key) AS database_currency, min("at") AS "at", bool_and(test) AS test
            FROM d GROUP BY period, order_id, side),
        near AS (
            SELECT DISTINCT order_id, side FROM du
            WHERE (period = -1 AND abs("at" - {start}) <= {WINDOW}) OR (period = 1 AND abs("at" - {end}) <= {WINDOW})),
        items AS (
            SELECT coalesce(ru.order_id, cu.order_id) AS order_id, coalesce(ru.side, cu.side) AS side,
                   ru.order_id IS NOT NULL AS in_report, cu.order_id IS NOT NULL AS in_database,
                   coalesce(ru.report_gross, 0) AS report_gross, coalesce(cu.database_gross, 0) AS database_gross,
                   coalesce(ru.fee, 0) AS fee, coalesce(ru.tax, 0) AS tax, ru.report_count, cu.database_count,
                   ru.report_currency, cu.database_currency, cu.test
            FROM ru FULL OUTER JOIN (SELECT * FROM du WHERE period = 0) cu USING (order_id, side))
        SELECT i.order_id AS "order", i.side,
               CASE WHEN in_report AND in_database THEN
                        CASE WHEN report_currency IS DISTINCT FROM database_currency THEN 'currency_mismatch'
                             WHEN i.side = 'charge' AND report_count > database_count THEN 'duplicate'
                             WHEN report_gross = database_gross THEN 'matched' ELSE 'amount_mismatch' END
                    WHEN in_report THEN
                        CASE WHEN report_count = 0 AND report_gross = 0 AND fee = 0 AND tax = 0 THEN 'matched'
                             WHEN near.order_id IS NOT NULL THEN 'timing'
                             WHEN i.side = 'refund' THEN 'refund_not_reflected' ELSE 'missing_in_database' END
                    WHEN test THEN 'test_purchase_excluded' ELSE 'missing_in_store_report' END AS category,
               report_gross AS report_gross_micros, database_gross AS database_gross_micros, fee AS store_fee_micros,
               tax AS tax_micros
        FROM items i LEFT JOIN near ON near.order_id = i.order_id AND near.side = i.side
        ORDER BY i.order_id, i.side) TO '{out}' (HEADER, DELIMITER ',')""")
    items = con.execute(f"SELECT count(*) FROM read_csv('{out}', header = true)").fetchone()[0]
    print(f"duckdb items={items} version={duckdb.__version__}")


if __name__ == "__main__":
    main()
