-- build-reports' stored month rows (0027) lose their foreign key to report_stored_month (issue 31; Reports/README.md,
-- "Incremental runs"). Its check, one look-up of the month entry per inserted row, was about half of storing a --full
-- run's 258k mrr_movements rows at 200k subscriptions. Rows and entries are written and deleted only by
-- build-reports' storing transaction (Sources/Reporting/StoredMonths.swift), which replaces an entry and its rows
-- together: it deletes the rows of the months it replaces, then their entries, then inserts both. The stored rows are
-- unchanged.
ALTER TABLE report_stored_row DROP CONSTRAINT report_stored_row_report_basis_currency_month_fkey;
