-- Least-privilege roles for the IAP pipeline. Run once per database, as a superuser, before the first `migrate`:
--   psql -v ON_ERROR_STOP=1 -d iap -f /opt/iap/share/iap-pipeline/postgres/roles.sql
-- Re-running it is safe (it creates what is missing and grants again).
--
-- iap_owner  owns the schema and every object the migrations create; only `migrate` connects as it.
-- iap_job    what every other job connects as: SELECT, INSERT, UPDATE, DELETE on the schema's tables, USAGE and
--            SELECT on its sequences, EXECUTE on its functions (PostgreSQL's default for PUBLIC); no superuser, no
--            CREATE on the schema (no DDL), not the owner of any table (so no ALTER TABLE … DISABLE TRIGGER, no
--            DROP), no TRIGGER privilege, and no SET of superuser-only settings (session_replication_role): the
--            closed-period trigger (migration 0011) holds against it.
--
-- Tables created by later migrations: `migrate` runs as iap_owner, and the ALTER DEFAULT PRIVILEGES below give
-- iap_job the same grants on every table and sequence iap_owner creates from now on. A database migrated by another
-- role before: run this file again after `migrate` (the GRANT … ON ALL TABLES lines cover what exists).
--
-- Passwords are not set here: use peer/cert authentication in pg_hba.conf, or `\password iap_job` and a PGPASSFILE.

DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_owner') THEN
        CREATE ROLE iap_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_job') THEN
        CREATE ROLE iap_job LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
    -- Neither role inherits another's rights.
    ALTER ROLE iap_owner NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    ALTER ROLE iap_job NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    EXECUTE format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO iap_owner, iap_job', current_database());
    -- build-reports fills temporary tables inside its snapshot; TEMPORARY above allows that, nothing more.
END
$roles$;

-- The schema belongs to the owner; nobody else may create objects in it (PostgreSQL before 15 let PUBLIC).
ALTER SCHEMA public OWNER TO iap_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO iap_job;

-- What exists already (a re-run after `migrate`).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO iap_job;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO iap_job;

-- What iap_owner creates from now on (every later migration).
ALTER DEFAULT PRIVILEGES FOR ROLE iap_owner IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO iap_job;
ALTER DEFAULT PRIVILEGES FOR ROLE iap_owner IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO iap_job;
