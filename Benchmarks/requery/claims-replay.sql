-- Profile aid for Benchmarks/results.md (requery): replays the lease claims of a finished requery-at-risk run on its
-- database, one backend: every work item back to pending, then claim 20 (the statement of RequeryLeases.claim) and
-- mark them done until none is left. Prints claims, total and claim seconds. Changes only requery_work_item.
-- Run: psql -d <copy of a finished run> -f Benchmarks/requery/claims-replay.sql
UPDATE requery_work_item SET state = 'pending', claimed_by = NULL, claimed_at = NULL;
VACUUM ANALYZE requery_work_item;
DO $$
DECLARE ids bigint[]; claims int := 0; t0 timestamptz := clock_timestamp(); t_claim interval := '0'; t1 timestamptz;
BEGIN
  LOOP
    t1 := clock_timestamp();
    WITH c AS (
      UPDATE requery_work_item SET state = 'claimed', claimed_by = 'replay', claimed_at = clock_timestamp(), attempts = attempts + 1
      WHERE id IN (
          SELECT id FROM requery_work_item
          WHERE run_key = '2026-11-29'
            AND (state = 'pending' OR (state = 'claimed' AND claimed_at < clock_timestamp() - make_interval(secs => 600)))
          ORDER BY priority, id
          LIMIT 20
          FOR UPDATE SKIP LOCKED)
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM c;
    t_claim := t_claim + (clock_timestamp() - t1);
    EXIT WHEN ids IS NULL;
    UPDATE requery_work_item SET state = 'done' WHERE id = ANY (ids);
    claims := claims + 1;
  END LOOP;
  RAISE NOTICE 'claims=% seconds=% claim_seconds=%', claims, extract(epoch FROM clock_timestamp() - t0), extract(epoch FROM t_claim);
END $$;
