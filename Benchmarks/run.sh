#!/usr/bin/env bash
# Benchmark driver: each benchmark runs our code and its named peer side by side in the same run,
# on the same input, and prints a markdown section for Benchmarks/results.md.
# Needs the PG* variables of the embedded cluster (`make bench` sets them).
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:-all}
ROWS=${ROWS:-1000000}
HISTORIES=${HISTORIES:-100000}
REPEATS=${REPEATS:-3}
out=Benchmarks/out
mkdir -p "$out"

swift build -c release --product bench-copy-load >/dev/null
swift build -c release --product bench-projection >/dev/null
swift build -c release --product migrate >/dev/null
bin=$(swift build -c release --show-bin-path)

fresh_database() { # name: drop, create, migrate, seed one account, plan and Apple product mapping
  export PGDATABASE=$1
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" 2>/dev/null
  "$bin/migrate" --log-format json >/dev/null 2>&1
  psql -qtA -c "
    WITH u AS (INSERT INTO app_user (email) VALUES ('bench@example.com') RETURNING id),
         a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
         p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('BENCH', 'Bench', 'MONTHLY', 'P1M') RETURNING id),
         m AS (INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key)
               SELECT 'APPLE', id, 'com.example.fitness.pro.monthly', 'bench' FROM p)
    INSERT INTO subscription (provider, billing_account_id, plan_id, status) SELECT 'APPLE', a.id, p.id, 'ACTIVE' FROM a, p RETURNING id" | head -n 1
}

if [ "$WHICH" = all ] || [ "$WHICH" = projection ]; then
  fresh_database iap_bench_projection >/dev/null
  result=$("$bin/bench-projection" "$HISTORIES" 2)
  cat <<MD
### Projection: $HISTORIES synthetic Apple subscription histories, $(date -u +%Y-%m-%d)
\`\`\`
$result
\`\`\`
pure = \`Projection.project\` folded over every event of every history (1 thread, release build);
writer = each history's final state applied by \`ProjectionWriter.project\` as a re-query (row lock,
read, project, idempotent upserts, drift check) in its own transaction, 2 connections. No peer is
named for this entry. Reproduce: \`make bench\` (or \`Benchmarks/run.sh projection\`).

MD
fi
[ "$WHICH" = all ] || [ "$WHICH" = copy ] || exit 0

export PGDATABASE=iap_bench
subscription=$(fresh_database iap_bench)
csv="$out/billing_transaction.csv"
"$bin/bench-copy-load" generate "$csv" "$ROWS" "$subscription"
columns=$("$bin/bench-copy-load" columns)

now() { date +%s.%N; }
ours=(); peer=()
for i in $(seq "$REPEATS"); do
  psql -q -c "TRUNCATE billing_transaction" -c "CHECKPOINT"
  t0=$(now); psql -q -c "\\copy billing_transaction ($columns) FROM '$csv' WITH (FORMAT csv)"; t1=$(now)
  peer+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  psql -q -c "TRUNCATE billing_transaction" -c "CHECKPOINT"
  t0=$(now); "$bin/bench-copy-load" load "$csv" >/dev/null; t1=$(now)
  ours+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
done
count=$(psql -qtA -c "SELECT count(*) FROM billing_transaction")
[ "$count" = "$ROWS" ] || { echo "expected $ROWS rows, found $count" >&2; exit 1; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
m_ours=$(median "${ours[@]}"); m_peer=$(median "${peer[@]}")
ratio=$(awk -v a="$m_ours" -v b="$m_peer" 'BEGIN { print a / b }')
size=$(du -m "$csv" | cut -f1)
cat <<MD
### COPY load: $ROWS BillingTransaction rows ($size MiB CSV), $(date -u +%Y-%m-%d)
| | median of $REPEATS | runs (s) |
|---|---|---|
| ours: \`Postgres.copyIn\` streaming the file (release build) | $(printf '%.2f' "$m_ours") s | $(printf '%.2f ' "${ours[@]}") |
| peer: \`psql \\copy\` of the same file | $(printf '%.2f' "$m_peer") s | $(printf '%.2f ' "${peer[@]}") |

ratio ours / psql = **$(printf '%.2f' "$ratio")** (target ≤ 1.30). Reproduce: \`make bench\`.
MD
