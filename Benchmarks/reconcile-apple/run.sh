#!/usr/bin/env bash
# The Apple reconcile benchmark (issue 29): for each size, one Apple fiscal period's charges in billing_transaction
# against the period's Financial Reports, the month-end path as deployed:
#   ours   `import-exports --reports-dir DIR` then `reconcile --provider apple --period 2025-11 --out DIR` (release
#          build; the period's staged files are removed before each run, so every run stages them; wall and CPU
#          add up, the peak RSS is the larger of the two)
#   floor  what any implementation must at least do: load the report file into a 22-column text table
#          (`psql \copy`) and aggregate the period's APPLE rows by product × country × currency × price in
#          PostgreSQL (`COPY (SELECT … GROUP BY …) TO STDOUT`, the refunds joined to their charges)
# each under /usr/bin/time -v (wall, CPU, peak RSS); ours and the floor alternate APPLE_PAIRS times (default 3), the
# sizes taking turns in each round, and their medians are compared. Ours must give the generator's units per category.
# Sizes are charges per period: APPLE_CHARGES (default "100000 300000 1000000"). Inputs are built once and reused
# from .local/bench/reconcile-apple (one database per size, iap_bench_apple_<charges>).
# Needs the PG* variables of the embedded cluster (`make db-up`, then `eval "$(Tests/Harness/pg-cluster.sh env)"`).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/release-flags.sh
SIZES=${APPLE_CHARGES:-"100000 300000 1000000"}
PAIRS=${APPLE_PAIRS:-3}
root=$PWD
cache=$root/.local/bench/reconcile-apple
out=$root/Benchmarks/out/reconcile-apple
mkdir -p "$cache" "$out"
for product in reconcile import-exports migrate; do swift build "${RELEASE_FLAGS[@]}" --product "$product" >/dev/null; done
bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
subscription=00000000-0000-4000-8000-000000000029
# Fiscal 2026-02 (11/02/2025–11/29/2025 Pacific) in UTC.
start="2025-11-02 07:00:00+00" end="2025-11-30 08:00:00+00"

for size in $SIZES; do
  db=iap_bench_apple_$size dir=$cache/$size
  if [ ! -f "$dir/loaded" ]; then
    psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"
    psql -q -d postgres -c "CREATE DATABASE $db"
    PGDATABASE=$db "$bin/migrate" --log-format json >/dev/null 2>&1
    PGDATABASE=$db psql -q -c "
      WITH u AS (INSERT INTO app_user (email) VALUES ('bench@example.com') RETURNING id),
           a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
           p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('BENCH', 'Bench', 'MONTHLY', 'P1M') RETURNING id)
      INSERT INTO subscription (id, provider, billing_account_id, plan_id, status)
      SELECT '$subscription', 'APPLE', a.id, p.id, 'ACTIVE' FROM a, p"
    rm -rf "$dir"
    python3 Benchmarks/reconcile-apple/generate.py "$size" "$dir" "$subscription"
    PGDATABASE=$db psql -q -c "\\copy billing_transaction ($(cat "$dir/billing.columns")) FROM '$dir/billing.csv' WITH (FORMAT csv)"
    PGDATABASE=$db psql -q -c "VACUUM ANALYZE billing_transaction"
    rm "$dir/billing.csv"
    touch "$dir/loaded"
  fi
done

measure() { # label, command…: prints "wall_s cpu_s peak_rss_mib"
  local label=$1
  shift
  /usr/bin/time -v "$@" >"$out/$label.out" 2>"$out/$label.time" || { cat "$out/$label.out" "$out/$label.time" >&2; return 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
              /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
              END { printf "%.2f %.2f %.1f", w, c, r }' "$out/$label.time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() {
  printf '%s\n' "$@" | awk '{ w[NR] = $1; c[NR] = $2; if ($3 > r) r = $3 }
    END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                                                                       if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t } }
          m = int((n + 1) / 2); printf "%.2f %.2f %.1f", w[m], c[m], r }'
}
per_row() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.3f", t / n * 1000000 }'; }

floor_columns=$(seq 1 22 | sed 's/^/c/; s/$/ text/' | paste -sd, -)
floor_sql="COPY (SELECT coalesce(b.product_id, c.product_id, '') AS product, coalesce(b.country_code, c.country_code, '') AS country,
                        b.currency_code, b.amount_micros, count(*) FILTER (WHERE NOT b.is_test), count(*) FILTER (WHERE b.is_test)
                 FROM billing_transaction b LEFT JOIN billing_transaction c ON c.transaction_key = b.refunded_transaction_key
                 WHERE b.provider = 'APPLE' AND b.amount_micros IS NOT NULL AND (b.amount_micros <> 0 OR b.offer_type = 3)
                   AND b.effective_at >= '$start' AND b.effective_at < '$end'
                 GROUP BY 1, 2, 3, 4) TO STDOUT"
load=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A floor_runs ours_runs
for pair in $(seq "$PAIRS"); do
  for size in $SIZES; do
    export PGDATABASE=iap_bench_apple_$size
    dir=$cache/$size
    psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'apple')" \
         -c "DELETE FROM reconciliation_run WHERE provider = 'apple'" -c "DELETE FROM report_file WHERE kind = 'appleFinancial'" \
         -c "DROP TABLE IF EXISTS bench_apple_floor" -c "CREATE TABLE bench_apple_floor ($floor_columns)"
    rm -rf "$out/ours-$size"
    floor_runs[$size]+="$(measure "floor-$size" bash -c "grep -hv '^Total_' '$dir'/reports/*.txt | psql -X -q -c \"\\copy bench_apple_floor FROM STDIN WITH (FORMAT csv, DELIMITER E'\\t', QUOTE E'\\b')\" && psql -X -q -c \"$floor_sql\" >/dev/null")"$'\n'
    staged=$(measure "ours-import-$size" "$bin/import-exports" --reports-dir "$dir/reports" --log-format json)
    reconciled=$(measure "ours-$size" "$bin/reconcile" --provider apple --period 2025-11 --out "$out/ours-$size" --log-format json)
    ours_runs[$size]+="$(printf '%s %s\n' "$staged" "$reconciled" | awk '{ printf "%.2f %.2f %.1f", $1 + $4, $2 + $5, ($3 > $6 ? $3 : $6) }')"$'\n'
  done
done
rows_table="" runs_note="" per_rows=()
for size in $SIZES; do
  export PGDATABASE=iap_bench_apple_$size
  dir=$cache/$size
  mapfile -t floors < <(printf '%s' "${floor_runs[$size]}")
  mapfile -t ourses < <(printf '%s' "${ours_runs[$size]}")
  floor=$(median "${floors[@]}") ours=$(median "${ourses[@]}")
  items=$(ls "$out/ours-$size"/reconciliation_apple_*.csv | grep -v _totals)
  # Units per category (the larger of an item's report and database units), as the generator counts them.
  got=$(awk -F, 'NR > 1 { u[$2] += ($9 > $10 ? $9 : $10) } END { for (c in u) printf "%s=%d\n", c, u[c] }' "$items" | sort | paste -sd' ')
  expected=$(python3 -c "import json; e = json.load(open('$dir/expected.json')); print(' '.join(f'{k}={v}' for k, v in sorted(e.items()) if v and k not in ('charges', 'report_rows')))")
  [ "$got" = "$expected" ] || { echo "apple reconcile benchmark: expected $expected, ours gave $got at $size" >&2; exit 1; }
  rows=$(psql -qtA -c "SELECT count(*) FROM billing_transaction WHERE provider = 'APPLE'")
  report_rows=$(python3 -c "import json; print(json.load(open('$dir/expected.json'))['report_rows'])")
  read -r fw fc fr <<<"$floor"; read -r ow oc or <<<"$ours"
  per_rows+=("$(per_row "$ow" "$rows")")
  rows_table+="| $size charges ($rows rows) × $report_rows report rows | **$ow** s, $oc s CPU, $or MiB | $fw s, $fc s CPU | $(ratio "$ow" "$fw")× | $(per_row "$ow" "$rows") |"$'\n'
  runs_note+="$size: ours $(printf '%s\n' "${ourses[@]}" | cut -d' ' -f1 | tr '\n' ' ')| floor $(printf '%s\n' "${floors[@]}" | cut -d' ' -f1 | tr '\n' ' ')| sha256 $(sha256sum "$items" | cut -c1-16)"$'\n'
  summary="$got"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
spread=$(printf '%s\n' "${per_rows[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f", hi / lo }')
cat <<MD
### Apple period-end as deployed: one fiscal period's charges against its Financial Reports, $(date -u +%Y-%m-%d)
Ours: \`import-exports --reports-dir DIR\` (the period's and the previous period's ZZ Financial Report) then
\`reconcile --provider apple --period 2025-11 --out DIR\` (release; stores the run and its items, writes the CSVs;
wall and CPU of the two added). Floor: the report loaded with \`psql \\copy\` into a 22-column text table, then the
period's APPLE rows aggregated by product × country × currency × price in PostgreSQL (refunds joined to their
charges) and streamed out. Median of $PAIRS alternating runs each (peak RSS: the largest).

| size | ours | floor | ours / floor | ours µs per charge |
|---|---|---|---|---|
$rows_table
Time per charge across sizes: spread $spread×. Load average at the start: $load; at the end: $load_end (2 cores, shared).
Units per category (equal to what the generator injected): \`$summary\`
\`\`\`
$runs_note\`\`\`
Reproduce: \`Benchmarks/reconcile-apple/run.sh\` (\`APPLE_CHARGES\` to change the sizes, \`APPLE_PAIRS\` the runs).
MD
