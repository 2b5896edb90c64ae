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

# JWS verify-and-decode vs Apple's Python library (app-store-server-library); needs no database.
if [ "$WHICH" = all ] || [ "$WHICH" = jws ]; then
  JWS_COUNT=${JWS_COUNT:-10000}
  venv="$out/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -c 'import appstoreserverlibrary' 2>/dev/null || "$venv/bin/pip" install --quiet app-store-server-library
  swift build -c release --product bench-jws >/dev/null
  jws_bin=$(swift build -c release --show-bin-path)
  "$jws_bin/bench-jws" generate "$out/jws" "$JWS_COUNT"
  # CPU time (USER_HZ ticks) used by the whole machine, and by this script's finished children.
  cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
  cpu_ours() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  all0=$(cpu_all); ours0=$(cpu_ours); t0=$(date +%s.%N)
  ours=$("$jws_bin/bench-jws" verify "$out/jws")
  peer=$("$venv/bin/python" Benchmarks/peers/apple_verify.py "$out/jws")
  others=$(awk -v a="$(($(cpu_all) - all0))" -v o="$(($(cpu_ours) - ours0))" -v hz="$(getconf CLK_TCK)" \
    -v t="$(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { print t1 - t0 }')" \
    'BEGIN { printf "%.0f s of CPU over %.0f s of wall time", (a - o) / hz, t }')
  rate() { printf '%s\n' "$1" | sed -n "s/.* measure=$2 .*per_second=\([0-9]*\).*/\1/p"; }
  o_cold=$(rate "$ours" cold); o_warm=$(rate "$ours" warm); o_batch=$(rate "$ours" warm_batch)
  p_cold=$(rate "$peer" cold); p_warm=$(rate "$peer" warm); p_cached=$(rate "$peer" cached)
  ratio_warm=$(awk -v a="$o_batch" -v b="$p_warm" 'BEGIN { printf "%.1f", a / b }')
  ratio_cached=$(awk -v a="$o_batch" -v b="$p_cached" 'BEGIN { printf "%.1f", a / b }')
  verdict=$(awk -v r="$ratio_cached" 'BEGIN { print (r >= 10) ? "met" : "**missed**" }')
  library=$("$venv/bin/pip" show app-store-server-library | sed -n 's/^Version: //p')
  cat <<MD
### JWS verify-and-decode: $JWS_COUNT signed App Store transactions (one chain), $(date -u +%Y-%m-%d)
| | payloads/s |
|---|---|
| ours: \`AppleJWSVerifier.verify(_:as: JWSTransactionDecodedPayload.self)\`, cold (fresh verifier, 1 thread, one chain validation included) | $o_cold |
| ours: warm, 1 thread (chain cached; median of 3) | $o_warm |
| ours: warm, \`verifyBatch\` on both cores (median of 3) | **$o_batch** |
| peer: \`app-store-server-library\` $library \`SignedDataVerifier.verify_and_decode_signed_transaction\`, cold (fresh verifier, online checks off) | $p_cold |
| peer: warm (same verifier again, online checks off) | $p_warm |
| peer: cache-hit path (online checks on, chain cache seeded once, no network) | $p_cached |

ratio ours 2-core / python warm = **${ratio_warm}×**; ours 2-core / python cache-hit = **${ratio_cached}×**
(target ≥ 10× the library's cached rate: $verdict). Load average at the start: $load; other processes used $others during the measurement (2 cores).
Reproduce: \`Benchmarks/run.sh jws\` (\`JWS_COUNT\` to change the count).
\`\`\`
$ours
$peer
\`\`\`

MD
  if [ "$WHICH" = jws ]; then exit 0; fi
fi

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
