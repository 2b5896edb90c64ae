#!/usr/bin/env bash
# The reconcile benchmark (issues 14, 29): for each size, one Google month's earnings zip against the month's
# billing_transaction rows, the month-end path as deployed, end to end (stage the zip, read it back with the
# database, match, categorise, write the CSV):
#   ours   the command lines deploy/ and the nightly chain run: `import-exports --as-of T` with REPORTS_DIR a folder
#          holding the zip, then `reconcile --as-of T` with RECONCILE_OUT (T the 5th of the month after M, so the
#          month before it is M), release build with the flags `make install` uses (the installed bytes); the
#          month's staged file is removed before each run, so every run stages it; wall and CPU add up, the peak RSS
#          is the larger of the two
#   pandas Benchmarks/peers/google_reconcile_pandas.py
#   duckdb Benchmarks/peers/google_reconcile_duckdb.py
#   floor  staging the rows at the database's speed: `unzip -p ZIP | psql \copy` into a 26-column text table, then
#          its order-id index (what any staging of the rows must at least do)
# each under /usr/bin/time -v (wall, CPU, peak RSS); ours, the floor and DuckDB alternate RECONCILE_PAIRS times (default 5),
# the sizes taking turns in each round, and their medians are compared. The three outputs must give the same items per category and the same amount sums,
# and ours the generator's expected counts, or the run fails.
# Sizes are orders per month (≈ 3.3 earnings rows and ≈ 1.02 database rows each): RECONCILE_ORDERS
# (default "92000 306000 920000" ≈ 0.3M, 1M, 3M rows; "3000 10000" runs in well under a minute).
# Inputs are built once and reused from .local/bench/reconcile (database iap_bench_reconcile, one month per size).
# Needs the PG* variables of the embedded cluster (`make db-up`, then `eval "$(Tests/Harness/pg-cluster.sh env)"`).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/release-flags.sh
ORDERS=${RECONCILE_ORDERS:-"92000 306000 920000"}
PAIRS=${RECONCILE_PAIRS:-5}
# Each size keeps its own month (the cached inputs are per size and month, and a month holds one size's rows): a
# subset such as RECONCILE_ORDERS="306000 920000" reuses those sizes' inputs; another size takes a spare month by
# its position in the list.
declare -A MONTH_OF_SIZE=([92000]=2026-04 [306000]=2026-07 [920000]=2026-10)
SPARE_MONTHS=(2026-05 2026-08 2026-11 2026-02 2026-01)
month_for() { echo "${MONTH_OF_SIZE[$1]:-${SPARE_MONTHS[$2]}}"; }
root=$PWD
cache=$root/.local/bench/reconcile
out=$root/Benchmarks/out/reconcile
venv=$root/.local/bench/venv
export PYTHONPATH=$root/Benchmarks/peers
mkdir -p "$cache" "$out"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import pandas, duckdb' 2>/dev/null || "$venv/bin/pip" install --quiet pandas duckdb
swift build "${RELEASE_FLAGS[@]}" --product reconcile >/dev/null
swift build "${RELEASE_FLAGS[@]}" --product import-exports >/dev/null
swift build "${RELEASE_FLAGS[@]}" --product migrate >/dev/null
bin=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
export PGDATABASE=iap_bench_reconcile
subscription=00000000-0000-4000-8000-000000000014

# Build once: the database (migrated, one account and subscription) and each size's inputs, loaded with COPY.
if ! psql -qtA -c "SELECT 1 FROM subscription WHERE id = '$subscription'" 2>/dev/null | grep -q 1; then
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE WITH (FORCE)" -c "CREATE DATABASE $PGDATABASE"
  "$bin/migrate" --log-format json >/dev/null 2>&1
  psql -q -c "
    WITH u AS (INSERT INTO app_user (email) VALUES ('bench@example.com') RETURNING id),
         a AS (INSERT INTO billing_account (user_id) SELECT id FROM u RETURNING id),
         p AS (INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ('BENCH', 'Bench', 'MONTHLY', 'P1M') RETURNING id)
    INSERT INTO subscription (id, provider, billing_account_id, plan_id, status)
    SELECT '$subscription', 'GOOGLE', a.id, p.id, 'ACTIVE' FROM a, p"
  rm -f "$cache"/*/loaded
fi
# The database follows the build's migrations (a no-op when it is current).
"$bin/migrate" --log-format json >/dev/null 2>&1
index=0
for orders in $ORDERS; do
  month=$(month_for "$orders" "$index")
  dir="$cache/$orders-$month"
  if [ ! -f "$dir/loaded" ]; then
    # The month may hold another size's rows (their keys carry `bench<month>`): they go first.
    for other in "$cache"/*-"$month"; do [ "$other" = "$dir" ] || rm -rf "$other"; done
    psql -q -c "DELETE FROM billing_transaction WHERE transaction_key LIKE '%.bench$month:%'"
    rm -rf "$dir"
    "$venv/bin/python" Benchmarks/reconcile/generate.py "$orders" "$month" "$dir" "$subscription" >/dev/null
    psql -q -c "\\copy billing_transaction ($(cat "$dir/billing.columns")) FROM '$dir/billing.csv' WITH (FORMAT csv)"
    psql -q -c "VACUUM ANALYZE billing_transaction"
    rm "$dir/billing.csv"
    touch "$dir/loaded"
  fi
  index=$((index + 1))
done

# CPU seconds the database server has used so far: the postmaster's and its reaped backends' (a backend is reaped
# when its connection closes, before `measure` reads it again).
postmaster=$(head -n 1 "$(psql -qtAX -c 'SHOW data_directory')/postmaster.pid")
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15 + $16 + $17) / hz }' "/proc/$postmaster/stat"; }
measure() { # label, command…: prints "wall_s cpu_s peak_rss_mib server_cpu_s"
  local label=$1 before
  shift
  before=$(server_cpu)
  /usr/bin/time -v "$@" >"$out/$label.out" 2>"$out/$label.time" || { cat "$out/$label.out" "$out/$label.time" >&2; return 1; }
  sleep 0.5
  awk -F': ' -v server="$(awk -v a="$(server_cpu)" -v b="$before" 'BEGIN { printf "%.2f", a - b }')" '
              /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
              /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
              END { printf "%.2f %.2f %.1f %s", w, c, r, server }' "$out/$label.time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# The median of "wall cpu rss server" runs, column by column (the largest RSS: it is a peak).
median() {
  printf '%s\n' "$@" | awk '{ w[NR] = $1; c[NR] = $2; s[NR] = $4; if ($3 > r) r = $3 }
    END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                                                                       if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
                                                                       if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t } }
          m = int((n + 1) / 2); printf "%.2f %.2f %.1f %.2f", w[m], c[m], r, s[m] }'
}
per_row() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.3f", t / n * 1000000 }'; }
verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == "<=") ? v <= t : v >= t; print ok ? "met" : "**missed**" }'; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
rows_table=""
runs_note=""
ours_per_row=()
summary_lines=""
# The floor's table: the earnings CSV's 26 columns as text.
floor_columns=$(seq 1 26 | sed 's/^/c/; s/$/ text/' | paste -sd, -)
# Each size's inputs and the statement both sides read.
declare -A month_of zip_of rows_of bounds_of dbrows_of floor_runs ours_runs duck_runs
index=0
for orders in $ORDERS; do
  month=$(month_for "$orders" "$index")
  index=$((index + 1))
  dir="$cache/$orders-$month"
  month_of[$orders]=$month
  zip_of[$orders]=$(ls "$dir"/earnings_*.zip)
  rows_of[$orders]=$("$venv/bin/python" -c "import json; print(json.load(open('$dir/expected.json'))['report_rows'])")
  bounds_of[$orders]=$("$venv/bin/python" -c "from google_reconcile_common import *; b = bounds('$month'); print(database_sql(b[0], b[3]))")
  dbrows_of[$orders]=$(psql -qtA -c "SELECT count(*) FROM (${bounds_of[$orders]}) t")
done
# The floor and ours alternate PAIRS times per size and each side's median is taken: on a shared machine the speed
# of a core moves by a quarter from one run to the next, and a single pair could compare a fast moment with a slow
# one. The sizes take turns within each round (not one size after the other), so that a slow spell of the machine
# lasting minutes falls on every size alike and the time per row compares sizes, not moments.
for pair in $(seq "$PAIRS"); do
  for orders in $ORDERS; do
    month=${month_of[$orders]} zip=${zip_of[$orders]} bounds=${bounds_of[$orders]}
    # Every size's staged file goes, not only this month's: `reconcile` as deployed (no --period) reconciles each
    # store's latest staged period, which must be this one (the other sizes are staged again at their turn).
    psql -q -c "DELETE FROM reconciliation_item WHERE run_id IN (SELECT id FROM reconciliation_run WHERE provider = 'google')" \
         -c "DELETE FROM reconciliation_run WHERE provider = 'google'" \
         -c "DELETE FROM report_file WHERE kind = 'googleEarnings'" \
         -c "VACUUM google_earnings_fact" -c "VACUUM report_file_content" \
         -c "DROP TABLE IF EXISTS bench_earnings_floor" -c "CREATE TABLE bench_earnings_floor ($floor_columns)"
    rm -rf "$out/ours-$orders"
    floor_runs[$orders]+="$(measure "floor-$orders" bash -c "unzip -p '$zip' | psql -X -q -c \"\\copy bench_earnings_floor FROM STDIN WITH (FORMAT csv, HEADER true)\" -c 'CREATE INDEX ON bench_earnings_floor (c1)'")"$'\n'
    # As deployed: the folder and the output from the environment, the period from the as-of instant.
    as_of=$(date -u -d "$month-01 +1 month +4 days" +%Y-%m-%dT00:00:00Z)
    rm -rf "$out/reports-$orders" && mkdir -p "$out/reports-$orders" && ln -s "$zip" "$out/reports-$orders/"
    staged=$(REPORTS_DIR="$out/reports-$orders" measure "ours-import-$orders" "$bin/import-exports" --as-of "$as_of" --log-format json)
    reconciled=$(RECONCILE_OUT="$out/ours-$orders" measure "ours-$orders" "$bin/reconcile" --as-of "$as_of" --log-format json)
    ours_runs[$orders]+="$(printf '%s %s\n' "$staged" "$reconciled" | awk '{ printf "%.2f %.2f %.1f %.2f", $1 + $5, $2 + $6, ($3 > $7 ? $3 : $7), $4 + $8 }')"$'\n'
    # DuckDB takes its turn in every round too: one run of it against a median of ours would compare a moment with a median.
    duck_runs[$orders]+="$(measure "duckdb-$orders" "$venv/bin/python" Benchmarks/peers/google_reconcile_duckdb.py "$zip" "$month" "$out/duckdb-$orders.csv")"$'\n'
  done
done
for orders in $ORDERS; do
  month=${month_of[$orders]} zip=${zip_of[$orders]} report_rows=${rows_of[$orders]} db_rows=${dbrows_of[$orders]}
  dir="$cache/$orders-$month"
  mapfile -t floors < <(printf '%s' "${floor_runs[$orders]}")
  mapfile -t ourses < <(printf '%s' "${ours_runs[$orders]}")
  floor=$(median "${floors[@]}")
  ours=$(median "${ourses[@]}")
  runs_note+="$report_rows rows, ours (wall s): $(printf '%s\n' "${ourses[@]}" | cut -d' ' -f1 | tr '\n' ' ')| floor: $(printf '%s\n' "${floors[@]}" | cut -d' ' -f1 | tr '\n' ' ')| DuckDB: $(printf '%s' "${duck_runs[$orders]}" | cut -d' ' -f1 | tr '\n' ' ')"$'\n'
  pandas=$(measure "pandas-$orders" "$venv/bin/python" Benchmarks/peers/google_reconcile_pandas.py "$zip" "$month" "$out/pandas-$orders.csv")
  mapfile -t ducks < <(printf '%s' "${duck_runs[$orders]}")
  duck=$(median "${ducks[@]}")
  items="$out/ours-$orders/reconciliation_google_$month.csv"
  check=$("$venv/bin/python" Benchmarks/peers/google_reconcile_common.py "$items" "$out/pandas-$orders.csv" "$out/duckdb-$orders.csv") \
    || { echo "reconcile benchmark: the outputs differ at $orders orders" >&2; printf '%s\n' "$check" >&2; exit 1; }
  expected=$("$venv/bin/python" -c "import json; print(' '.join(f'{k}={v}' for k, v in sorted(json.load(open('$dir/expected.json'))['items'].items()) if v))")
  got=$(printf '%s\n' "$check" | head -n 1 | cut -d' ' -f2-)
  [ "$got" = "$expected" ] || { echo "reconcile benchmark: expected $expected, ours gave $got" >&2; exit 1; }
  read -r fw fc fr fs <<<"$floor"; read -r ow oc or os <<<"$ours"; read -r pw pc pr ps <<<"$pandas"; read -r dw dc dr ds <<<"$duck"
  ours_per_row+=("$(per_row "$ow" "$report_rows")")
  rows_table+="| $report_rows earnings rows × $db_rows transactions ($month) | **$ow** s, $oc + $os s CPU, $or MiB | $dw s, $dc + $ds s CPU, $dr MiB | $pw s, $pc + $ps s CPU, $pr MiB | $fw s, $fc + $fs s CPU | $(ratio "$dw" "$ow")× | $(ratio "$pw" "$ow")× | $(ratio "$ow" "$fw")× | $(per_row "$ow" "$report_rows") |"$'\n'
  summary_lines+="$report_rows rows: $got"$'\n'
  last=("$ow" "$dw" "$pw" "$fw" "$or" "$(awk -v a="$oc" -v b="$os" 'BEGIN { print a + b }')" "$(awk -v a="$dc" -v b="$ds" 'BEGIN { print a + b }')" "$(awk -v a="$pc" -v b="$ps" 'BEGIN { print a + b }')" "$(awk -v a="$fc" -v b="$fs" 'BEGIN { print a + b }')")
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
spread=$(printf '%s\n' "${ours_per_row[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f", hi / lo }')
cat <<MD
### Google month-end as deployed: one month's earnings zip against billing_transaction, $(date -u +%Y-%m-%d)
End to end: stage the zip, read the month's rows and its (and its neighbours') GOOGLE rows from PostgreSQL, match
by order, categorise, write the items CSV. Ours, as deploy/ and the nightly chain run it: \`import-exports --as-of T\`
with \`REPORTS_DIR\` a folder holding the zip, then \`reconcile --as-of T\` with \`RECONCILE_OUT\` (T the 5th of the next
month; release build as \`make install\` builds it; it also stores the run and its items in
\`reconciliation_run\` / \`reconciliation_item\`, as the job always does; wall and CPU of the two added). Peers:
pandas $("$venv/bin/python" -c 'import pandas; print(pandas.__version__)') and DuckDB $("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)') (\`Benchmarks/peers/google_reconcile_*.py\`), same inputs, same categories.
Floor: \`unzip -p ZIP | psql \\copy\` into a 26-column text table, then its order-id index.
Wall, CPU (client + server) and peak RSS (client) under \`/usr/bin/time\`; server CPU from the postmaster's reaped backends.
Ours, the floor and DuckDB: the median of $PAIRS runs each, alternating, the sizes taking turns (peak RSS: the
largest); pandas: one run.

| size | ours | DuckDB | pandas | floor | DuckDB / ours | pandas / ours | ours / floor | ours µs per row |
|---|---|---|---|---|---|---|---|---|
$rows_table
At the largest size: faster than DuckDB ($(awk -v d="${last[1]}" -v o="${last[0]}" 'BEGIN { print (o < d) ? "met" : "**missed**" }')); ≥ 2.5× faster than pandas ($(verdict "$(ratio "${last[2]}" "${last[0]}")" ">=" 2.5));
within 1.5× of the floor ($(verdict "$(ratio "${last[0]}" "${last[3]}")" "<=" 1.5)); peak RSS ≤ 300 MB = 286.1 MiB ($(verdict "${last[4]}" "<=" 286.1));
time per row across sizes within 1.3× (spread $spread×: $(verdict "$spread" "<=" 1.3)).
CPU at the largest size, client processes and the PostgreSQL server together (table cells: client + server): DuckDB / ours
$(ratio "${last[6]}" "${last[5]}")×, pandas / ours $(ratio "${last[7]}" "${last[5]}")×, ours / floor $(ratio "${last[5]}" "${last[8]}")×.
Load average at the start: $load; at the end: $load_end (2 cores, shared).
Items per category, equal on all three sides and equal to what the generator injected:
\`\`\`
$summary_lines\`\`\`
Each run's wall time:
\`\`\`
$runs_note\`\`\`
Reproduce: \`Benchmarks/run.sh reconcile\` (\`RECONCILE_ORDERS\` to change the sizes, \`RECONCILE_PAIRS\` the runs).
MD
