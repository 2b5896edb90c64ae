-- Google earnings are staged as compact per-run facts plus the file itself, kept as its bytes (issue 29; the decision
-- and its measurements: docs/RECONCILIATION.md, "Import", and Benchmarks/results.md).
--   * google_earnings_fact: one row per run of consecutive rows of one order and side of a file, in file order (seq),
--     folded as reconcile folds them (GoogleEarningsFacts): what the reconciliation reads, and all it reads.
--   * report_file_content: a report file's bytes exactly as they are on disk (the zip or CSV import-exports read and
--     hashed), in 1 MiB chunks under the SHA-256 of those bytes (identical files are kept once); report_file names
--     them (kept_sha256, kept_size). An on-call engineer gets a staged file's rows of one order back from them
--     (`import-exports --show-order`), through the importer's own reader.
-- google_earnings_row (30 columns a row, 3M rows a large month) is no longer written; its files' facts are computed
-- from it first, so a period staged before this migration reconciles as before. Those files have no kept bytes, so
-- their rows stay, read-only, as their audit trail (`show-order` prints them): the table is renamed
-- google_earnings_row_before_0033 and the job role may only read it (SQL/job_role_grants.sql).
-- 0029's guarantee is kept on the facts: at commit a Google earnings file's facts count exactly its row_count rows.

CREATE TABLE report_file_content (
    sha256      bytea NOT NULL CHECK (length(sha256) = 32),
    chunk       integer NOT NULL CHECK (chunk >= 0),
    bytes       bytea NOT NULL CHECK (length(bytes) BETWEEN 1 AND 1048576),
    PRIMARY KEY (sha256, chunk)
);
-- The chunks are zip or gzip data already (or a CSV read once in a while): stored as they are, not compressed again.
ALTER TABLE report_file_content ALTER COLUMN bytes SET STORAGE EXTERNAL;

ALTER TABLE report_file
    ADD COLUMN kept_sha256 bytea CHECK (length(kept_sha256) = 32),
    ADD COLUMN kept_size bigint CHECK (kept_size > 0),
    ADD CONSTRAINT report_file_kept_both CHECK ((kept_sha256 IS NULL) = (kept_size IS NULL));

CREATE TABLE google_earnings_fact (
    report_file_id  bigint NOT NULL,
    seq             integer NOT NULL CHECK (seq >= 0),
    order_id        text NOT NULL,
    -- 0: the order's charge, 1: its refund (a refund row with a Refund Type).
    side            integer NOT NULL CHECK (side IN (0, 1)),
    gross_micros    bigint NOT NULL,
    fee_micros      bigint NOT NULL,
    tax_micros      bigint NOT NULL,
    -- The run's change to the unit's charge (or refund) count.
    charge_count    integer NOT NULL,
    -- The earnings rows the run folds.
    row_count       integer NOT NULL CHECK (row_count > 0),
    -- The first gross row's Buyer Currency ('' when the run has no gross row); the first non-empty product and
    -- country; the last Refund Type of a refund run.
    currency        text NOT NULL CHECK (currency = '' OR currency ~ '^[A-Z]{3}$'),
    country         text NOT NULL,
    product_id      text NOT NULL,
    refund_type     text CHECK (refund_type IN ('Full', 'Partial')),
    first_at        timestamptz NOT NULL,
    PRIMARY KEY (report_file_id, seq)
);

-- The facts of the files staged so far, from their rows: a run is the consecutive rows (by line) of one order and
-- side of a file, folded as GoogleEarningsFacts folds them.
INSERT INTO google_earnings_fact (report_file_id, seq, order_id, side, gross_micros, fee_micros, tax_micros, charge_count,
                                  row_count, currency, country, product_id, refund_type, first_at)
WITH classified AS (
    SELECT r.report_file_id, r.line, r.order_id, r.amount_buyer_micros AS amount, r.transaction_at, r.buyer_currency,
           r.buyer_country, r.product_id, r.refund_type,
           CASE WHEN r.transaction_type LIKE '% refund' AND r.refund_type IS NOT NULL THEN 1 ELSE 0 END AS side,
           CASE WHEN r.transaction_type LIKE 'Charge%' THEN 'gross' WHEN r.transaction_type LIKE 'Google fee%' THEN 'fee'
                ELSE 'tax' END AS part,
           CASE WHEN r.transaction_type IN ('Charge', 'Charge rebill') THEN 1
                WHEN r.transaction_type = 'Charge refund' THEN CASE WHEN r.refund_type IS NULL THEN -1 ELSE 1 END
                ELSE 0 END AS counted
    FROM google_earnings_row r
), started AS (
    SELECT c.*, CASE WHEN lag(c.order_id) OVER w = c.order_id AND lag(c.side) OVER w = c.side THEN 0 ELSE 1 END AS starts
    FROM classified c WINDOW w AS (PARTITION BY c.report_file_id ORDER BY c.line)
), runs AS (
    SELECT s.*, sum(s.starts) OVER (PARTITION BY s.report_file_id ORDER BY s.line) - 1 AS seq FROM started s
)
SELECT report_file_id, seq::int, min(order_id), min(side),
       coalesce(sum(amount) FILTER (WHERE part = 'gross'), 0), coalesce(sum(amount) FILTER (WHERE part = 'fee'), 0),
       coalesce(sum(amount) FILTER (WHERE part = 'tax'), 0), sum(counted)::int, count(*),
       coalesce((array_agg(buyer_currency ORDER BY line) FILTER (WHERE part = 'gross'))[1], ''),
       coalesce((array_agg(buyer_country ORDER BY line) FILTER (WHERE buyer_country <> ''))[1], ''),
       coalesce((array_agg(product_id ORDER BY line) FILTER (WHERE product_id <> ''))[1], ''),
       (array_agg(refund_type ORDER BY line DESC) FILTER (WHERE side = 1 AND refund_type IS NOT NULL))[1],
       min(transaction_at)
FROM runs GROUP BY report_file_id, seq;

DROP TRIGGER report_file_google_earnings_rows ON report_file;
DROP TRIGGER report_file_google_earnings_rows_delete ON report_file;
DROP FUNCTION google_earnings_file_rows_check();
DROP FUNCTION google_earnings_file_rows_delete();
ALTER TABLE google_earnings_row RENAME TO google_earnings_row_before_0033;
ALTER INDEX google_earnings_row_order_idx RENAME TO google_earnings_row_before_0033_order_idx;
-- 0029 replaced the per-row foreign key with triggers on report_file (dropped above): the kept rows go with their file.
ALTER TABLE google_earnings_row_before_0033
    ADD FOREIGN KEY (report_file_id) REFERENCES report_file (id) ON DELETE CASCADE;
COMMENT ON TABLE google_earnings_row_before_0033 IS
    'The rows of the Google earnings files staged before migration 0033, kept read-only as their audit trail (those files have facts but no kept bytes); show-order reads them. Nothing writes it.';

-- At commit, a Google earnings file's facts fold exactly the rows its report_file row counts, staged under its id in
-- the same transaction (a fact staged under another id leaves its file short and cannot commit); a file that names
-- kept bytes has them all.
CREATE FUNCTION google_earnings_file_facts_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    staged bigint;
    kept bigint;
BEGIN
    SELECT coalesce(sum(row_count), 0) INTO staged FROM google_earnings_fact WHERE report_file_id = NEW.id;
    IF staged <> NEW.row_count THEN
        RAISE EXCEPTION 'report_file % (%): % rows staged, the file counts %', NEW.id, NEW.file_name, staged, NEW.row_count
            USING ERRCODE = 'foreign_key_violation';
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

CREATE CONSTRAINT TRIGGER report_file_google_earnings_facts AFTER INSERT ON report_file
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 'googleEarnings')
    EXECUTE FUNCTION google_earnings_file_facts_check();

-- Writers and deleters of one file's kept bytes take this transaction-scoped lock on the bytes' hash first (the
-- two-key form: its own lock space, apart from the one-key locks hashtext names; a collision of the first 32 bits of
-- two hashes only serialises two imports). The importer holds it from its check whether the bytes are kept until its
-- commit, so a second import of the same bytes (under another report key, in its own transaction) waits, then finds
-- them committed and writes none; a delete holds it while it decides the bytes are named by no file, so they cannot
-- go while an import that found them commits a file naming them, nor an import find bytes a delete is removing.
CREATE FUNCTION report_file_content_lock(sha256 bytea) RETURNS void LANGUAGE sql VOLATILE AS $$
    SELECT pg_advisory_xact_lock(hashtext('report_file_content'), ('x' || encode(substr(sha256, 1, 4), 'hex'))::bit(32)::int)
$$;

-- Deleting a report_file row deletes its facts, and the kept bytes no other file names, once per statement. The
-- kept bytes' locks are taken in hash order (two deletes cannot deadlock on them); the check that no file names the
-- bytes runs after the lock, in a statement of its own: at READ COMMITTED it sees the files committed meanwhile. At
-- REPEATABLE READ or SERIALIZABLE the transaction's snapshot may predate them, so such a delete of kept bytes is
-- refused (nothing deleted) rather than risk the bytes of a committed file.
CREATE FUNCTION report_file_staged_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    kept bytea;
BEGIN
    DELETE FROM google_earnings_fact f USING deleted_files d WHERE f.report_file_id = d.id;
    FOR kept IN SELECT DISTINCT kept_sha256 FROM deleted_files WHERE kept_sha256 IS NOT NULL ORDER BY 1 LOOP
        IF current_setting('transaction_isolation') <> 'read committed' THEN
            RAISE EXCEPTION 'a report file with kept bytes is deleted at READ COMMITTED only (this transaction: %)',
                current_setting('transaction_isolation') USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        PERFORM report_file_content_lock(kept);
        DELETE FROM report_file_content c
        WHERE c.sha256 = kept AND NOT EXISTS (SELECT 1 FROM report_file f WHERE f.kept_sha256 = kept);
    END LOOP;
    RETURN NULL;
END $$;

CREATE TRIGGER report_file_staged_delete AFTER DELETE ON report_file
    REFERENCING OLD TABLE AS deleted_files FOR EACH STATEMENT EXECUTE FUNCTION report_file_staged_delete();
