#!/usr/bin/env bash
# kill -9 at CRASH_POINTS (20) seeded points of every writing job (CRASH_JOBS, default all) on a world of
# CRASH_SUBSCRIPTIONS (600) subscriptions, each followed by a rerun; the database (every table but run bookkeeping)
# must equal an uninterrupted run's. Runs CrashRestartTests with these sizes and prints a table per job.
# Reproduce one failure with the same CRASH_SEED and CRASH_JOBS=<job>.
source "$(dirname "$0")/common.sh"
export CRASH_POINTS=${CRASH_POINTS:-20} CRASH_SUBSCRIPTIONS=${CRASH_SUBSCRIPTIONS:-600} CRASH_SEED=${CRASH_SEED:-2026}
[ -n "${CRASH_JOBS:-}" ] && export CRASH_JOBS
log="$out/crash.log"
status=0
run_tests CrashRestartTests >"$log" 2>&1 || status=$?
echo "### kill -9 and rerun: $CRASH_POINTS points per job, $CRASH_SUBSCRIPTIONS subscriptions, seed $CRASH_SEED, $(date -u +%Y-%m-%d)"
echo "| job | uninterrupted run | kills | landed mid-run | rerun equal to uninterrupted |"
echo "|---|---|---|---|---|"
awk '/^crash job=/ {
       split($2, j, "="); job = j[2]
       if ($3 == "reference") { ref[job] = $4 " " $5 " " $6; order[++n] = job; next }
       kills[job]++
       if ($0 ~ /mid_run=true/) mid[job]++
       if ($0 ~ /equal=true/) eq[job]++
     }
     END { for (i = 1; i <= n; i++) { k = order[i]; printf "| %s | %s | %d | %d | %d |\n", k, ref[k], kills[k], mid[k], eq[k] } }' "$log"
grep -E "✘|failed|error:" "$log" | grep -v "^crash " | head -20 || true
echo "test exit status: $status (log: $log)"
exit "$status"
