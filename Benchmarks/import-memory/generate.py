#!/usr/bin/env python3
"""Inputs of the import-memory benchmark (issue 27, "Streaming with bounded memory").

    generate.py subscriber BYTES OUT_FILE      Apple Subscriber report (1_3 layout, tab-separated) of about BYTES
                                               bytes of text; OUT_FILE ending in .gz is gzip-compressed
    generate.py earnings-bomb BYTES SAMPLE_ZIP OUT_FILE
                                               a Google earnings zip whose one CSV expands to BYTES: SAMPLE_ZIP's
                                               header and first row, then newlines (blank lines) up to BYTES:
                                               deflate's best ratio, ~1030:1 (2 GiB in ~2 MB, the issue's bomb)
    generate.py subscriber-bomb BYTES OUT_FILE a Subscriber .txt.gz expanding to BYTES the same way
    generate.py financial BYTES OUT_FILE       Apple financial report (region US, fiscal November 2025: name the file
                                               85000000_1125_US.txt) of about BYTES bytes, its footer totals true
    generate.py estimated-sales BYTES OUT_FILE Google Play estimated sales report (salesreport_YYYYMM, the 2025 header)
                                               of about BYTES bytes of CSV; OUT_FILE ending in .zip holds it as its one
                                               member (as Google delivers it), else plain CSV
    generate.py estimated-bomb BYTES OUT_FILE  an estimated sales zip whose one CSV expands to BYTES the same way

The Subscriber layout is the test fixture's (Tests/StoreExportsTests/Fixtures/apple/Subscriber_85000000_20251103.txt):
the 26 columns of today's 1_3 file, blank cells as one space, one event day (the file name's). Rows vary in subscriber
id, price, currency, country and refund flag, so gzip sees text about as repetitive as a real file's.
The estimated sales layout is the test fixture's (Tests/StoreExportsTests/Fixtures/google/salesreport_202511.csv): one
order per row (every tenth refunded by a second row), order numbers, timestamps, prices, taxes, devices and buyers'
places varying, titles sometimes quoted (a comma inside), so a zip compresses it about as a real month's.
The Google earnings inputs of real shape come from Benchmarks/reconcile/generate.py.
"""
import gzip
import random
import sys
import zipfile

HEADER = ["Event Date", "App Name", "App Apple ID", "Subscription Name", "Subscription Apple ID", "Subscription Group ID",
          "Standard Subscription Duration", "Subscription Offer Name", "Promotional Offer ID", "Subscription Offer Type",
          "Subscription Offer Duration", "Marketing Opt-In Duration", "Customer Price", "Customer Currency",
          "Developer Proceeds", "Proceeds Currency", "Preserved Pricing", "Proceeds Reason", "Client", "Device", "Country",
          "Subscriber ID", "Subscriber ID Reset", "Refund", "Purchase Date", "Units"]
PRICES = [("9.99", "6.99", "USD", "US"), ("9.99", "7.56", "EUR", "DE"), ("1500", "1050", "JPY", "JP"),
          ("8.99", "6.29", "GBP", "GB"), ("12.99", "9.09", "CAD", "CA"), ("799.00", "559.30", "INR", "IN")]
DAY = "2025-11-03"


def subscriber_row(rng, n):
    price, proceeds, currency, country = PRICES[rng.randrange(len(PRICES))]
    refund = rng.random() < 0.02
    sign = "-" if refund else ""
    offer = ("Intro Week", "Free Trial", "7 Days") if rng.random() < 0.1 else (" ", " ", " ")
    return "\t".join([DAY, "Café Trails", "1450000001", "Pro Monthly", "1450000010", "20500001", "1 Month", offer[0], " ",
                      offer[1], offer[2], " ", sign + price, currency, sign + proceeds, currency, " ",
                      "Rate After One Year" if n % 7 == 0 else " ", " ", rng.choice(["iPhone", "iPad", "Mac"]), country,
                      str(1029384756 + n), " ", "Yes" if refund else " ", "2025-10-28" if refund else " ", "1"])


FINANCIAL_HEADER = ["Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
                    "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
                    "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
                    "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
                    "Customer Price", "Customer Currency"]


def financial(size, out):
    """Rows dated inside fiscal 2025-11 (11/02/2025-11/29/2025), every 50th a return; cents summed as integers."""
    rng = random.Random(27)
    rows, cents, units, written = 0, 0, 0, 0
    with open(out, "w", encoding="utf-8", newline="") as f:
        text = "\t".join(FINANCIAL_HEADER) + "\n"
        f.write(text)
        written += len(text.encode())
        while written < size:
            quantity = -1 if rows % 50 == 49 else rng.randint(1, 9)
            share = rng.choice([699, 559, 999, 1299])
            cents += quantity * share
            units += max(0, quantity)
            rows += 1
            text = "\t".join(["11/02/2025", "11/29/2025", "", "", "pro.monthly.%d" % (rows % 40), str(quantity),
                              "%d.%02d" % (share // 100, share % 100), "%s%d.%02d" % ("-" if quantity < 0 else "", abs(quantity * share) // 100, abs(quantity * share) % 100),
                              "USD", "R" if quantity < 0 else "S", str(900000001 + rows % 40), "Example Dev", "Pro Monthly",
                              "", "", "IAY", "", rng.choice(["US", "PR", "GU"]), "", " ", "9.99" if quantity > 0 else "-9.99",
                              "USD"]) + "\n"
            f.write(text)
            written += len(text.encode())
        sign = "-" if cents < 0 else ""
        f.write("Total_Rows\t%d\nTotal_Amount\t%s%d.%02d\nTotal_Units\t%d\n" % (rows, sign, abs(cents) // 100, abs(cents) % 100, units))


def subscriber(size, out):
    rng = random.Random(27)
    opener = gzip.open if out.endswith(".gz") else open
    written, n = 0, 0
    with opener(out, "wt", encoding="utf-8", newline="") as f:
        text = "\t".join(HEADER) + "\n"
        while written < size:
            f.write(text)
            written += len(text.encode())
            n += 1
            text = subscriber_row(rng, n) + "\n"
    print(f"{out}: {n - 1} rows, {written} bytes of text")


def repeat(f, head, size):
    f.write(head)
    block = b"\n" * (1 << 20)
    written = len(head)
    while written < size:
        f.write(block)
        written += len(block)
    return written


def earnings_bomb(size, sample, out):
    with zipfile.ZipFile(sample) as z:
        name = z.namelist()[0]
        lines = z.read(name).split(b"\n")
    head = lines[0] + b"\n" + lines[1] + b"\n"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open(name, "w", force_zip64=True) as f:
            written = repeat(f, head, size)
    print(f"{out}: one member {name} expanding to {written} bytes")


def subscriber_bomb(size, out):
    head = ("\t".join(HEADER) + "\n" + subscriber_row(random.Random(27), 1) + "\n").encode()
    with gzip.open(out, "wb", compresslevel=9) as f:
        written = repeat(f, head, size)
    print(f"{out}: expanding to {written} bytes")


SALES_HEADER = ["Order Number", "Order Charged Date", "Order Charged Timestamp", "Financial Status", "Device Model",
                "Product Title", "Package ID", "Product Type", "SKU ID", "Currency of Sale", "Item Price", "Taxes Collected",
                "Charged Amount", "City of Buyer", "State of Buyer", "Postal Code of Buyer", "Country of Buyer",
                "Base Plan or Purchase Option ID", "Offer ID", "Group ID", "First USD 1M Eligible", "Promotion ID",
                "Coupon Value", "Discount Rate", "Featured Product ID", "Price Experiment ID", "Sales Channel"]
SALES_PLACES = [("EUR", 999, 190, "Berlin", "", "10115", "DE"), ("USD", 999, 0, "Austin", "TX", "78701", "US"),
                ("JPY", 1500, 150, "新宿区", "東京都", "160-0022", "JP"), ("GBP", 899, 180, "Leeds", "", "LS1 4AP", "GB"),
                ("INR", 79900, 14382, "Pune", "MH", "411001", "IN"), ("BRL", 2990, 0, "São Paulo", "SP", "01310-100", "BR")]
SALES_PRODUCTS = [("Pro monthly (Café Trails)", "pro_monthly", "p1m"), ('"Pro, yearly (Café Trails)"', "pro_yearly", "p1y"),
                  ("Lifetime unlock (Café Trails)", "lifetime", "")]


def sales_amount(value, currency):
    return str(value) if currency == "JPY" else f"{value // 100}.{value % 100:02d}"


def sales_row(rng, n, refund):
    currency, price, tax, city, state, postal, country = SALES_PLACES[rng.randrange(len(SALES_PLACES))]
    title, sku, plan = SALES_PRODUCTS[n % len(SALES_PRODUCTS)]
    sign = -1 if refund else 1
    stamp = 1761955200 + (n * 1.1 if not refund else n * 1.1 + 86400 * 3).__int__() % (30 * 86400)
    day = 1 + (stamp - 1761955200) // 86400
    cells = [f"GPA.33{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}-{rng.randrange(1000, 9999)}-{n % 100000:05d}"
             + (f"..{n % 12}" if n % 3 == 0 else ""), f"2025-11-{day:02d}", str(stamp), "Refund" if refund else "Charged",
             rng.choice(["Pixel 8", "SM-S918B", "d2x", "OnePlus 12"]), title, "com.example.cafetrails",
             "subscription" if plan else "inapp", sku, currency, sales_amount(sign * price, currency),
             sales_amount(sign * tax, currency), sales_amount(sign * (price + tax), currency), city, state, postal, country,
             plan, "intro" if n % 11 == 0 else "", "4994392072746424206" if plan else "", "Yes", "", "", "", "", "",
             "Play Store"]
    return ",".join(cells)


def estimated_sales_lines(size):
    rng = random.Random(27)
    written, n = 0, 0
    text = ",".join(SALES_HEADER) + "\n"
    while written < size:
        yield text
        written += len(text.encode())
        n += 1
        text = sales_row(rng, n, refund=n % 10 == 0) + "\n"


def estimated_sales(size, out):
    rows, written = 0, 0
    if out.endswith(".zip"):
        name = out.rsplit("/", 1)[-1][:-4] + ".csv"
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            with z.open(name, "w", force_zip64=True) as f:
                for line in estimated_sales_lines(size):
                    data = line.encode()
                    f.write(data)
                    written += len(data)
                    rows += 1
    else:
        with open(out, "w", encoding="utf-8", newline="") as f:
            for line in estimated_sales_lines(size):
                f.write(line)
                written += len(line.encode())
                rows += 1
    print(f"{out}: {rows - 1} rows, {written} bytes of CSV")


def estimated_bomb(size, out):
    name = out.rsplit("/", 1)[-1][:-4] + ".csv"
    head = (",".join(SALES_HEADER) + "\n" + sales_row(random.Random(27), 1, False) + "\n").encode()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open(name, "w", force_zip64=True) as f:
            written = repeat(f, head, size)
    print(f"{out}: one member {name} expanding to {written} bytes")


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "subscriber":
        subscriber(int(sys.argv[2]), sys.argv[3])
    elif kind == "financial":
        financial(int(sys.argv[2]), sys.argv[3])
    elif kind == "earnings-bomb":
        earnings_bomb(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif kind == "subscriber-bomb":
        subscriber_bomb(int(sys.argv[2]), sys.argv[3])
    elif kind == "estimated-sales":
        estimated_sales(int(sys.argv[2]), sys.argv[3])
    elif kind == "estimated-bomb":
        estimated_bomb(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)
