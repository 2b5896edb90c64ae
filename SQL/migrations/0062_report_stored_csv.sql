-- A night writes a long report's reused months as the bytes it wrote before (issue 31; Reports/README.md, "Stored
-- CSV of a month").
--
-- A reused month's rows were read back from `report_stored_row` and formatted again, every night: for
-- `mrr_movements` at 1M subscriptions 1.23M rows, 2 s of the server's time and 3 s of build-reports' own, the longest
-- step of the job's chain after the shared tables. Formatting is a function of the rows, the report's columns, the
-- identifier mode (masked or raw) and build-reports' formatting code, so a month's CSV lines (no header) are stored
-- beside its rows: under `format` (the formatting code's version and the identifier mode) and the digest of the rows
-- they were formatted from (`rows_sha256`, the month entry's: migration 0047). A run replays the stored lines only
-- when every month it reuses has them under its own format and its entry's digest, and otherwise formats the stored
-- rows as before. A cache like the other stores: UNLOGGED, replaced with its month.
CREATE UNLOGGED TABLE report_stored_csv (
    report      text NOT NULL,
    basis       text NOT NULL CHECK (basis IN ('corrected', 'known')),
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    month       text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
    format      text NOT NULL,
    rows_sha256 text NOT NULL,
    row_count   integer NOT NULL CHECK (row_count >= 0),
    body        bytea NOT NULL,
    PRIMARY KEY (report, basis, currency, month, format)
);
-- Stored uncompressed (EXTERNAL): a night reads every reused month's lines whole, and a compressed body would be
-- decompressed each time.
ALTER TABLE report_stored_csv ALTER COLUMN body SET STORAGE EXTERNAL;
COMMENT ON TABLE report_stored_csv IS
    'build-reports: a stored month''s CSV lines as a run wrote them, by formatting version and identifier mode, valid while its rows_sha256 is the month entry''s (migration 0062).';
