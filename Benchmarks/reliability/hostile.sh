#!/usr/bin/env bash
# The repair chain against a simulator faulting 20 % of requests over every kind, on a world of
# HOSTILE_SUBSCRIPTIONS (1000) subscriptions with HOSTILE_OVERSIZED_BYTES (16 MiB) oversized bodies: per job its exit
# code, peak RSS and summary, the faults injected, and whether a fault-free rerun converges to the clean run.
source "$(dirname "$0")/common.sh"
export HOSTILE_SUBSCRIPTIONS=${HOSTILE_SUBSCRIPTIONS:-1000} HOSTILE_OVERSIZED_BYTES=${HOSTILE_OVERSIZED_BYTES:-16777216}
log="$out/hostile.log"
status=0
run_tests HostileStoreTests >"$log" 2>&1 || status=$?
echo "### hostile store: 20 % faults, $HOSTILE_SUBSCRIPTIONS subscriptions, oversized bodies of $HOSTILE_OVERSIZED_BYTES bytes, $(date -u +%Y-%m-%d)"
echo "| job | exit | peak RSS (MiB) | seconds |"
echo "|---|---|---|---|"
awk '/^hostile job=/ { split($2, j, "="); split($3, e, "="); split($4, r, "="); split($5, s, "=")
       printf "| %s | %s | %.1f | %s |\n", j[2], e[2], r[2] / 1024, s[2] }' "$log"
grep -E '^hostile (injected|rerun)' "$log" || true
grep -E "✘|error:" "$log" | head -20 || true
echo "test exit status: $status (log: $log)"
exit "$status"
