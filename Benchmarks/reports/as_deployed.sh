#!/usr/bin/env bash
# Sourced by the reports benchmarks: `as_deployed DB BIN PREFIX` makes the benchmark run what a deployment runs.
#   * installs the release build in BIN as `make install` does (`make install-files`: the jobs into PREFIX/bin, the
#     report SQL, migrations and grants into PREFIX/share/iap-pipeline); the installed build-reports finds its SQL
#     there, with no REPORT_SQL_DIR;
#   * gives the database deploy/'s roles: deploy/postgres/roles.sql, every object handed to iap_owner
#     (Benchmarks/reports/hand_to_owner.sql: the world was built by the superuser), then the installed `migrate` as
#     iap_owner, which applies SQL/job_role_grants.sql.
# The benchmark then runs PREFIX/bin/build-reports as iap_job (PGUSER=iap_job), from a working directory of its own,
# identifiers masked (no --raw-ids): the deployed command line (deploy/iap-job.sh, pipeline.env.example).
as_deployed() {
  local db=$1 bin=$2 prefix=$3
  make --no-print-directory -s install-files PREFIX="$prefix" BIN_DIR="$bin" >/dev/null
  psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f deploy/postgres/roles.sql -f Benchmarks/reports/hand_to_owner.sql
  PGUSER=iap_owner PGDATABASE=$db "$prefix/bin/migrate" --log-format json >/dev/null 2>"$prefix/migrate.log" \
    || { cat "$prefix/migrate.log" >&2; return 1; }
}
