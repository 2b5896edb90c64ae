#!/usr/bin/env bash
# Backend CPU of set-returning SQL functions, alternated: for each of ROUNDS rounds, each argument (a function call
# such as "report_span_input('2026-11-29T00:00:00Z','corrected')") runs as `SELECT count(*), sum(hash_sum) FROM <call>`
# in a fresh psql session (jit off, work_mem 256MB, as build-reports' transaction), and prints its wall (psql \timing)
# and the CPU (utime + stime from /proc/<pid>/stat) of the backend that ran it, with the load average. The sum keeps
# an inlined SQL function from dropping the hash column it would otherwise not compute.
#   REPORT_DB=bench_h31s [ROUNDS=3] Benchmarks/reports/function_cpu.sh "<call>" "<call>" …
set -euo pipefail
export PGDATABASE=${REPORT_DB:?REPORT_DB names the database}
tick=$(getconf CLK_TCK)
for round in $(seq 1 "${ROUNDS:-3}"); do
  for call in "$@"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$(psql -X -qtA <<SQL
SET jit = off;
SET work_mem = '256MB';
SELECT pg_backend_pid() AS bpid \gset
\setenv BPID :bpid
\! awk '{ print "cpu0", \$14 + \$15 }' /proc/\$BPID/stat
\timing on
SELECT count(*), sum(hash_sum) FROM $call;
\timing off
\! awk '{ print "cpu1", \$14 + \$15 }' /proc/\$BPID/stat
SQL
)
    wall=$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    cpu=$(echo "$out" | awk -v t="$tick" '/^cpu0/ { a = $2 } /^cpu1/ { b = $2 } END { printf "%.2f", (b - a) / t }')
    echo "| $round | \`$call\` | ${wall} ms | ${cpu} s | $load |"
  done
done
