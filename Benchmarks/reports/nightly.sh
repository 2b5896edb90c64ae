#!/usr/bin/env bash
# The nightly case of issue 31 (Reports/README.md, "Incremental runs"): build-reports (release) as the nightly chain
# runs it, against a full recomputation, on the world in REPORT_DB. Per round, alternated:
#   * `prev`    build-reports as of AS_OF minus one day, reusing what is stored (it stores the complete months and the
#               spans as the previous night leaves them; the first round's is a cold run);
#   * `nightly` build-reports as of AS_OF: the day's rows are new to it;
#   * `full`    the same with --full.
# The nightly files must be byte-identical to the full run's (cmp). Prints a markdown table with wall, client and
# server CPU (Benchmarks/reports/backend_cpu.sh), peak RSS, the job's seconds for the shared fill, the spans it
# recomputed and read back, and the load average.
# Environment: REPORT_DB, REPORT_BIN (release folder holding build-reports), REPORT_OUT, AS_OF, REPORT_MONTHS, ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/../.."
db=${REPORT_DB:-bench_reports}
bin=${REPORT_BIN:?REPORT_BIN names the release folder holding build-reports}
out=${REPORT_OUT:-Benchmarks/out/nightly}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}
REPORT_MONTHS=${REPORT_MONTHS:-24}
ROUNDS=${ROUNDS:-1}
source Benchmarks/reports/measure.sh
mkdir -p "$out"
last=$(date -u -d "${AS_OF%%T*}" +%Y-%m)
first=$(date -u -d "${AS_OF%%T*} -$((REPORT_MONTHS - 1)) months" +%Y-%m)
previous=$(date -u -d "${AS_OF%%T*} -1 day" +%Y-%m-%dT%H:%M:%SZ)
common=(--from "$first" --to "$last" --currency USD --basis corrected --raw-ids --log-format json)
export PGDATABASE=$db
subs=$(psql -qtA -c "SELECT count(*) FROM subscription"); history=$(psql -qtA -c "SELECT count(*) FROM billing_transaction")
day=$(psql -qtA -c "SELECT count(*) FROM billing_transaction WHERE effective_at > '$previous' AND effective_at <= '$AS_OF'")
# From a job summary (its last line): the shared fill's seconds, spans recomputed / read back.
summary() { python3 -c 'import json, sys
n = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); c = n.get("counts", {})
print(n.get("seconds_shared_tables", "?"), "%s / %s" % (c.get("spans_recomputed", "?"), c.get("spans_reused", "?")))' "$1"; }
rows=""
for round in $(seq 1 "$ROUNDS"); do
  rm -rf "$out/prev-$round" "$out/nightly-$round" "$out/full-$round"
  for who in prev nightly full; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $who in
      prev) args=(--as-of "$previous") ;;
      nightly) args=(--as-of "$AS_OF") ;;
      full) args=(--as-of "$AS_OF" --full) ;;
    esac
    read -r wall cpu rss server <<<"$(measure "$who-$round" "$bin/build-reports" "${args[@]}" "${common[@]}" --out "$out/$who-$round")"
    read -r fill spans_a _ spans_b <<<"$(summary "$out/$who-$round.out")"
    rows+="| $round | $who | $wall | $cpu | $server | $(awk -v a="$cpu" -v b="$server" 'BEGIN { printf "%.1f", a + b }') | $rss MiB | $fill | $spans_a / $spans_b | $load |"$'\n'
  done
  same="byte-identical"
  for f in "$out/full-$round"/*; do cmp -s "$f" "$out/nightly-$round/$(basename "$f")" || same="**differ** ($(basename "$f"))"; done
  rows+="| $round | nightly vs full: $same |||||||||"$'\n'
done
cat <<MD
### The nightly case: $subs subscriptions × $REPORT_MONTHS months ($history history rows; $day effective in the last day), $(date -u +%Y-%m-%d)
As of $AS_OF, $first..$last, USD, corrected, every report (CSV and XLSX). \`prev\` runs as of $previous (the previous
night), \`nightly\` as of $AS_OF reusing what \`prev\` stored, \`full\` with \`--full\`.

| round | run | wall s | client CPU s | server CPU s | CPU s (both) | peak RSS | shared fill s | spans recomputed / read back | load (1 min) |
|---|---|---|---|---|---|---|---|---|---|
$rows
Reproduce: \`REPORT_DB=$db REPORT_BIN=<release folder> Benchmarks/reports/nightly.sh\`.

MD
