#!/usr/bin/env bash
# The month-end path's two steps apart (issue 29, round 5): for each VARIANT, alternating ROUNDS times (default 3),
# `import-exports --reports-dir ZIP` of MONTH's zip staged afresh (the month's report_file row deleted first), then
# `reconcile --provider google --period MONTH`, each under /usr/bin/time -v: wall, client CPU (user + sys), server CPU
# (the postmaster's reaped backends: run nothing else on the cluster meanwhile) and peak RSS, and the SHA-256 of the
# items and totals CSV (which must not differ between variants).
#   Benchmarks/reconcile/steps.sh MONTH ZIP VARIANT...
# A VARIANT is a folder holding the two binaries, or FOLDER:SQL_FILE to run SQL_FILE before its import (a schema
# variant on the same binaries, e.g. the index of google_earnings_fact before and after migration 0041).
# Uses the database run.sh builds (iap_bench_reconcile) and the PG* variables of the embedded cluster.
set -euo pipefail
month=$1 zip=$2
shift 2
ROUNDS=${ROUNDS:-3}
export PGDATABASE=iap_bench_reconcile
out=${OUT:-$PWD/Benchmarks/out/reconcile-steps}
mkdir -p "$out"
postmaster=$(head -n 1 "$(psql -qtAX -c 'SHOW data_directory')/postmaster.pid")
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15 + $16 + $17) / hz }' "/proc/$postmaster/stat"; }
measure() { # label, command…
  local label=$1 before
  shift
  before=$(server_cpu)
  /usr/bin/time -v "$@" >"$out/step.out" 2>"$out/step.time" || { cat "$out/step.out" "$out/step.time" >&2; return 1; }
  sleep 0.5
  awk -F': ' -v server="$(awk -v a="$(server_cpu)" -v b="$before" 'BEGIN { printf "%.2f", a - b }')" -v label="$label" '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
    /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
    END { printf "%s: wall %.2f s, client CPU %.2f s, server CPU %.2f s, peak RSS %.1f MiB\n", label, w, c, server, r }' "$out/step.time"
}
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  index=0
  for variant in "$@"; do
    index=$((index + 1))
    dir=${variant%%:*} schema=""
    [ "$dir" = "$variant" ] || schema=${variant#*:}
    psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'google' AND period = '$month')" \
         -c "DELETE FROM reconciliation_run WHERE provider = 'google' AND period = '$month'" \
         -c "DELETE FROM report_file WHERE kind = 'googleEarnings' AND period = '$month'" \
         -c "VACUUM google_earnings_fact" -c "VACUUM report_file_content"
    [ -z "$schema" ] || psql -q -f "$schema"
    echo "round $round, variant $index ($variant), load $(cut -d' ' -f1 /proc/loadavg)"
    measure "  import" "$dir/import-exports" --reports-dir "$zip" --log-format json
    rm -rf "$out/items-$index"
    measure "  reconcile" "$dir/reconcile" --provider google --period "$month" --out "$out/items-$index" --log-format json
    echo "  $(cd "$out/items-$index" && sha256sum ./* | cut -c1-16 | tr '\n' ' ')"
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
