#!/usr/bin/env bash
# Peak RSS and wall of the reconcile step alone, two builds side by side: `reconcile --provider google --period M`
# of each size's month (the inputs `Benchmarks/reconcile/run.sh` builds in database iap_bench_reconcile; each month's
# zip is staged once here with IMPORT, default the release import-exports), BEFORE and AFTER (two reconcile binaries)
# alternating PAIRS times (default 3, the first of each pair swapping), each under /usr/bin/time -v. The two items
# CSVs and totals of every size must be byte-identical (their SHA-256 are printed), or the run fails.
#   Benchmarks/reconcile/peak_rss.sh BEFORE AFTER
# Needs the PG* variables of the embedded cluster (`eval "$(Tests/Harness/pg-cluster.sh env)"`).
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=$2
ORDERS=${RECONCILE_ORDERS:-"92000 306000 920000"}
PAIRS=${PAIRS:-3}
source Benchmarks/release-flags.sh
IMPORT=${IMPORT:-$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)/import-exports}
cache=$PWD/.local/bench/reconcile
out=${OUT:-$PWD/Benchmarks/out/reconcile-rss}
export PGDATABASE=iap_bench_reconcile
mkdir -p "$out"
declare -A month_of
for orders in $ORDERS; do
  # The size's month, as run.sh chose it (the input folder is named orders-month).
  month=$(basename "$(ls -d "$cache/$orders"-*)" | cut -d- -f2-)
  month_of[$orders]=$month
  if [ "$(psql -qtA -c "SELECT count(*) FROM report_file WHERE kind = 'googleEarnings' AND period = '$month'")" = 0 ]; then
    "$IMPORT" --reports-dir "$(ls "$cache/$orders-$month"/earnings_*.zip)" --log-format json >/dev/null
  fi
done
run() { # variant, binary, orders: prints "wall_s peak_rss_mib client_cpu_s"
  local variant=$1 binary=$2 orders=$3 month=${month_of[$3]}
  psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'google' AND period = '$month')" \
       -c "DELETE FROM reconciliation_run WHERE provider = 'google' AND period = '$month'"
  rm -rf "$out/$variant-$orders"
  /usr/bin/time -v "$binary" --provider google --period "$month" --out "$out/$variant-$orders" --log-format json \
    >"$out/$variant-$orders.log" 2>"$out/$variant-$orders.time" || { cat "$out/$variant-$orders.time" >&2; return 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
              /User time|System time/ { c += $2 }
              /Maximum resident set size/ { r = $2 / 1024 } END { printf "%.2f %.1f %.2f", w, r, c }' "$out/$variant-$orders.time"
}
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in $(seq "$PAIRS"); do
  for orders in $ORDERS; do
    if [ $((pair % 2)) = 1 ]; then order="before after"; else order="after before"; fi
    for variant in $order; do
      binary=$before; [ "$variant" = after ] && binary=$after
      echo "pair $pair, $orders orders (${month_of[$orders]}), $variant: $(run "$variant" "$binary" "$orders") (wall s, peak RSS MiB, client CPU s), load $(cut -d' ' -f1 /proc/loadavg)"
    done
    for file in "$out/before-$orders"/*; do
      cmp -s "$file" "$out/after-$orders/$(basename "$file")" || { echo "peak_rss: $(basename "$file") differs at $orders orders" >&2; exit 1; }
    done
  done
done
for orders in $ORDERS; do (cd "$out/after-$orders" && sha256sum ./*); done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
