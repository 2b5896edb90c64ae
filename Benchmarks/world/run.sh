#!/usr/bin/env bash
# The `world` benchmark (called by Benchmarks/run.sh world): generates and loads SUBS subscriptions × MONTHS
# months into a fresh migrated database with the release `world` executable and prints a markdown section.
# Peer: `psql \copy` loading the same rows of the biggest table (inbound_webhook_event: most bytes, jsonb
# payloads, no foreign keys, so it loads alone into a fresh migrated database with the same indexes).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/release-flags.sh
SUBS=${SUBS:-1000000}
MONTHS=${MONTHS:-12}
FAULTS=${FAULTS:-all=0.02}
AS_OF=${AS_OF:-2026-11-29}
db=${WORLD_DB:-iap_bench_world}
out=${WORLD_OUT:-Benchmarks/out/world}
mkdir -p "$out"
if [ -n "${WORLD_BIN:-}" ]; then # a prebuilt release folder holding `world` (and `migrate`, else psql applies SQL/migrations)
  bin=$WORLD_BIN
else
  swift build "${RELEASE_FLAGS[@]}" --product world >/dev/null
  swift build "${RELEASE_FLAGS[@]}" --product migrate >/dev/null
  bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
fi
fresh() { # database name: drop, create, migrate
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" 2>/dev/null
  if [ -x "$bin/migrate" ]; then
    PGDATABASE=$1 "$bin/migrate" --log-format json >/dev/null 2>&1
  else
    for file in SQL/migrations/*.sql; do psql -q -v ON_ERROR_STOP=1 -d "$1" -f "$file" >/dev/null; done
  fi
}
now() { date +%s.%N; }
fresh $db
rm -rf "$out/truth"
load=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(now)
summary=$(PGDATABASE=$db /usr/bin/time -v -o "$out/time.txt" "$bin/world" --seed 42 --subscriptions "$SUBS" \
  --months "$MONTHS" --as-of "$AS_OF" --out "$out/truth" --faults "$FAULTS" --log-format json 2>"$out/world.log" | tail -n 1)
wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
rss=$(awk -F': ' '/Maximum resident/ { printf "%.2f GiB", $2 / 1048576 }' "$out/time.txt")
cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.0f s user + %.0f s system", u, s }' "$out/time.txt")
rows=""
for table in app_user billing_account subscription apple_subscription_identity google_purchase_token inbound_webhook_event \
             billing_transaction subscription_price_change entitlement; do
  n=$(psql -qtA -d $db -c "SELECT count(*) FROM $table")
  size=$(psql -qtA -d $db -c "SELECT pg_size_pretty(pg_total_relation_size('$table'))")
  rows="$rows| \`$table\` | $n | $size |
"
done
files=$(du -sh "$out/truth" | cut -f1)
peer_rows=$(psql -qtA -d $db -c "SELECT count(*) FROM inbound_webhook_event")
psql -q -d $db -c "\\copy inbound_webhook_event TO '$out/inbound_webhook_event.tsv'"
peer_size=$(du -m "$out/inbound_webhook_event.tsv" | cut -f1)
fresh ${db}_peer
psql -q -d ${db}_peer -c "CHECKPOINT"
t0=$(now); psql -q -d ${db}_peer -c "\\copy inbound_webhook_event FROM '$out/inbound_webhook_event.tsv'"
peer=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
rm -f "$out/inbound_webhook_event.tsv"
psql -q -d postgres -c "DROP DATABASE IF EXISTS ${db}_peer WITH (FORCE)"
verdict=$(awk -v w="$wall" 'BEGIN { print (w < 180) ? "met" : "**missed**" }')
cat <<MD
### World: $SUBS subscriptions × $MONTHS months generated and loaded, $(date -u +%Y-%m-%d)
| | |
|---|---|
| ours: \`world --subscriptions $SUBS --months $MONTHS --faults $FAULTS\` (release; generation, COPY load, truth folder, report files, manifest) | **$wall s** wall ($cpu), peak RSS $rss |
| peer: \`psql \\copy\` of the same $peer_rows \`inbound_webhook_event\` rows ($peer_size MiB) into a fresh migrated database | $peer s |

Target: under 180 s ($verdict). Truth folder with reports: $files. Load average at the start: $load, at the end: $load_end (2 cores).
Rows loaded (after the \`missing_in_database\` report discrepancies were left out):

| table | rows | size |
|---|---|---|
$rows
Peer choice: \`inbound_webhook_event\` is the largest table by bytes (jsonb payloads) and has no foreign keys,
so \`psql\` can load exactly our rows alone; it is the floor for that one table, while ours also generates
the world and loads eight more tables. Reproduce: \`Benchmarks/run.sh world\` (SUBS, MONTHS, FAULTS; WORLD_BIN for a prebuilt release folder).
\`\`\`
$summary
\`\`\`

MD
