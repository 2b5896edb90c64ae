#!/usr/bin/env bash
# Benchmark driver: each benchmark runs our code and its named peer side by side in the same run,
# on the same input, and prints a markdown section for Benchmarks/results.md.
# Needs the PG* variables of the embedded cluster (`make bench` sets them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
REPEATS=${REPEATS:-3}
out=Benchmarks/out
mkdir -p "$out"

swift build -c release --product bench-copy-load >/dev/null
swift build -c release --product migrate >/dev/null
bin=$(swift build -c release --show-bin-path)

export PGDATABASE=iap_bench
psql -q -d postgres -c "DROP DATABASE IF EXISTS iap_bench WITH (FORCE)" -c "CREATE DATABASE iap_bench"
"$bin/migrate" --log-format json >/dev/null 2>&1
subscription=$(psql -qtA -c "
  WITH u AS (INSERT INTO app_user (email) VALUES ('bench@example.com') RETURNING id),
       a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
       p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('BENCH', 'Bench', 'MONTHLY', 'P1M') RETURNING id)
  INSERT INTO subscription (provider, billing_account_id, plan_id, status) SELECT 'APPLE', a.id, p.id, 'ACTIVE' FROM a, p RETURNING id" | head -n 1)
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
