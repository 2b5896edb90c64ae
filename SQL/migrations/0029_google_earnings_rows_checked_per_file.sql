-- google_earnings_row: the per-row foreign key to report_file becomes checks made once per file (issue 29).
-- Measured (Benchmarks/results.md, "Google month-end as deployed"): the deferred key queued one trigger event per
-- staged row and ran one lookup per row at commit, half of the server's work of staging a month's earnings (6.5 of
-- 12.9 s of server CPU for 1M rows). What it guaranteed is kept, per file:
--   * at commit, a Google earnings file holds exactly the rows its report_file row counts (row_count), staged under
--     its id in the same transaction (a row staged under another id leaves its file short and cannot commit);
--   * deleting a report_file row deletes its staged rows (was ON DELETE CASCADE), once per statement.
-- The job role cannot delete report_file rows, and writes google_earnings_row only through import-exports.
ALTER TABLE google_earnings_row DROP CONSTRAINT google_earnings_row_report_file_id_fkey;

CREATE FUNCTION google_earnings_file_rows_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    staged bigint;
BEGIN
    SELECT count(*) INTO staged FROM google_earnings_row WHERE report_file_id = NEW.id;
    IF staged <> NEW.row_count THEN
        RAISE EXCEPTION 'report_file % (%): % rows staged, the file counts %', NEW.id, NEW.file_name, staged, NEW.row_count
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER report_file_google_earnings_rows AFTER INSERT ON report_file
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 'googleEarnings')
    EXECUTE FUNCTION google_earnings_file_rows_check();

CREATE FUNCTION google_earnings_file_rows_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM google_earnings_row r USING deleted_files d WHERE r.report_file_id = d.id;
    RETURN NULL;
END $$;

CREATE TRIGGER report_file_google_earnings_rows_delete AFTER DELETE ON report_file
    REFERENCING OLD TABLE AS deleted_files FOR EACH STATEMENT EXECUTE FUNCTION google_earnings_file_rows_delete();
