#!/usr/bin/env bash
# The DuckDB peer and ours alternating at 3M (issue 29, round 6): each pair the peer (`google_reconcile_duckdb.py`,
# its psql export's server CPU counted), then `import-exports` of the month's zip staged afresh and `reconcile`, each
# under /usr/bin/time -v; server CPU from the postmaster's reaped backends (run nothing else on the cluster).
#   BIN=FOLDER PAIRS=N Benchmarks/reconcile/duckdb_pairs.sh   (FOLDER holds both binaries; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PGDATABASE=iap_bench_reconcile PYTHONPATH=$PWD/Benchmarks/peers
month=2026-10 zip=$(ls .local/bench/reconcile/920000-2026-10/*.zip) bin=${BIN:-.build/release}
postmaster=$(head -n 1 "$(psql -qtAX -c 'SHOW data_directory')/postmaster.pid")
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15 + $16 + $17) / hz }' "/proc/$postmaster/stat"; }
run() { local label=$1 before; shift; before=$(server_cpu)
  /usr/bin/time -v "$@" >/tmp/h29-pair.out 2>/tmp/h29-pair.time; sleep 0.5
  awk -F': ' -v s="$(awk -v a="$(server_cpu)" -v b="$before" 'BEGIN{printf "%.2f", a-b}')" -v l="$label" '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1]*3600+p[2]*60+p[3] : p[1]*60+p[2] }
    /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2/1024 }
    END { printf "%s: wall %.2f s, client CPU %.2f s, server CPU %.2f s, total CPU %.2f s, peak RSS %.1f MiB\n", l, w, c, s, c+s, r }' /tmp/h29-pair.time; }
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in $(seq ${PAIRS:-2}); do
  run "pair $pair DuckDB" .local/bench/venv/bin/python Benchmarks/peers/google_reconcile_duckdb.py "$zip" "$month" /tmp/h29-duck.csv
  psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'google' AND period = '$month')" \
       -c "DELETE FROM reconciliation_run WHERE provider = 'google' AND period = '$month'" \
       -c "DELETE FROM report_file WHERE kind = 'googleEarnings' AND period = '$month'" -c "VACUUM google_earnings_fact" -c "VACUUM report_file_content"
  run "pair $pair ours import" "$bin/import-exports" --reports-dir "$zip" --log-format json
  rm -rf /tmp/h29-items; run "pair $pair ours reconcile" "$bin/reconcile" --provider google --period "$month" --out /tmp/h29-items --log-format json
  (cd /tmp/h29-items && sha256sum ./* | cut -c1-16 | tr '\n' ' '); echo " (load $(cut -d' ' -f1 /proc/loadavg))"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
