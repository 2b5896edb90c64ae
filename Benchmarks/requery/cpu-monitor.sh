#!/usr/bin/env bash
# Profile aid for Benchmarks/results.md (requery): every 2 s prints epoch seconds, the machine's CPU ticks and the CPU ticks
# of requery-at-risk, store-simulator, the Python peer and the bench_* PostgreSQL backends. Stops when /tmp/mon.stop exists.
while [ ! -f /tmp/mon.stop ]; do
  t=$(date +%s.%N)
  all=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat)
  sum() { local s=0; for p in $(pgrep -f "$1" 2>/dev/null); do v=$(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || echo 0); s=$((s+v)); done; echo $s; }
  rq=$(sum 'release/requery-at-risk'); sim=$(sum 'release/store-simulator'); py=$(sum 'apple_requery.py')
  pg=0; for p in $(pgrep -f "postgres: postgres bench_"); do v=$(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null || echo 0); pg=$((pg+v)); done
  echo "$t $all $rq $sim $py $pg"
  sleep 2
done
