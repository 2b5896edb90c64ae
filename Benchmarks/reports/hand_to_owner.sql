-- Part of Benchmarks/reports/as_deployed.sh: hands every object of the schema a benchmark world was built in (as the
-- cluster's superuser, by `world` and replicate.sql) to iap_owner, as if `migrate` had created it as deploy/ does.
-- Then `migrate` as iap_owner applies SQL/job_role_grants.sql and the jobs can run as iap_job. A no-op where the
-- owner already owns everything. Run as a superuser after deploy/postgres/roles.sql.
DO $hand$
DECLARE
    entry record;
BEGIN
    FOR entry IN -- tables, views, materialized views (a table's identity and serial sequences follow it)
        SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm') AND c.relowner <> 'iap_owner'::regrole
    LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO iap_owner', entry.name);
    END LOOP;
    FOR entry IN -- sequences no column owns
        SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'S' AND c.relowner <> 'iap_owner'::regrole
          AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
    LOOP
        EXECUTE format('ALTER SEQUENCE %s OWNER TO iap_owner', entry.name);
    END LOOP;
    FOR entry IN
        SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proowner <> 'iap_owner'::regrole
    LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO iap_owner', entry.name);
    END LOOP;
    FOR entry IN -- enums and domains (not a table's row type, not an array type)
        SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = 'public' AND t.typowner <> 'iap_owner'::regrole AND t.typtype IN ('e', 'd')
    LOOP
        EXECUTE format('ALTER TYPE %s OWNER TO iap_owner', entry.name);
    END LOOP;
END
$hand$;
