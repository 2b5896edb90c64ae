#!/usr/bin/env bash
# Part of the `reports` benchmark (Benchmarks/reports/run.sh calls it after its own section, on the world it built):
# build-reports (release) against the DuckDB peer Benchmarks/peers/reports_duckdb.py, and the nightly case, side by
# side, alternated within each of ROUNDS rounds. Prints a markdown section.
#   * the previous night: build-reports as of AS_OF minus one day (it stores the complete months);
#   * each round: `nightly` = build-reports as of AS_OF, reusing the stored months (the day's rows are new to it);
#     `full` = the same with --full; `duckdb` = the peer (every report).
#     `floor` = the peer's export alone (--export-only: the same COPYs read to their end and discarded), what reading
#     these inputs out of PostgreSQL costs before anything is computed.
# The nightly files must be byte-identical to the full run's; the peer's CSVs cell-equal to build-reports'.
# As deployed (Benchmarks/reports/as_deployed.sh): build-reports is the installed one (REPORT_BIN installed into
# REPORT_OUT/installed by `make install-files`), run as iap_job from a working directory of its own, identifiers masked;
# the peer reads as iap_job too and masks the same columns.
# Environment: REPORT_DB, REPORT_BIN (release folder with build-reports), REPORT_OUT, AS_OF, REPORT_MONTHS, ROUNDS,
# RUNS (default "nightly full duckdb floor"; "full" alone measures build-reports' full run, e.g. where the peer would not fit
# in memory, and skips the previous night's run; "old" runs OLD_BIN's build-reports --full, another build alternated
# with this one, reading the report SQL in OLD_SQL_DIR (default Reports/), whose files must be byte-identical to the
# full run's).
set -euo pipefail
cd "$(dirname "$0")/../.."
db=${REPORT_DB:-bench_reports}
bin=${REPORT_BIN:?REPORT_BIN names the release folder holding build-reports}
out=${REPORT_OUT:-Benchmarks/out/reports}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}
REPORT_MONTHS=${REPORT_MONTHS:-24}
ROUNDS=${ROUNDS:-2}
RUNS=${RUNS:-nightly full duckdb floor}
source Benchmarks/reports/measure.sh
source Benchmarks/reports/as_deployed.sh
mkdir -p "$out"
out=$(realpath "$out")
prefix=$out/installed work=$out/work
mkdir -p "$work"
as_deployed "$db" "$bin" "$prefix"
venv="Benchmarks/out/venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import duckdb' 2>/dev/null || "$venv/bin/pip" install --quiet duckdb
duck_reports=mrr,mrr_bridge,mrr_movements,refunds,grace_hold_recovery,entitlement_leakage,price_change_churn,subscribers,kpis,trial_conversion,plan_change_mix,cohorts
last=$(date -u -d "${AS_OF%%T*}" +%Y-%m)
first=$(date -u -d "${AS_OF%%T*} -$((REPORT_MONTHS - 1)) months" +%Y-%m)
previous=$(date -u -d "${AS_OF%%T*} -1 day" +%Y-%m-%dT%H:%M:%SZ)
common=(--from "$first" --to "$last" --currency USD --basis corrected --log-format json)
dsn="host=$PGHOST port=$PGPORT user=iap_job dbname=$db"
job=(env -C "$work" PGUSER=iap_job) # the deployed command line: the job role, a working directory of its own
export PGDATABASE=$db
subs=$(psql -qtA -c "SELECT count(*) FROM subscription"); history=$(psql -qtA -c "SELECT count(*) FROM billing_transaction")
# build-reports' own seconds for the reports the peer writes (and the shared tables they need), from a job summary
four() { "$venv/bin/python" -c 'import json, sys
n = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
print("%.1f" % sum(float(n.get("seconds_" + k, 0)) for k in ["shared_tables", "movements"] + sys.argv[2].split(",")))' "$1" "$duck_reports"; }
rm -rf "$out"/prev "$out"/nightly-* "$out"/full-* "$out"/old-* "$out"/duckdb-* "$out"/floor-*
case " $RUNS " in *" nightly "*) read -r _ _ _ _ <<<"$(measure prev "${job[@]}" "$prefix/bin/build-reports" --as-of "$previous" "${common[@]}" --out "$out/prev")" ;; esac
# "byte-identical", or every file of folder $1 that differs from (or is missing in) folder $2
differing() {
  local f list=""
  for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || list+="${list:+, }$(basename "$f")"; done
  if [ -z "$list" ]; then echo "byte-identical"; else echo "**differ** ($list)"; fi
}
rows=""
for round in $(seq 1 "$ROUNDS"); do
  for who in $RUNS; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $who in
      nightly) line=$(measure "nightly-$round" "${job[@]}" "$prefix/bin/build-reports" --as-of "$AS_OF" "${common[@]}" --out "$out/nightly-$round") ;;
      full) line=$(measure "full-$round" "${job[@]}" "$prefix/bin/build-reports" --as-of "$AS_OF" "${common[@]}" --full --out "$out/full-$round") ;;
      old) line=$(measure "old-$round" "${job[@]}" REPORT_SQL_DIR="${OLD_SQL_DIR:-$PWD/Reports}" "${OLD_BIN:?OLD_BIN names the folder of the other build-reports}/build-reports" \
                --as-of "$AS_OF" "${common[@]}" --full --out "$out/old-$round") ;;
      duckdb) line=$(measure "duckdb-$round" "$venv/bin/python" Benchmarks/peers/reports_duckdb.py --dsn "$dsn" --as-of "$AS_OF" \
                --from "$first" --to "$last" --currency USD --basis corrected --out "$out/duckdb-$round") ;;
      floor) line=$(measure "floor-$round" "$venv/bin/python" Benchmarks/peers/reports_duckdb.py --dsn "$dsn" --as-of "$AS_OF" \
                --from "$first" --to "$last" --currency USD --basis corrected --export-only --out "$out/floor-$round") ;;
    esac
    read -r wall cpu rss server <<<"$line"
    part="n/a"
    case $who in duckdb | floor) ;; *) part=$(four "$out/$who-$round.out") ;; esac
    rows+="| $round | $who | $wall | $cpu | $server | $(awk -v a="$cpu" -v b="$server" 'BEGIN { printf "%.1f", a + b }') | $rss MiB | $part | $load |"$'\n'
  done
  same="not run" agree="not run"
  if [ -d "$out/nightly-$round" ]; then
    same=$(differing "$out/full-$round" "$out/nightly-$round")
  fi
  if [ -d "$out/old-$round" ]; then
    same+="; old vs full: $(differing "$out/full-$round" "$out/old-$round")"
  fi
  [ -d "$out/duckdb-$round" ] \
    && agree=$("$venv/bin/python" Benchmarks/reports/compare_csv.py "$out/full-$round" "$out/duckdb-$round" 5 "$duck_reports" | grep "^==" | tr '\n' ' ')
  rows+="| $round | nightly vs full: $same; duckdb vs full: $agree |||||||"$'\n'
done
cat <<MD
### build-reports against DuckDB, and the nightly run: $subs subscriptions × $REPORT_MONTHS months ($history history rows), $(date -u +%Y-%m-%d)
As of $AS_OF, $first..$last, USD, corrected; build-reports writes every report (CSV and XLSX), the DuckDB peer
(\`Benchmarks/peers/reports_duckdb.py\`, DuckDB $("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)'), 2 threads) writes
$duck_reports (CSV), its export by psql COPY included; \`floor\` is that export alone, read and discarded. As deployed:
the installed build-reports (\`make install-files\`) as iap_job from its own working directory, identifiers masked, and
the peer as iap_job masking the same columns. \`nightly\` reuses the months stored by the previous night's run (as of
$previous) and the rounds before; \`full\` is \`--full\`. "peer's reports s" is build-reports' own seconds (its job summary) for
the shared tables and the reports the peer writes.

| round | run | wall s | client CPU s | server CPU s | CPU s (both) | peak RSS | peer's reports s | load (1 min) |
|---|---|---|---|---|---|---|---|---|
$rows
Reproduce: \`Benchmarks/run.sh reports\` (this section is Benchmarks/reports/duckdb_nightly.sh; ROUNDS, AS_OF).

MD
