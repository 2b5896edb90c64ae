"""Python XlsxWriter peer of the issue-15 sheet benchmark: the same ROWS x 12 sheet as bench-xlsx and
xlsx_floor.c (constant_memory, frozen and filtered header, money / integer / percent / ISO date formats),
written as an XlsxWriter user would. Usage: xlsx_write.py OUT.xlsx ROWS. Prints one result line."""
import datetime
import sys
import time

import xlsxwriter

PRODUCTS = ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.basic.monthly", "com.example.basic.weekly"]
CURRENCIES = ["USD", "EUR", "JPY", "GBP"]
COUNTRIES = ["US", "DE", "JP", "GB", "FR", "BR"]
HEADERS = ["account", "date", "product", "currency", "mrr", "new", "churn", "fx", "subscribers", "bucket", "rate", "country"]


def main():
    path, rows = sys.argv[1], int(sys.argv[2])
    start = time.monotonic()
    workbook = xlsxwriter.Workbook(path, {"constant_memory": True})
    workbook.set_properties({"created": datetime.datetime(2026, 1, 1)})
    sheet = workbook.add_worksheet("data")
    bold = workbook.add_format({"bold": True})
    money = workbook.add_format({"num_format": "#,##0.00"})
    integer = workbook.add_format({"num_format": "#,##0"})
    percent = workbook.add_format({"num_format": "0.00%"})
    date = workbook.add_format({"num_format": "yyyy-mm-dd"})
    sheet.set_column(0, 11, 14)
    sheet.freeze_panes(1, 0)
    sheet.autofilter(0, 0, rows, 11)
    sheet.write_row(0, 0, HEADERS, bold)
    first = datetime.date(2024, 1, 1)
    days = [first + datetime.timedelta(days=d) for d in range(730)]
    for r in range(rows):
        row = r + 1
        sheet.write_string(row, 0, "acct-%07d" % r)
        sheet.write_datetime(row, 1, days[r % 730], date)
        sheet.write_string(row, 2, PRODUCTS[r % 4])
        sheet.write_string(row, 3, CURRENCIES[r % 4])
        for m in range(4):
            micros = ((r * 7919 + m * 104729) % 100000000) * 1000 - 20000000000
            sheet.write_number(row, 4 + m, round(micros / 1000000, 2), money)
        sheet.write_number(row, 8, r, integer)
        sheet.write_number(row, 9, r % 1000, integer)
        sheet.write_number(row, 10, (r % 1000) / 1000, percent)
        sheet.write_string(row, 11, COUNTRIES[r % 6])
    workbook.close()
    print("xlsxwriter-python rows=%d columns=12 seconds=%.2f version=%s" % (rows, time.monotonic() - start, xlsxwriter.__version__))


if __name__ == "__main__":
    main()
