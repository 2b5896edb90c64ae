#!/usr/bin/env bash
# Where the month-end path's threads wait (issue 29, evening round): one `import-exports` (the month's zip staged
# afresh) or one `reconcile` of MONTH under a system-wide `perf record -a`, then the CPU samples per 0.2 s by process
# (PostgreSQL backends by pid, the job's threads by tid, `swapper` = idle). About 200 samples per 0.2 s are one core
# busy; a line with a large `swapper` count is a moment the two cores were not both working.
#   Benchmarks/reconcile/timeline.sh import|reconcile MONTH ZIP [FOLDER]   (FOLDER holds both binaries; default
#   .build/release). Needs `perf` (Debian: linux-perf) and the database run.sh builds (iap_bench_reconcile); run
#   nothing else meanwhile.
set -euo pipefail
step=$1 month=$2 zip=$3 bin=${4:-.build/release}
export PGDATABASE=iap_bench_reconcile
command -v perf >/dev/null || { echo "timeline.sh: perf is not installed (Debian package linux-perf)" >&2; exit 2; }
data=$(mktemp /tmp/timeline.XXXXXX)
out=$(mktemp -d /tmp/timeline-out.XXXXXX)
trap 'rm -rf "$data" "$out"' EXIT
case $step in
  import)
    psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'google' AND period = '$month')" \
         -c "DELETE FROM reconciliation_run WHERE provider = 'google' AND period = '$month'" \
         -c "DELETE FROM report_file WHERE kind = 'googleEarnings' AND period = '$month'" -c "VACUUM google_earnings_fact"
    perf record -a -F 997 -o "$data" -- "$bin/import-exports" --reports-dir "$zip" --log-format json >/dev/null 2>&1 ;;
  reconcile)
    perf record -a -F 997 -o "$data" -- "$bin/reconcile" --provider google --period "$month" --out "$out" --log-format json >/dev/null 2>&1 ;;
  *) echo "timeline.sh: the step is import or reconcile, not '$step'" >&2; exit 2 ;;
esac
perf script -i "$data" -F comm,tid,time 2>/dev/null | awk '
  { t = $3 + 0; if (!s) s = t; b = int((t - s) * 5); k = $1
    if (k ~ /postgres/) k = "pg:" $2; else if (k ~ /import|reconcile/) k = "job:" $2
    c[b " " k]++ }
  END { for (x in c) print x, c[x] }' | sort -k1,1n -k3,3nr |
  awk '{ if (!started || $1 != p) { printf "%s%.1fs:", (started ? "\n" : ""), $1 / 5; p = $1; started = 1 }
         if ($3 > 5) printf " %s=%d", $2, $3 } END { print "" }'
