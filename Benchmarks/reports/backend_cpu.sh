#!/usr/bin/env bash
# The database server's CPU for one command: `time` sees only the client, while build-reports does nearly all of its
# work in PostgreSQL (and the peer some of its, serving the SELECTs). Runs COMMAND and writes to OUT one line
# "backend_cpu_s <seconds>": the CPU (user + system) that the cluster at PGHOST:PGPORT spent for the database DB
# (BACKEND_DB, else PGDATABASE) while COMMAND ran; and to OUT.pids each process's CPU, the largest first ("pid seconds":
# a build-reports run's job session apart from its second session and month writer).
#   BACKEND_DB=db Benchmarks/reports/backend_cpu.sh OUT COMMAND [ARG…]      (exits with COMMAND's status)
# How: every POLL_SECONDS (default 0.1) it reads /proc/<pid>/stat (utime + stime) of each process serving DB: the
# postmaster's children whose title names DB (`postgres: <user> <db> …`) and the parallel workers of those; a process's
# CPU is its last reading, less its first when it was already there before COMMAND. A process that exits loses at
# most its last POLL_SECONDS. (Counting the postmaster's reaped children instead, as this did before, counted every
# other session of the cluster that ended meanwhile: the shared cluster's other benchmarks.)
set -euo pipefail
out=$1
shift
lock="${PGHOST:?PGHOST names the socket folder}/.s.PGSQL.${PGPORT:-5432}.lock"
postmaster=$(head -n 1 "$lock")
tick=$(getconf CLK_TCK)

db=${BACKEND_DB:-${PGDATABASE:?BACKEND_DB or PGDATABASE names the database}}
poll=${POLL_SECONDS:-0.1}

# "pid ticks" of each process serving the database, one line each (bash builtins but one pgrep: it runs ten times a
# second beside what it measures).
sample() {
  local pid title stat own=" " workers=""
  for pid in $(pgrep -P "$postmaster"); do
    # A process that exited since pgrep has no cmdline: skipped (not the previous one's title, not an unset variable).
    title=""
    { IFS= read -r -d '' title <"/proc/$pid/cmdline"; } 2>/dev/null || [ -n "$title" ] || continue
    case $title in
      "postgres: "*" $db "*) own+="$pid " ;;
      "postgres: parallel worker for PID "*) workers+="$pid:${title#postgres: parallel worker for PID } " ;;
    esac
  done
  for pid in $own ${workers}; do
    case $pid in *:*) local leader=${pid#*:}; leader=${leader%% *}; pid=${pid%%:*}; [[ $own == *" $leader "* ]] || continue ;; esac
    IFS= read -r stat <"/proc/$pid/stat" 2>/dev/null || continue
    # Fields after the ")" of the command name: 14-15 of stat(5) are utime stime (12-13 after it).
    set -- ${stat##*) }
    echo "$pid $((${12} + ${13}))"
  done
}

samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
sample | sed 's/^/before /' >"$samples"
( while :; do sample >>"$samples"; sleep "$poll"; done ) &
poller=$!
status=0
"$@" || status=$?
kill "$poller" 2>/dev/null || true
wait "$poller" 2>/dev/null || true
sample >>"$samples"
awk -v t="$tick" '$1 == "before" { first[$2] = $3; next } { last[$1] = $2 }
  END { for (p in last) s += last[p] - first[p]; printf "backend_cpu_s %.1f\n", s / t }' "$samples" >"$out"
# Per process, the highest first (OUT.pids: "pid seconds"): a run's sessions apart, its job session the largest.
awk -v t="$tick" '$1 == "before" { first[$2] = $3; next } { last[$1] = $2 }
  END { for (p in last) printf "%s %.1f\n", p, (last[p] - first[p]) / t }' "$samples" | sort -k2,2 -rn >"$out.pids"
exit "$status"
