#!/usr/bin/env bash
# The database server's CPU for one command: `time` sees only the client, while build-reports does nearly all of its
# work in PostgreSQL (and the peer some of its, serving the SELECTs). Runs COMMAND and writes to OUT one line
# "backend_cpu_s <seconds>": the CPU (user + system) that the postmaster of the cluster at PGHOST:PGPORT and all its
# processes spent while COMMAND ran.
#   Benchmarks/reports/backend_cpu.sh OUT COMMAND [ARG…]      (exits with COMMAND's status)
# How: a process's /proc/<pid>/stat holds its own CPU (utime, stime) and that of its children it has reaped (cutime,
# cstime). The postmaster reaps every backend and worker, so its four fields plus the live children's utime + stime
# (and their own reaped children's) are the server's cumulative CPU; the difference across COMMAND is its share. After
# COMMAND the script waits (at most 10 s) until the server has no client backend left, so the last backend's CPU is in.
# The cluster must serve nobody else meanwhile (the private cluster of a worktree; autovacuum counts, as it would).
set -euo pipefail
out=$1
shift
lock="${PGHOST:?PGHOST names the socket folder}/.s.PGSQL.${PGPORT:-5432}.lock"
postmaster=$(head -n 1 "$lock")
tick=$(getconf CLK_TCK)

# Cumulative CPU ticks of the postmaster and every live process under it.
server_ticks() {
  local total=0 pid fields
  for pid in $postmaster $(pgrep -P "$postmaster" || true); do
    # Fields after the ")" of the command name: 14-17 of stat(5) are utime stime cutime cstime (12-15 after it).
    fields=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 + $14 + $15 }') || continue
    total=$((total + ${fields:-0}))
  done
  echo "$total"
}

clients() {
  psql -qtA -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type IN ('client backend', 'parallel worker') AND pid <> pg_backend_pid()"
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
