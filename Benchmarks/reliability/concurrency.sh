#!/usr/bin/env bash
# Four requery-at-risk processes plus replay-events, sweep-voided and ack-rescue at once on a world of
# CONCURRENT_SUBSCRIPTIONS (2000) subscriptions, RUNS (3) times; prints the test's figures per run.
source "$(dirname "$0")/common.sh"
export CONCURRENT_SUBSCRIPTIONS=${CONCURRENT_SUBSCRIPTIONS:-2000}
runs=${RUNS:-3}
status=0
echo "### seven jobs at once: $CONCURRENT_SUBSCRIPTIONS subscriptions, $(date -u +%Y-%m-%d)"
for i in $(seq 1 "$runs"); do
  run_tests ConcurrentJobsTests >"$out/concurrency-$i.log" 2>&1 || status=$?
  grep '^concurrency ' "$out/concurrency-$i.log" || { echo "run $i: no figures"; tail -20 "$out/concurrency-$i.log"; }
done
echo "test exit status: $status (logs: $out/concurrency-*.log)"
exit "$status"
