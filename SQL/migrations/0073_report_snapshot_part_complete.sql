-- The month digest's snapshot parts of complete snapshots only (issue 31; Reports/README.md, "The open month's
-- history part").
--
-- As with the month history's row part (0072): the parts of the as-of instant's snapshot reach only the as-of month's
-- digest, which no run reads (the open month is always computed, never stored), and `SnapshotParts.save` never
-- stores them. Yet every run hashed every contribution and subscriber-state row placed there (0.5–0.6 s of a 1M night,
-- on the job's chain, before the movements). `report_snapshot_part(..., from_n, until_n)` is 0052's function for the
-- snapshots from `from_n` up to, not including, `until_n` (NULL: no bound); the five-argument function is this one
-- without a bound (one body). A run passes its as-of snapshot as `until_n`; that snapshot's parts are 0.

CREATE FUNCTION report_snapshot_part(as_of timestamptz, first_month timestamptz, last_month timestamptz, basis text,
                                     from_n bigint, until_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
WITH contribution AS (
    SELECT c.n, count(*) AS row_count, sum(hash_record_extended(c, 0)) AS hash_sum
    FROM report_run_contribution($1, $2, $3, $4) c
    WHERE c.n >= COALESCE($5, 1) AND ($6 IS NULL OR c.n < $6)
    GROUP BY c.n
),
state AS (
    SELECT t.n, count(*) AS row_count, sum(hash_record_extended(t, 0)) AS hash_sum
    FROM report_run_subscriber_state($1, $2, $3, $4) t
    WHERE t.n >= COALESCE($5, 1) AND ($6 IS NULL OR t.n < $6)
    GROUP BY t.n
)
SELECT COALESCE(c.n, t.n), COALESCE(c.row_count, 0), COALESCE(c.hash_sum, 0), COALESCE(t.row_count, 0),
       COALESCE(t.hash_sum, 0)
FROM contribution c FULL JOIN state t ON t.n = c.n
$fn$;
COMMENT ON FUNCTION report_snapshot_part(timestamptz, timestamptz, timestamptz, text, bigint, bigint) IS
    'Per snapshot from $5 up to, not including, $6 (NULL: no bound), the count and hash sum of the run''s contribution and subscriber-state rows there (the month digest''s parts); migrations 0052, 0073.';

CREATE OR REPLACE FUNCTION report_snapshot_part(as_of timestamptz, first_month timestamptz, last_month timestamptz,
                                                basis text, from_n bigint)
RETURNS TABLE (n bigint, contribution_count bigint, contribution_hash_sum numeric, state_count bigint,
               state_hash_sum numeric)
LANGUAGE sql STABLE AS $fn$
SELECT * FROM report_snapshot_part($1, $2, $3, $4, $5, NULL::bigint)
$fn$;
COMMENT ON FUNCTION report_snapshot_part(timestamptz, timestamptz, timestamptz, text, bigint) IS
    'Per snapshot from $5 on, the count and hash sum of the run''s contribution and subscriber-state rows there (the month digest''s parts); migration 0052 (the six-argument function''s body since 0073).';
