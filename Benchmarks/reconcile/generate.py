#!/usr/bin/env python3
"""Inputs of the reconcile benchmark for one Google month: a real-shaped earnings zip and the matching
billing_transaction rows as a CSV for COPY, with a small seeded set of differences in every category.

    generate.py ORDERS MONTH OUT_DIR SUBSCRIPTION_UUID [SEED] [PER_CATEGORY]

Writes OUT_DIR/earnings_<YYYYMM>_1234567890123-0.zip (one CSV, PlayApps_<YYYYMM>.csv), OUT_DIR/billing.csv
(columns in OUT_DIR/billing.columns) and OUT_DIR/expected.json (items per category, what the generator injected).

Row shapes follow the earnings format the parser reads (docs/STORE_REPORTS.md): Charge / Google fee / Tax rows
per order (two Tax rows for India and Japan), `Full` refunds (Charge refund / Google fee refund / Tax refund),
one rebill set per 40 charges (the rows reversed with an empty Refund Type, then Charge rebill / Google fee rebill /
Tax rebill), Pacific `Mon D, YYYY` dates and `h:mm:ss AM PDT` times, buyer fields with some non-ASCII text, and a
few quoted product titles holding a comma. Months are chosen in daylight time (April to October).
"""
import calendar
import datetime as dt
import io
import json
import os
import random
import sys
import zipfile

COLUMNS = ["Description", "Transaction Date", "Transaction Time", "Tax Type", "Transaction Type", "Refund Type",
           "Product Title", "Product id", "Product Type", "Sku Id", "Hardware", "Buyer Country", "Buyer State",
           "Buyer Postal Code", "Buyer Currency", "Amount (Buyer Currency)", "Currency Conversion Rate",
           "Merchant Currency", "Amount (Merchant Currency)", "Base Plan ID", "Offer ID", "Group ID",
           "First USD 1M Eligible", "Service Fee %", "Fee Description", "Promotion ID"]
BILLING_COLUMNS = ("subscription_id,provider,event_type,transaction_key,effective_at,order_id,amount_micros,currency_code,"
                   "country_code,is_test,raw_payload,product_id,refunded_transaction_key,refund_kind,recorded_at")
# country, currency, price micros, decimals, tax rate (percent of the gross), USD rate, state, postal code, weight
MARKETS = [
    ("US", "USD", 9_990_000, 2, 7, "1.000000", "CA", "94107", 50),
    ("DE", "EUR", 9_990_000, 2, 16, "1.081200", "Baden-Württemberg", "70173", 15),
    ("GB", "GBP", 8_990_000, 2, 17, "1.265400", "", "SW1A 1AA", 10),
    ("JP", "JPY", 1_500_000_000, 0, 9, "0.006712", "東京都", "100-0001", 8),
    ("IN", "INR", 799_000_000, 2, 15, "0.011980", "Maharashtra", "400001", 5),
    ("BR", "BRL", 49_900_000, 2, 0, "0.182300", "SP", "01310-100", 7),
    ("CA", "CAD", 12_990_000, 2, 13, "0.731500", "ON", "M5V 2T6", 5),
]
SPLIT_TAX = {"IN", "JP"}
HARDWARE = ["google Pixel 8", "samsung SM-S918B", "xiaomi 2201117TG", "OnePlus CPH2449"]
PACKAGE = "com.example.fitness"
PRODUCTS = [("pro_monthly", "monthly", "Pro Monthly"), ("pro_yearly", "yearly", "Pro Yearly")]
CATEGORIES = ["amount_mismatch", "currency_mismatch", "duplicate", "missing_in_database", "missing_in_store_report",
              "refund_not_reflected", "timing", "test_purchase_excluded"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
PDT = 7 * 3600


def decimal(micros, places):
    sign = "-" if micros < 0 else ""
    micros = abs(micros)
    if places == 0:
        return f"{sign}{micros // 1_000_000}"
    cents = micros // 10_000
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def cents(micros, places):
    unit = 10 ** (6 - places)
    return (micros // unit) * unit


def stamp(epoch):
    local = dt.datetime.fromtimestamp(epoch - PDT, dt.timezone.utc)
    hour = local.hour % 12 or 12
    return (f"{MONTHS[local.month - 1]} {local.day}, {local.year}",
            f"{hour}:{local.minute:02d}:{local.second:02d} {'AM' if local.hour < 12 else 'PM'} PDT")


def timestamp(epoch):
    return dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S+00")


def main():
    orders, month, out, subscription = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 14
    per_category = int(sys.argv[6]) if len(sys.argv) > 6 else 25
    year, mon = int(month[:4]), int(month[5:7])
    assert 4 <= mon <= 10, "choose a month in daylight time (April to October)"
    start = calendar.timegm((year, mon, 1, 0, 0, 0)) + PDT
    days = calendar.monthrange(year, mon)[1]
    rng = random.Random(seed * 1_000_003 + year * 100 + mon)
    os.makedirs(out, exist_ok=True)
    weights = [m[8] for m in MARKETS]
    picks = rng.sample(range(orders), per_category * len(CATEGORIES))
    injected = {index: CATEGORIES[n // per_category] for n, index in enumerate(picks)}
    expected = {c: 0 for c in CATEGORIES + ["matched"]}
    csv_rows = io.StringIO()
    billing = open(os.path.join(out, "billing.csv"), "w", encoding="utf-8")
    group_id = "4735264897120395716"
    report_rows = 0

    def line(cells):
        return ",".join('"' + c.replace('"', '""') + '"' if ("," in c or '"' in c) else c for c in cells) + "\n"

    def billing_row(event, key, epoch, order, amount, currency, country, test, product, refunded):
        billing.write(f"{subscription},GOOGLE,{event},{key},{timestamp(epoch)},{order},{amount},{currency},"
                      f"{country if country else ''},{'t' if test else 'f'},{{}},{product or ''},{refunded or ''},"
                      f"{'REFUND' if event == 'REFUNDED' else ''},"
                      f"{timestamp(epoch + 60)}\n")

    for index in range(orders):
        kind = injected.get(index)
        market = rng.choices(MARKETS, weights)[0]
        country, currency, price, places, tax_rate, usd_rate, state, postal, _ = market
        sku, base_plan, title = PRODUCTS[0] if rng.random() < 0.8 else PRODUCTS[1]
        if sku == "pro_yearly":
            price *= 8
        if country == "JP" and rng.random() < 0.5:
            title = "プロ 月額"
        elif rng.random() < 0.01:
            title = title + ", Family"
        epoch = start + rng.randrange(86_400, (days - 2) * 86_400)
        if kind == "timing":
            epoch = start + 1800
        renewal = rng.random() < 0.9
        order = (f"GPA.{3000 + index % 7000}-{rng.randrange(10_000):04d}-{(index // 100_000) % 10_000:04d}-"
                 f"{index % 100_000:05d}{'..' + str(rng.randrange(1, 24)) if renewal else ''}")
        token = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=24)) + f".AO-J1O{index:09d}.bench{month}"
        key = f"GOOGLE:{token}:{order}"
        tax = cents(price * tax_rate // (100 + tax_rate), places)
        fee = cents((price - tax) * 15 // 100, places)
        taxes = [("GST", cents(tax // 2, places)), ("GST", tax - cents(tax // 2, places))] if country in SPLIT_TAX and tax else (
            [("VAT", tax)] if tax else [])
        date, time = stamp(epoch)
        hardware = HARDWARE[index % len(HARDWARE)]

        def row(type_, amount, refund_type="", tax_type="", fee_percent="", fee_text="", at=(date, time)):
            merchant = cents(amount * int(usd_rate.replace(".", "")) // 1_000_000, 2)
            return line([order, at[0], at[1], tax_type, type_, refund_type, f"{title} (Fitness Tracker)", PACKAGE, "1", sku,
                         hardware, country, state, postal, currency, decimal(amount, places), usd_rate, "USD",
                         decimal(merchant, 2), base_plan, "", group_id, "Yes", fee_percent, fee_text, ""])

        def rowset(suffix, direction, refund_type, at=(date, time)):
            rows = [row("Charge" + suffix, direction * price, refund_type, at=at),
                    row("Google fee" + suffix, -direction * fee, refund_type, fee_percent="15", fee_text="SUBSCRIPTIONS", at=at)]
            rows += [row("Tax" + suffix, -direction * amount, refund_type, tax_type=t, at=at) for t, amount in taxes]
            return rows

        rows = []
        if kind != "missing_in_store_report" and kind != "test_purchase_excluded":
            rows += rowset("", 1, "")
            if kind == "duplicate":
                rows.append(row("Charge", price))
            elif index % 40 == 7:
                rows += rowset(" refund", -1, "") + rowset(" rebill", 1, "")
        refunded = kind == "refund_not_reflected" or (kind is None and index % 50 == 3)
        refund_at = epoch + 3600  # inside the month: the file lists the refund in it
        if refunded:
            rows += rowset(" refund", -1, "Full", at=stamp(refund_at))
        csv_rows.write("".join(rows))
        report_rows += len(rows)
        event = "RENEWED" if renewal else "PURCHASED"
        if kind == "timing":
            billing_row(event, key, start - 3600, order, price, currency, country, False, sku, None)
        elif kind == "test_purchase_excluded":
            billing_row(event, key, epoch, order, price, currency, country, True, sku, None)
        elif kind != "missing_in_database":
            amount = price + 10_000 if kind == "amount_mismatch" else price
            db_currency = ("CAD" if currency == "USD" else "USD") if kind == "currency_mismatch" else currency
            billing_row(event, key, epoch, order, amount, db_currency, country, False, sku, None)
        if refunded and kind != "refund_not_reflected":
            billing_row("REFUNDED", key + ":refund", refund_at, order, -price, currency, None, False, None, key)
        # One item per unit: the charge, and the refund when there is one.
        if kind == "refund_not_reflected":
            expected["matched"] += 1
            expected["refund_not_reflected"] += 1
        else:
            expected[kind or "matched"] += 2 if refunded else 1
    billing.close()
    name = f"earnings_{year}{mon:02d}_1234567890123-0"
    with zipfile.ZipFile(os.path.join(out, name + ".zip.tmp"), "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr(f"PlayApps_{year}{mon:02d}.csv", line(COLUMNS) + csv_rows.getvalue())
    os.replace(os.path.join(out, name + ".zip.tmp"), os.path.join(out, name + ".zip"))
    with open(os.path.join(out, "billing.columns"), "w") as f:
        f.write(BILLING_COLUMNS + "\n")
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"orders": orders, "report_rows": report_rows, "month": month, "zip": name + ".zip",
                   "items": expected}, f, indent=1, sort_keys=True)
    print(f"generated month={month} orders={orders} report_rows={report_rows} zip={name}.zip")


if __name__ == "__main__":
    main()
