-- The month-end import's cost (issue 29): the primary key of google_earnings_fact, a B-tree on (report_file_id, seq),
-- cost more server time than the rest of the facts' COPY together — one WAL record per index entry, where the heap's
-- rows go in one record per page. Measured on a 3M-row earnings month (938,374 facts, binary COPY from a file on the
-- server, alternated twice): 2.36 / 2.61 s with the key, 1.00 / 1.04 s with a block-range index instead and no checks,
-- 1.31 / 1.44 s with the checks kept (docs/RECONCILIATION.md, "Staging the facts").
--
-- What the key gave, and where it is now:
--   * finding one file's facts (the reconcile's report side, the commit check below, show-order, deleting a file):
--     a BRIN index on report_file_id. A file's facts are appended by one COPY, so they fill consecutive pages and a
--     block range holds one file or two; ranges filled since the last summary are always read, and are summarised
--     as they fill (autosummarize) and by the vacuum that follows an import.
--   * (report_file_id, seq) unique: each fact is written once by its file's COPY, seq 0, 1, 2, … The commit check
--     (0033's, replaced here) now also requires a file's seqs to run 0 … n − 1 (count, first, last and their sum);
--     together with the rows they fold adding up to the file's row count (every fact folds at least one row), a
--     repeated fact cannot commit unless another with the same rows and the same seqs' sum is missing at once.
-- The checks on the columns stay: they cost a fraction of what the key did.
ALTER TABLE google_earnings_fact DROP CONSTRAINT google_earnings_fact_pkey;
CREATE INDEX google_earnings_fact_file_idx ON google_earnings_fact USING brin (report_file_id)
    WITH (pages_per_range = 16, autosummarize = on);

-- At commit, a Google earnings file's facts fold exactly the rows its report_file row counts and are numbered 0 … n − 1,
-- staged under its id in the same transaction (a fact staged under another id leaves its file short and cannot
-- commit); a file that names kept bytes has them all.
CREATE OR REPLACE FUNCTION google_earnings_file_facts_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    staged bigint;
    facts bigint;
    first_seq bigint;
    last_seq bigint;
    seq_sum numeric;
    kept bigint;
BEGIN
    SELECT coalesce(sum(row_count), 0), count(*), coalesce(min(seq), 0), coalesce(max(seq), -1), coalesce(sum(seq), 0)
    INTO staged, facts, first_seq, last_seq, seq_sum
    FROM google_earnings_fact WHERE report_file_id = NEW.id;
    IF staged <> NEW.row_count THEN
        RAISE EXCEPTION 'report_file % (%): % rows staged, the file counts %', NEW.id, NEW.file_name, staged, NEW.row_count
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF first_seq <> 0 OR last_seq <> facts - 1 OR seq_sum <> facts * (facts - 1) / 2 THEN
        RAISE EXCEPTION 'report_file % (%): % facts staged, numbered % to % (sum %), not 0 to %', NEW.id, NEW.file_name,
            facts, first_seq, last_seq, seq_sum, facts - 1 USING ERRCODE = 'unique_violation';
    END IF;
    IF NEW.kept_sha256 IS NOT NULL THEN
        SELECT coalesce(sum(length(bytes)), 0) INTO kept FROM report_file_content WHERE sha256 = NEW.kept_sha256;
        IF kept <> NEW.kept_size THEN
            RAISE EXCEPTION 'report_file % (%): % bytes kept, the file has %', NEW.id, NEW.file_name, kept, NEW.kept_size
                USING ERRCODE = 'foreign_key_violation';
        END IF;
    END IF;
    RETURN NULL;
END $$;
