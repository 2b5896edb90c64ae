#!/usr/bin/env python3
"""Inputs of the Apple reconcile benchmark: one Apple fiscal period's charges as billing_transaction rows for COPY,
and the matching Financial Reports (the consolidated ZZ file of the period and of the period before it) in Apple's
real layout (docs/STORE_REPORTS.md: tab-separated, 22 columns, the Total_ footer), with a small seeded set of
differences in every Apple category.
    generate.py CHARGES OUT_DIR SUBSCRIPTION_UUID [SEED] [PER_CATEGORY]
The period is fiscal 2026-02 (FY2026 P02, 11/02/2025–11/29/2025 Pacific, `--period 2025-11`); its files are
OUT_DIR/reports/85000000_1125_ZZ.txt and the previous period's 85000000_1025_ZZ.txt (which holds only the units the
`timing` differences moved there). Writes OUT_DIR/billing.csv (columns in OUT_DIR/billing.columns) and
OUT_DIR/expected.json (units per category that the generator injected; `matched` is every other report unit).
Rows as the projection stores them: APPLE:{original}:{transaction} keys, alpha-3 storefronts, a refund naming
neither product nor storefront (they are its charge's), test purchases, offer-code redemptions of no money
(offer_type 3, a `CR` promo-code row of price 0 in the report) and free trials of 0 (left out on both sides).
"""
import calendar
import json
import os
import random
import sys

PST, PDT = 8 * 3600, 7 * 3600
# Period bounds in UTC: 11/02/2025 00:00 PDT (the clocks go back at 02:00 that day) to 11/30/2025 00:00 PST.
START = calendar.timegm((2025, 11, 2, 0, 0, 0)) + PDT
END = calendar.timegm((2025, 11, 30, 0, 0, 0)) + PST
PREVIOUS_START = calendar.timegm((2025, 9, 28, 0, 0, 0)) + PDT
COLUMNS = ["Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
           "Extended Partner Share", "Partner Share Currency", "Sale or Return", "Apple Identifier",
           "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
           "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
           "Customer Price", "Customer Currency"]
BILLING_COLUMNS = ("subscription_id,provider,event_type,transaction_key,effective_at,amount_micros,currency_code,"
                   "country_code,is_test,raw_payload,product_id,refunded_transaction_key,refund_kind,offer_type,recorded_at")
# alpha-3, alpha-2, currency, price of the base product in micros, decimals, weight
MARKETS = [
    ("USA", "US", "USD", 9_990_000, 2, 40), ("CAN", "CA", "CAD", 12_990_000, 2, 5), ("MEX", "MX", "MXN", 179_000_000, 2, 3),
    ("BRA", "BR", "BRL", 54_900_000, 2, 4), ("GBR", "GB", "GBP", 8_990_000, 2, 8), ("DEU", "DE", "EUR", 9_990_000, 2, 8),
    ("FRA", "FR", "EUR", 9_990_000, 2, 6), ("ITA", "IT", "EUR", 9_990_000, 2, 3), ("ESP", "ES", "EUR", 9_990_000, 2, 3),
    ("NLD", "NL", "EUR", 9_990_000, 2, 2), ("CHE", "CH", "CHF", 10_000_000, 2, 2), ("SWE", "SE", "SEK", 109_000_000, 2, 1),
    ("NOR", "NO", "NOK", 109_000_000, 2, 1), ("DNK", "DK", "DKK", 75_000_000, 2, 1), ("POL", "PL", "PLN", 44_990_000, 2, 1),
    ("TUR", "TR", "TRY", 349_990_000, 2, 1), ("JPN", "JP", "JPY", 1_500_000_000, 0, 6), ("KOR", "KR", "KRW", 14_000_000_000, 0, 2),
    ("AUS", "AU", "AUD", 14_990_000, 2, 3), ("NZL", "NZ", "NZD", 16_990_000, 2, 1), ("IND", "IN", "INR", 799_000_000, 2, 2),
    ("IDN", "ID", "IDR", 149_000_000_000, 0, 1), ("SGP", "SG", "SGD", 13_980_000, 2, 1), ("ZAF", "ZA", "ZAR", 179_990_000, 2, 1),
    ("SAU", "SA", "SAR", 37_990_000, 2, 1), ("ARE", "AE", "AED", 36_990_000, 2, 1),
]
# product, title, price multiple (in hundredths), weight
PRODUCTS = [("pro.monthly", "Pro Monthly", 100, 50), ("pro.yearly", "Pro Yearly", 800, 15),
            ("plus.monthly", "Plus Monthly", 50, 15), ("plus.yearly", "Plus Yearly", 400, 5),
            ("team.monthly", "Team Monthly", 300, 10), ("team.yearly", "Team Yearly", 2400, 5)]
CATEGORIES = ["amount_mismatch", "currency_mismatch", "missing_in_database", "missing_in_store_report",
              "refund_not_reflected", "timing"]


def price_of(market, product):
    places = market[4]
    unit = 10 ** (6 - places)
    return market[3] * product[2] // 100 // unit * unit


def decimal(micros, places):
    sign = "-" if micros < 0 else ""
    micros = abs(micros)
    if places == 0:
        return f"{sign}{micros // 1_000_000}"
    cents = micros // 10_000
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def timestamp(epoch):
    import datetime as dt
    return dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S+00")


def write_report(path, dates, cells):
    """One Financial Report: a row per cell (product, market, price, S/R, promo code) with its units."""
    lines = ["\t".join(COLUMNS)]
    total_amount = 0
    total_units = 0
    for (product, market, price, side, promo), units in sorted(cells.items(), key=lambda kv: (kv[0][0][0], kv[0][1][1], kv[0][2], kv[0][3], kv[0][4])):
        if units == 0:
            continue
        places = market[4]
        unit = 10 ** (6 - places)
        share = abs(price) * 7 // 10 // unit * unit
        quantity = units if side == "S" else -units
        extended = share * quantity
        total_amount += extended
        total_units += max(quantity, 0)
        lines.append("\t".join([dates[0], dates[1], "", "", product[0], str(quantity), decimal(share, places),
                                decimal(extended, places), market[2], side, "900000001", "Example Dev GmbH", product[1], "",
                                "", "IAY", "", market[1], "", promo or " ", decimal(price, places), market[2]]))
    rows = len(lines) - 1
    lines += [f"Total_Rows\t{rows}", f"Total_Amount\t{decimal(total_amount, 2)}", f"Total_Units\t{total_units}"]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return rows


def main():
    charges, out, subscription = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 29
    per_category = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    rng = random.Random(seed * 1_000_003 + charges)
    os.makedirs(os.path.join(out, "reports"), exist_ok=True)
    with open(os.path.join(out, "billing.columns"), "w") as f:
        f.write(BILLING_COLUMNS)
    billing = open(os.path.join(out, "billing.csv"), "w", encoding="utf-8")
    current, previous = {}, {}
    expected = {c: 0 for c in CATEGORIES + ["matched", "test_purchase_excluded"]}

    def row(event, key, at, amount, currency, country, test, product, refunded, offer):
        billing.write(f"{subscription},APPLE,{event},{key},{timestamp(at)},{amount},{currency},{country or ''},"
                      f"{'t' if test else 'f'},{{}},{product or ''},{refunded or ''},{'REFUND' if refunded else ''},"
                      f"{'' if offer is None else offer},{timestamp(at + 60)}\n")

    def count(cells, product, market, price, side, promo=""):
        cells[(product, market, price, side, promo)] = cells.get((product, market, price, side, promo), 0) + 1

    # Each injected difference has a (product, market) pair of its own, so none can pair with another.
    pairs = [(p, m) for p in PRODUCTS for m in MARKETS]
    rng.shuffle(pairs)
    injected = {}
    for n, category in enumerate(c for c in CATEGORIES for _ in range(per_category)):
        injected[pairs[n]] = category
    keys = 0
    # The charges: renewals spread over the period; 2% refunded within the period, 0.1% test purchases, 0.2%
    # offer-code redemptions of no money, 0.3% free trials of 0.
    market_weights = [m[5] for m in MARKETS]
    product_weights = [p[3] for p in PRODUCTS]
    for index in range(charges):
        market = rng.choices(MARKETS, market_weights)[0]
        product = rng.choices(PRODUCTS, product_weights)[0]
        price = price_of(market, product)
        at = START + rng.randrange(END - START - 7200)
        key = f"APPLE:{2000000000000000 + index // 12}:{3000000000000000 + index}"
        draw = rng.random()
        if draw < 0.001:
            row("RENEWED", key, at, price, market[2], market[0], True, product[0], None, None)
            expected["test_purchase_excluded"] += 1
            continue
        if draw < 0.003:
            row("PURCHASED", key, at, 0, market[2], market[0], False, product[0], None, 3)
            count(current, product, market, 0, "S", "CR")
            expected["matched"] += 1
            continue
        if draw < 0.006:
            row("PURCHASED", key, at, 0, market[2], market[0], False, product[0], None, 1)
            continue
        row("RENEWED", key, at, price, market[2], market[0], False, product[0], None, None)
        count(current, product, market, price, "S")
        expected["matched"] += 1
        if draw > 0.98:
            row("REFUNDED", key + ":r", at + 3600, -price, market[2], None, False, None, key, None)
            count(current, product, market, -price, "R")
            expected["matched"] += 1
    # The differences, a few units each in their own (product, market) pairs.
    for (product, market), category in injected.items():
        price = price_of(market, product)
        units = rng.randrange(1, 4)
        for _ in range(units):
            key = f"APPLE:{1000000000000000 + keys}:{1100000000000000 + keys}"
            keys += 1
            at = START + 86_400 + rng.randrange(END - START - 2 * 86_400)
            if category == "missing_in_database":
                count(current, product, market, price, "S")
            elif category == "missing_in_store_report":
                row("RENEWED", key, at, price, market[2], market[0], False, product[0], None, None)
            elif category == "refund_not_reflected":
                count(current, product, market, -price, "R")
            elif category == "amount_mismatch":
                # Charged a cent more than the report's price, in the same currency.
                row("RENEWED", key, at, price + 10 ** (6 - market[4]), market[2], market[0], False, product[0], None, None)
                count(current, product, market, price, "S")
            elif category == "currency_mismatch":
                other = "EUR" if market[2] != "EUR" else "USD"
                row("RENEWED", key, at, price, other, market[0], False, product[0], None, None)
                count(current, product, market, price, "S")
            elif category == "timing":
                # Charged an hour after the period began; the report lists it in the period before.
                row("RENEWED", key, START + 3600, price, market[2], market[0], False, product[0], None, None)
                count(previous, product, market, price, "S")
        expected[category] += units
    billing.close()
    rows = write_report(os.path.join(out, "reports", "85000000_1125_ZZ.txt"), ("11/02/2025", "11/29/2025"), current)
    write_report(os.path.join(out, "reports", "85000000_1025_ZZ.txt"), ("09/28/2025", "11/01/2025"), previous)
    expected["report_rows"] = rows
    expected["charges"] = charges
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
