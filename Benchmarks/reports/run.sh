#!/usr/bin/env bash
# The `reports` benchmark (called by Benchmarks/run.sh reports): build-reports (release) over REPORT_MONTHS months of a
# REPORT_SUBS-subscription world against the pandas peer Benchmarks/peers/reports_peer.py reading the same database,
# back to back in one invocation, each under /usr/bin/time -v (wall, CPU, peak RSS); then the two folders are compared
# cell by cell (Benchmarks/reports/compare_csv.py) when the peer is present. Prints a markdown section.
#
# The world: `world` (the story generator, seed 42, no faults) generates BASE_SUBS subscriptions over REPORT_MONTHS
# months, and Benchmarks/reports/replicate.sql multiplies it to REPORT_SUBS (disjoint copies, ids remapped; only the
# tables the reports read). It is built once into the database REPORT_DB and reused while .local/bench/<REPORT_DB>.done
# names the same sizes (REPORT_REBUILD=1 rebuilds it).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/release-flags.sh
REPORT_SUBS=${REPORT_SUBS:-1000000}
BASE_SUBS=${BASE_SUBS:-100000}
REPORT_MONTHS=${REPORT_MONTHS:-24}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}
db=${REPORT_DB:-bench_reports}
out=${REPORT_OUT:-Benchmarks/out/reports}
cache=.local/bench
mkdir -p "$out" "$cache"
copies=$(( (REPORT_SUBS + BASE_SUBS - 1) / BASE_SUBS ))
if [ -n "${REPORT_BIN:-}" ]; then # a prebuilt release folder holding every job and world (as `make release` leaves it)
  bin=$REPORT_BIN
else # every job: the DuckDB section installs them as `make install` does
  swift build "${RELEASE_FLAGS[@]}" >/dev/null
  bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
fi
now() { date +%s.%N; }
stamp="base=$BASE_SUBS copies=$copies months=$REPORT_MONTHS as_of=$AS_OF migrations=$(ls SQL/migrations | tail -n 1)"
if [ "${REPORT_REBUILD:-0}" = 1 ] || [ "$(cat "$cache/$db.done" 2>/dev/null)" != "$stamp" ]; then
  rm -f "$cache/$db.done"
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
  PGDATABASE=$db "$bin/migrate" --log-format json >/dev/null 2>"$cache/$db-migrate.log"
  t0=$(now)
  rm -rf "$cache/$db-truth"
  PGDATABASE=$db /usr/bin/time -v -o "$cache/$db-world.time" "$bin/world" --seed 42 --subscriptions "$BASE_SUBS" \
    --months "$REPORT_MONTHS" --as-of "$AS_OF" --out "$cache/$db-truth" --log-format json >/dev/null 2>"$cache/$db-world.log"
  t1=$(now)
  psql -q -d "$db" -v copies="$copies" -f Benchmarks/reports/replicate.sql
  t2=$(now)
  rm -rf "$cache/$db-truth"
  world_rss=$(awk -F': ' '/Maximum resident/ { printf "%.2f GiB", $2 / 1048576 }' "$cache/$db-world.time")
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v r="$world_rss" -v n="$BASE_SUBS" -v k="$copies" 'BEGIN {
    printf "world %d subscriptions: %.0f s (peak RSS %s); replicate.sql × %d: %.0f s\n", n, b - a, r, k, c - b }' >"$cache/$db-built.txt"
  echo "$stamp" >"$cache/$db.done"
fi
built=$(cat "$cache/$db-built.txt")
rows() { psql -qtA -d "$db" -c "SELECT count(*) FROM $1"; }
subs=$(rows subscription); history=$(rows billing_transaction); db_size=$(psql -qtA -d "$db" -c "SELECT pg_size_pretty(pg_database_size('$db'))")
last=$(date -u -d "${AS_OF%%T*}" +%Y-%m)
first=$(date -u -d "${AS_OF%%T*} -$((REPORT_MONTHS - 1)) months" +%Y-%m)
source Benchmarks/reports/measure.sh
load=$(cut -d' ' -f1-3 /proc/loadavg)
rm -rf "$out/ours" "$out/peer"
read -r o_wall o_cpu o_rss o_server <<<"$(PGDATABASE=$db measure ours "$bin/build-reports" --as-of "$AS_OF" --from "$first" --to "$last" \
  --currency USD --basis corrected --raw-ids --out "$out/ours" --log-format json)"
peer_line="peer: \`Benchmarks/peers/reports_peer.py\` is not in this tree yet; skipped (the lead reruns after merging it)"
agree="not compared (no peer)"
ratio="n/a"
cpu_ratio="n/a"
if [ -f Benchmarks/peers/reports_peer.py ]; then
  venv="Benchmarks/out/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c 'import pandas, psycopg2' 2>/dev/null || "$venv/bin/pip" install --quiet pandas psycopg2-binary
  dsn="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$db"
  read -r p_wall p_cpu p_rss p_server <<<"$(measure peer "$venv/bin/python" Benchmarks/peers/reports_peer.py --dsn "$dsn" --as-of "$AS_OF" \
    --from "$first" --to "$last" --currency USD --basis corrected --out "$out/peer")"
  peer_line="peer: pandas \`Benchmarks/peers/reports_peer.py\` (same database, same options) | $p_wall | $p_cpu | $p_server | $p_rss MiB"
  ratio=$(awk -v a="$p_wall" -v b="$o_wall" 'BEGIN { printf "%.1f", a / b }')
  cpu_ratio=$(awk -v a="$p_cpu" -v b="$p_server" -v c="$o_cpu" -v d="$o_server" 'BEGIN { printf "%.1f", (a + b) / (c + d) }')
  if "$venv/bin/python" Benchmarks/reports/compare_csv.py "$out/ours" "$out/peer" 5 >"$out/compare.txt" 2>&1; then
    agree="every CSV cell equal"
  else
    agree="**disagree**: see $out/compare.txt"
  fi
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
verdict=$(awk -v r="$ratio" 'BEGIN { print (r != "n/a" && r >= 5) ? "met" : (r == "n/a" ? "not measured" : "**missed**") }')
per_report=$(grep -o '"report [a-z_]*: [0-9]* rows"\|report [a-z_]*: [0-9]* rows' "$out/ours.out" "$out/ours.time" 2>/dev/null | sed 's/.*report /report /' | tr '\n' ';' || true)
cat <<MD
### build-reports: $subs subscriptions × $REPORT_MONTHS months ($history history rows, database $db_size), $(date -u +%Y-%m-%d)
Every report of Reports/ from $first to $last as of $AS_OF, USD, basis corrected, CSV and XLSX.

| | wall s | CPU s (client) | CPU s (PostgreSQL server) | peak RSS (client) |
|---|---|---|---|---|
| ours: \`build-reports\` (release) | **$o_wall** | $o_cpu | $o_server | $o_rss MiB |
| $peer_line |

peer / ours = **$ratio×** wall (target ≥ 5×: $verdict), $cpu_ratio× CPU (client + server); outputs: $agree.
World: $BASE_SUBS subscriptions from \`world --seed 42 --months $REPORT_MONTHS\` (no faults) × $copies copies by
\`Benchmarks/reports/replicate.sql\` ($built). Rows per report: $per_report
Load average at the start: $load; at the end: $load_end (2 cores, shared). The server's CPU is sampled from /proc by
\`Benchmarks/reports/backend_cpu.sh\` (the client's \`time\` cannot see it).
Reproduce: \`Benchmarks/run.sh reports\` (REPORT_SUBS, BASE_SUBS, REPORT_MONTHS, AS_OF; REPORT_REBUILD=1 rebuilds the cached world).

MD

# The DuckDB peer and the nightly (incremental) case on the same database: Benchmarks/reports/duckdb_nightly.sh.
REPORT_DB=$db REPORT_BIN=$bin REPORT_OUT=$out AS_OF=$AS_OF REPORT_MONTHS=$REPORT_MONTHS Benchmarks/reports/duckdb_nightly.sh
