/* The C floor of the XLSX benchmark: the same 1M-row x 12-column sheet as bench-xlsx and
 * Benchmarks/peers/xlsx_write.py, written straight through libxlsxwriter (constant_memory).
 * Build: cc -O2 -o xlsx_floor xlsx_floor.c -lxlsxwriter    Run: xlsx_floor OUT.xlsx ROWS */
#include <stdio.h>
#include <stdlib.h>
#include <xlsxwriter.h>

static const char *products[4] = {"com.example.pro.monthly", "com.example.pro.yearly", "com.example.basic.monthly", "com.example.basic.weekly"};
static const char *currencies[4] = {"USD", "EUR", "JPY", "GBP"};
static const char *countries[6] = {"US", "DE", "JP", "GB", "FR", "BR"};
static const char *headers[12] = {"account", "date", "product", "currency", "mrr", "new", "churn", "fx", "subscribers", "bucket", "rate", "country"};

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor OUT.xlsx ROWS\n"); return 2; }
    long rows = atol(argv[2]);
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .tmpdir = NULL, .use_zip64 = LXW_FALSE};
    lxw_workbook *workbook = workbook_new_opt(argv[1], &options);
    if (!workbook) { fprintf(stderr, "cannot create %s\n", argv[1]); return 1; }
    lxw_doc_properties properties = {.created = 1767225600};
    workbook_set_properties(workbook, &properties);
    lxw_worksheet *sheet = workbook_add_worksheet(workbook, "data");
    lxw_format *bold = workbook_add_format(workbook); format_set_bold(bold);
    lxw_format *money = workbook_add_format(workbook); format_set_num_format(money, "#,##0.00");
    lxw_format *integer = workbook_add_format(workbook); format_set_num_format(integer, "#,##0");
    lxw_format *percent = workbook_add_format(workbook); format_set_num_format(percent, "0.00%");
    lxw_format *date = workbook_add_format(workbook); format_set_num_format(date, "yyyy-mm-dd");
    for (int c = 0; c < 12; c++) worksheet_set_column(sheet, c, c, 14, NULL);
    worksheet_freeze_panes(sheet, 1, 0);
    worksheet_autofilter(sheet, 0, 0, rows, 11);
    for (int c = 0; c < 12; c++) worksheet_write_string(sheet, 0, c, headers[c], bold);
    char account[32];
    for (long r = 0; r < rows; r++) {
        lxw_row_t row = r + 1;
        snprintf(account, sizeof account, "acct-%07ld", r);
        worksheet_write_string(sheet, row, 0, account, NULL);
        long day = r % 730; /* 2024-01-01 plus day, as the Excel serial date 45292 + day */
        worksheet_write_number(sheet, row, 1, 45292 + day, date);
        worksheet_write_string(sheet, row, 2, products[r % 4], NULL);
        worksheet_write_string(sheet, row, 3, currencies[r % 4], NULL);
        for (int m = 0; m < 4; m++) {
            long long micros = (long long)((r * 7919 + m * 104729) % 100000000) * 1000 - 20000000000LL;
            worksheet_write_number(sheet, row, 4 + m, (double)(micros / 10000) / 100.0, money);
        }
        worksheet_write_number(sheet, row, 8, (double)r, integer);
        worksheet_write_number(sheet, row, 9, (double)(r % 1000), integer);
        worksheet_write_number(sheet, row, 10, (double)(r % 1000) / 1000.0, percent);
        worksheet_write_string(sheet, row, 11, countries[r % 6], NULL);
    }
    lxw_error error = workbook_close(workbook);
    if (error) { fprintf(stderr, "workbook_close: %s\n", lxw_strerror(error)); return 1; }
    return 0;
}
