"""What the reconcile benchmark's peers share: the period bounds, the database statement (the one `reconcile`
streams), the earnings classification table and the summary every side's output is compared by."""
import calendar
import csv
import datetime as dt
import subprocess
import sys
import zoneinfo

PACIFIC = zoneinfo.ZoneInfo("America/Los_Angeles")
WINDOW = 48 * 3600
MONEY_EVENTS = ["PURCHASED", "RENEWED", "RECOVERED", "RESTARTED", "PRODUCT_CHANGED", "REFUNDED"]
# Transaction Type, refund type present -> side, part, count (GoogleEarningsFold.classify)
CLASSIFY = {
    ("Charge", False): ("charge", "gross", 1), ("Charge rebill", False): ("charge", "gross", 1),
    ("Charge", True): ("charge", "gross", 1), ("Charge rebill", True): ("charge", "gross", 1),
    ("Google fee", False): ("charge", "fee", 0), ("Google fee rebill", False): ("charge", "fee", 0),
    ("Google fee", True): ("charge", "fee", 0), ("Google fee rebill", True): ("charge", "fee", 0),
    ("Tax", False): ("charge", "tax", 0), ("Tax rebill", False): ("charge", "tax", 0),
    ("Tax", True): ("charge", "tax", 0), ("Tax rebill", True): ("charge", "tax", 0),
    ("Charge refund", True): ("refund", "gross", 1), ("Charge refund", False): ("charge", "gross", -1),
    ("Google fee refund", True): ("refund", "fee", 0), ("Google fee refund", False): ("charge", "fee", 0),
    ("Tax refund", True): ("refund", "tax", 0), ("Tax refund", False): ("charge", "tax", 0),
}


def month_start(year, month):
    return int(dt.datetime(year, month, 1, tzinfo=PACIFIC).timestamp())


def bounds(label):
    """(previous start, start, end, next end) of Google month `label` (US Pacific), UTC epoch seconds."""
    year, month = int(label[:4]), int(label[5:7])
    shift = lambda y, m, d: (y + (m - 1 + d) // 12, (m - 1 + d) % 12 + 1)
    return (month_start(*shift(year, month, -1)), month_start(year, month), month_start(*shift(year, month, 1)),
            month_start(*shift(year, month, 2)))


def database_sql(first, last):
    events = ",".join(MONEY_EVENTS)
    return (f"SELECT b.transaction_key, b.order_id, b.amount_micros, b.currency_code, "
            f"coalesce(b.country_code, (SELECT c.country_code FROM billing_transaction c "
            f"WHERE c.transaction_key = b.refunded_transaction_key), '') AS country, "
            f"coalesce(b.product_id, (SELECT c.product_id FROM billing_transaction c "
            f"WHERE c.transaction_key = b.refunded_transaction_key), '') AS product, "
            f"b.is_test, extract(epoch FROM b.effective_at)::int8 AS at "
            f"FROM billing_transaction b "
            f"WHERE b.provider = 'GOOGLE' AND b.order_id IS NOT NULL AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0 "
            f"AND b.event_type = ANY('{{{events}}}'::billing_event_type[]) "
            f"AND b.effective_at >= to_timestamp({first}) AND b.effective_at < to_timestamp({last}) AND b.recorded_at <= now()")


def psql_copy(sql):
    """A psql process streaming `sql` as CSV with a header on its stdout."""
    return subprocess.Popen(["psql", "-X", "-q", "-c", f"\\copy ({sql}) TO STDOUT WITH (FORMAT csv, HEADER)"],
                            stdout=subprocess.PIPE)


def summary(path, category="category", report="report_gross_micros", database="database_gross_micros",
            fee="store_fee_micros", tax="tax_micros"):
    """Items per category with their report gross, database gross, fee and tax sums."""
    result = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            line = result.setdefault(row[category], [0, 0, 0, 0, 0])
            line[0] += 1
            for n, column in enumerate((report, database, fee, tax), start=1):
                line[n] += int(row[column] or 0)
    return result


if __name__ == "__main__":
    # summary.py FILE…: prints each file's summary; exit 1 when they differ.
    sums = [summary(p) for p in sys.argv[1:]]
    for p, s in zip(sys.argv[1:], sums):
        print(p, " ".join(f"{k}={v[0]}" for k, v in sorted(s.items())))
    sys.exit(0 if all(s == sums[0] for s in sums) else 1)
