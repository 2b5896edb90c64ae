#!/usr/bin/env bash
# The embedded PostgreSQL for demo, tests and benchmarks: a private cluster under .local/pg,
# listening only on a unix socket inside that folder (no TCP).
#   pg-cluster.sh up      create (initdb) if needed, start if stopped, create database $PGDATABASE and the
#                         pipeline's roles iap_owner / iap_job (deploy/postgres/roles.sql, applied to that database)
#   pg-cluster.sh down    stop it
#   pg-cluster.sh env     print the PG* variables that reach it
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` OS user.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cluster="$root/.local/pg"
data="$cluster/data"
database="${PGDATABASE_NAME:-iap}"
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bindir/initdb" ] || { echo "pg-cluster: PostgreSQL server binaries not found; run 'make deps'" >&2; exit 1; }

as_server() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

prepare_folder() {
  [ -d "$cluster" ] || [ -L "$cluster" ] && return 0
  mkdir -p "$root/.local"
  if [ "$(id -u)" = 0 ]; then
    # The server user must reach the folder; if a parent is closed to it, keep the cluster in /tmp
    # and leave a link at .local/pg.
    if runuser -u postgres -- test -x "$root/.local"; then
      mkdir -p "$cluster"
    else
      local elsewhere
      elsewhere=$(mktemp -d /tmp/iap-pg.XXXXXX)
      ln -s "$elsewhere" "$cluster"
    fi
    chown postgres:postgres "$(readlink -f "$cluster")"
  else
    mkdir -p "$cluster"
  fi
  chmod 700 "$(readlink -f "$cluster")"
}

print_env() {
  echo "export PGHOST=$(readlink -f "$cluster")"
  echo "export PGPORT=5432"
  echo "export PGUSER=postgres"
  echo "export PGDATABASE=$database"
}

up() {
  prepare_folder
  local dir
  dir=$(readlink -f "$cluster")
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_server "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
unix_socket_permissions = 0700
port = 5432
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_buffers = 512MB
# The report SQL's estimates on small test worlds exceed the JIT thresholds, and compiling costs seconds a query;
# build-reports turns JIT off in its own session for the same reason (docs/REPORT_OUTPUT.md).
jit = off
work_mem = 32MB
max_wal_size = 4GB
timezone = 'UTC'
log_min_messages = warning
CONF
  fi
  if ! as_server "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    rm -f "$dir/data/postmaster.pid"
    as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
      || { tail -n 20 "$dir/server.log" >&2; exit 1; }
  fi
  if ! "$bindir/psql" -h "$dir" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
    "$bindir/createdb" -h "$dir" -U postgres "$database"
  fi
  # The least-privilege roles (cluster-wide) and their grants in the default database; tests that run jobs as
  # iap_job apply the same file to their own databases (Tests/TestSupport/TestDatabase.swift, RoleDatabase).
  "$bindir/psql" -q -X -v ON_ERROR_STOP=1 -h "$dir" -U postgres -d "$database" -f "$root/deploy/postgres/roles.sql" >/dev/null
}

down() {
  [ -e "$cluster" ] || return 0
  local dir
  dir=$(readlink -f "$cluster")
  [ -f "$dir/data/PG_VERSION" ] || return 0
  as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  env) print_env ;;
  *) echo "usage: $0 up|down|env" >&2; exit 2 ;;
esac
