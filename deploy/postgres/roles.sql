-- Least-privilege roles for the IAP pipeline. Run once per database, as a superuser, before the first `migrate`:
--   psql -v ON_ERROR_STOP=1 -d iap -f /opt/iap/share/iap-pipeline/postgres/roles.sql
-- Re-running it is safe (it creates what is missing and grants again).
--
-- iap_owner  owns the schema and every object the migrations create; only `migrate` connects as it.
-- iap_job    what every other job connects as: USAGE on the schema, USAGE and SELECT on its sequences, EXECUTE on
--            its functions (PostgreSQL's default for PUBLIC), TEMPORARY on the database (build-reports' temporary
--            tables), and on the tables exactly what SQL/job_role_grants.sql lists, table by table (the finance
--            trail append-only, reference data read-only, DELETE only where retention or a report replacement
--            deletes). No superuser, no CREATE on the schema (no DDL), not the owner of any table (so no ALTER
--            TABLE … DISABLE TRIGGER, no DROP), no TRIGGER or TRUNCATE privilege, and no SET of superuser-only
--            settings (session_replication_role): the closed-period trigger (migration 0011) holds against it.
--
-- The table privileges are not granted here: the tables do not exist before the first `migrate`, and `migrate`
-- (as iap_owner, who owns them) applies job_role_grants.sql after every run, so each new table gets exactly its
-- listed privileges and an upgraded installation is brought to the list by its next `migrate`. Earlier versions of
-- this file granted every DML privilege on every table by default; that default is withdrawn below.
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

-- Sequences (ids of runs, closes, audit rows): the job role draws from them; later ones by default.
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO iap_job;
ALTER DEFAULT PRIVILEGES FOR ROLE iap_owner IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO iap_job;

-- No table privilege by default: job_role_grants.sql, applied by `migrate`, is the whole list. (Withdraws the blanket
-- default of earlier versions of this file; a no-op where it was never given.)
ALTER DEFAULT PRIVILEGES FOR ROLE iap_owner IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM iap_job;
