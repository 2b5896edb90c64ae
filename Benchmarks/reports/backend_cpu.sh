#!/usr/bin/env bash
# The database server's CPU for one command: `time` sees only the client, while build-reports does nearly all of its
# work in PostgreSQL (and the peer some of its, serving the SELECTs). Runs COMMAND and writes to OUT one line
# "backend_cpu_s <seconds>": the CPU (user + system) that the cluster at PGHOST:PGPORT spent for the database DB
# (BACKEND_DB, else PGDATABASE) while COMMAND ran.
#   BACKEND_DB=db Benchmarks/reports/backend_cpu.sh OUT COMMAND [ARG…]      (exits with COMMAND's status)
# How: a process's /proc/<pid>/stat holds its own CPU (utime, stime) and that of the children it has reaped (cutime,
# cstime). The postmaster reaps every backend and worker, so its four fields grow by the CPU of each one that exits;
# the script adds those of the live backends connected to DB. It reads both before COMMAND and after it, once DB has no
# client backend left (at most 10 s), so the last backend's CPU is in. Long-lived processes of other databases and the
# server's own (checkpointer, WAL writer) are left out; any other process that exits meanwhile (an autovacuum worker,
# another short session) is counted, so the cluster should be otherwise quiet.
set -euo pipefail
out=$1
shift
lock="${PGHOST:?PGHOST names the socket folder}/.s.PGSQL.${PGPORT:-5432}.lock"
postmaster=$(head -n 1 "$lock")
tick=$(getconf CLK_TCK)

db=${BACKEND_DB:-${PGDATABASE:?BACKEND_DB or PGDATABASE names the database}}
pids() { # the live backends (parallel workers included) connected to the database
  psql -qtA -d postgres -v db="$db" <<<"SELECT pid FROM pg_stat_activity WHERE datname = :'db' AND pid <> pg_backend_pid()"
}

# Cumulative CPU ticks of the postmaster (its reaped children included) and of the database's live backends.
server_ticks() {
  local total=0 pid ticks
  for pid in $postmaster $(pids); do
    # Fields after the ")" of the command name: 14-17 of stat(5) are utime stime cutime cstime (12-15 after it).
    ticks=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 + $14 + $15 }') || continue
    total=$((total + ${ticks:-0}))
  done
  echo "$total"
}

clients() {
  psql -qtA -d postgres -v db="$db" <<<"SELECT count(*) FROM pg_stat_activity WHERE datname = :'db' AND backend_type IN ('client backend', 'parallel worker')"
}

before=$(server_ticks)
status=0
"$@" || status=$?
for _ in $(seq 1 100); do
  [ "$(clients)" = 0 ] && break
  sleep 0.1
done
sleep 0.2 # the postmaster reaps the last backend after it has left pg_stat_activity
after=$(server_ticks)
awk -v a="$before" -v b="$after" -v t="$tick" 'BEGIN { printf "backend_cpu_s %.1f\n", (b - a) / t }' >"$out"
exit "$status"
