-- The month-end reconcile runs right after the import (the nightly chain, close-period), before autovacuum has
-- analysed the facts just staged: the planner then takes the new file's id for a value of about one row, plans the
-- report side as one serial sort spilling to disk instead of a parallel one, and the 3M-row reconcile took 3.8 s
-- instead of about 3.1 (issue 29; docs/RECONCILIATION.md, "Staging the facts"). import-exports therefore analyses
-- google_earnings_fact after it staged a Google earnings file. Only the table's owner may ANALYZE it and the jobs
-- connect as `iap_job`, which owns nothing (SQL/job_role_grants.sql), so this function, owned by the role that
-- migrates and run with its rights (SECURITY DEFINER, a fixed search path), does that one thing. EXECUTE is revoked
-- from PUBLIC here and granted to `iap_job` only, by SQL/job_role_grants.sql.
--
-- It analyses the one column the reconcile's plan turns on, `report_file_id`, with a statistics target of 10 (a
-- sample of 3,000 rows; up to ten files in the most-common list, the newest among them whenever it is one of the ten
-- largest): 17 ms on a 3M-row month's 938k facts, against 0.14 s for that column at the default target and 0.23–0.33 s
-- for the whole table, a fixed cost that weighed on a small month's import. Autovacuum still analyses every column.
ALTER TABLE google_earnings_fact ALTER COLUMN report_file_id SET STATISTICS 10;
CREATE FUNCTION google_earnings_fact_analyze() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    ANALYZE public.google_earnings_fact (report_file_id);
END
$$;
COMMENT ON FUNCTION google_earnings_fact_analyze() IS
    'import-exports: the staged Google earnings facts'' planner statistics brought up to date, as the owner (migration 0045).';
REVOKE ALL ON FUNCTION google_earnings_fact_analyze() FROM PUBLIC;
