#!/usr/bin/env python3
"""Inputs of the import-memory benchmark (issue 27, "Streaming with bounded memory").

    generate.py subscriber BYTES OUT_FILE      Apple Subscriber report (1_3 layout, tab-separated) of about BYTES
                                               bytes of text; OUT_FILE ending in .gz is gzip-compressed
    generate.py earnings-bomb BYTES SAMPLE_ZIP OUT_FILE
                                               a Google earnings zip whose one CSV expands to BYTES: SAMPLE_ZIP's
                                               header and first row, then newlines (blank lines) up to BYTES:
                                               deflate's best ratio, ~1030:1 (2 GiB in ~2 MB, the issue's bomb)
    generate.py subscriber-bomb BYTES OUT_FILE a Subscriber .txt.gz expanding to BYTES the same way

The Subscriber layout is the test fixture's (Tests/StoreExportsTests/Fixtures/apple/Subscriber_85000000_20251103.txt):
the 26 columns of today's 1_3 file, blank cells as one space, one event day (the file name's). Rows vary in subscriber
id, price, currency, country and refund flag, so gzip sees text about as repetitive as a real file's.
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


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "subscriber":
        subscriber(int(sys.argv[2]), sys.argv[3])
    elif kind == "earnings-bomb":
        earnings_bomb(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif kind == "subscriber-bomb":
        subscriber_bomb(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)
