-- A `--full` build-reports run recomputes everything, but stores only what differs from the store (issue 31;
-- Reports/README.md, "What a --full run stores"). Rewriting a month's rows or a subscription's spans that are
-- already stored, byte for byte, cost a 200k-subscription run ≈ 9 s of its ≈ 67 s of CPU (2.5 s inserting the rows,
-- 2 s encoding them, 4.4 s storing and indexing 1.24M spans) for nothing. Each entry now carries the digest of what it
-- holds, so a run compares instead of rewriting: equal entries are left as they are, different or new ones replaced.
-- The digest is of the stored content itself, not of its inputs, so a `--full` run after a change to the span rules
-- or to a report's formatting that no input digest sees still replaces what changed (the escape hatch `--full` is).
-- NULL (entries stored before this migration) never equals: the first run after it stores everything once.

-- The SHA-256 of the month's columns and rows as the run encodes them (MonthRecorder).
ALTER TABLE report_stored_month ADD COLUMN rows_sha256 text;
COMMENT ON COLUMN report_stored_month.rows_sha256 IS
    'SHA-256 of the entry''s columns and rows as build-reports hashed them; a run leaves an equal entry as it is (migration 0047).';

-- A 64-bit hash of the subscription's spans as build-reports encoded them (SpanBuilder).
ALTER TABLE report_stored_span_input ADD COLUMN span_hash bigint;
COMMENT ON COLUMN report_stored_span_input.span_hash IS
    'A hash of the subscription''s stored spans as build-reports computed them; a run leaves equal spans as they are (migration 0047).';
