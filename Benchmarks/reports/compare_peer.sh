#!/usr/bin/env bash
# Reports vs their independent pandas peer (issue 15): one generated world, build-reports and
# Benchmarks/peers/reports_peer.py with the same parameters (MONTHS months to the as-of month, CURRENCY, both bases),
# then every CSV cell compared (Benchmarks/reports/compare_csv.py). Prints the first LIMIT disagreements per report
# and a markdown summary; exits 1 on any disagreement.
#   SUBS=200000 SEED=15 Benchmarks/reports/compare_peer.sh
# REPORT_MONTHS (default MONTHS) months are reported, to the as-of month; BASES (default "corrected known") the bases.
# The world is generated once into WORLD_DB and reused while its marker file names the same options (REUSE=0 forces
# a fresh one). CHAIN=1 builds it with Tests/Harness/demo.sh instead (store simulator + the nightly chain repairing
# the injected faults), so the history is the one the chain completes; the default loads the world as the webhook
# path left it, faults and all, which both sides must read alike just the same.
# Each side runs under /usr/bin/time -v (wall, client CPU, peak RSS) inside Benchmarks/reports/backend_cpu.sh (the
# PostgreSQL server's CPU meanwhile, which `time` cannot see: nearly all of build-reports' work is there).
# Needs the PG* variables of the embedded cluster (`eval "$(Tests/Harness/pg-cluster.sh env)"`).
set -euo pipefail
cd "$(dirname "$0")/../.."
SUBS=${SUBS:-200000}
MONTHS=${MONTHS:-24}
SEED=${SEED:-15}
AS_OF=${AS_OF:-2026-11-29}
FAULTS=${FAULTS:-all=0.02}
CURRENCY=${CURRENCY:-USD}
LIMIT=${LIMIT:-10}
CHAIN=${CHAIN:-0}
REUSE=${REUSE:-1}
db=${WORLD_DB:-peer_world_${SUBS}_${SEED}}
out=${PEER_OUT:-.local/reports-peer/$db}
bin=${BIN:-$(swift build --show-bin-path)}
venv=${VENV:-Benchmarks/out/venv}
mkdir -p "$out"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import pandas, psycopg2' 2>/dev/null || "$venv/bin/pip" install --quiet pandas psycopg2-binary
marker="$out/world.options"
options="subs=$SUBS months=$MONTHS seed=$SEED as_of=$AS_OF faults=$FAULTS chain=$CHAIN"
exists=$(psql -qtA -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'")
if [ "$REUSE" = 1 ] && [ "$exists" = 1 ] && [ "$(cat "$marker" 2>/dev/null)" = "$options" ]; then
  echo "== reusing world $db ($options)"
else
  rm -f "$marker"
  t0=$(date +%s)
  if [ "$CHAIN" = 1 ]; then
    DEMO_BIN=$bin DEMO_DIR="$PWD/$out/demo" DEMO_DATABASE=$db SUBSCRIPTIONS=$SUBS MONTHS=$MONTHS SEED=$SEED FAULTS=$FAULTS \
      AS_OF=$AS_OF Tests/Harness/demo.sh >"$out/demo.log" 2>&1
  else
    psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" 2>/dev/null
    PGDATABASE=$db "$bin/migrate" --log-format json >/dev/null 2>&1
    rm -rf "$out/truth"
    PGDATABASE=$db "$bin/world" --seed "$SEED" --subscriptions "$SUBS" --months "$MONTHS" --as-of "$AS_OF" \
      --out "$out/truth" --faults "$FAULTS" --log-format json 2>"$out/world.log" | tail -n 1 >"$out/world.json"
  fi
  echo "== world $db ($options) made in $(($(date +%s) - t0)) s"
  echo "$options" >"$marker"
fi
dsn="dbname=$db${PGHOST:+ host=$PGHOST}${PGPORT:+ port=$PGPORT}${PGUSER:+ user=$PGUSER}"
# REPORT_AS_OF (default the world's as-of) reports as of an earlier instant: under basis known the rows recorded
# after it (late notifications, injected delays) are left out, so the two bases differ.
report_as_of=${REPORT_AS_OF:-$AS_OF}
as_of="${report_as_of}T00:00:00Z"
[ ${#report_as_of} -gt 10 ] && as_of=$report_as_of
to=$(date -u -d "${as_of%%T*}" +%Y-%m)
from=$(date -u -d "$(date -u -d "${as_of%%T*}" +%Y-%m-01) -$((${REPORT_MONTHS:-$MONTHS} - 1)) months" +%Y-%m)
load=$(cut -d' ' -f1-3 /proc/loadavg)
status=0
summary=""
# wall s, client CPU s, peak RSS MiB (from /usr/bin/time -v) and the server's CPU s (Benchmarks/reports/backend_cpu.sh).
secs() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3) ? p[1] * 3600 + p[2] * 60 + p[3] : p[1] * 60 + p[2] }
                     /User time|System time/ { c += $2 } /Maximum resident set size/ { r = $2 / 1024 }
                     END { printf "%.1f %.1f %.0f", w, c, r }' "$1.time"
         awk '{ printf " %s", $2 }' "$1.backend"; }
for basis in ${BASES:-corrected known}; do
  sql_dir="$out/sql-$basis" peer_dir="$out/peer-$basis"
  rm -rf "$sql_dir" "$peer_dir"
  PGDATABASE=$db BACKEND_DB=$db Benchmarks/reports/backend_cpu.sh "$out/sql-$basis.backend" /usr/bin/time -v -o "$out/sql-$basis.time" "$bin/build-reports" --as-of "$as_of" --from "$from" --to "$to" \
    --currency "$CURRENCY" --basis "$basis" --out "$sql_dir" --format csv --raw-ids --sql-dir Reports --log-format json \
    >"$out/sql-$basis.json" 2>"$out/sql-$basis.log"
  BACKEND_DB=$db Benchmarks/reports/backend_cpu.sh "$out/peer-$basis.backend" /usr/bin/time -v -o "$out/peer-$basis.time" "$venv/bin/python" -W ignore Benchmarks/peers/reports_peer.py --dsn "$dsn" \
    --as-of "$as_of" --from "$from" --to "$to" --currency "$CURRENCY" --basis "$basis" --out "$peer_dir" \
    2>"$out/peer-$basis.log"
  echo "== basis $basis: build-reports vs reports_peer.py, $from..$to, $CURRENCY, as of $as_of"
  result=0
  "$venv/bin/python" Benchmarks/reports/compare_csv.py "$sql_dir" "$peer_dir" "$LIMIT" | tee "$out/compare-$basis.txt" || result=$?
  [ "$result" = 0 ] || status=1
  read -r sw sc sr sb <<<"$(secs "$out/sql-$basis")"
  read -r pw pc pr pb <<<"$(secs "$out/peer-$basis")"
  cells=$(awk -F'= ' '/^== / { split($3, a, " "); n += a[1] } END { print n }' "$out/compare-$basis.txt")
  bad=$(awk -F'disagreements ' '/^== / { split($2, a, ";"); n += a[1] } END { print n }' "$out/compare-$basis.txt")
  ratios=$(awk -v a="$pw" -v b="$sw" -v c="$pc" -v d="$pb" -v e="$sc" -v f="$sb" 'BEGIN { printf "%.1f× | %.1f×", a / b, (c + d) / (e + f) }')
  summary="$summary| $basis | $cells | $bad | $sw s (CPU $sc s client + $sb s server; $sr MiB) | $pw s (CPU $pc s client + $pb s server; $pr MiB) | $ratios |
"
done
cat <<MD

### Reports: independent peer — $SUBS subscriptions × $MONTHS months, seed $SEED, reported $from..$to as of $as_of, faults $FAULTS$([ "$CHAIN" = 1 ] && echo ", after the nightly chain"), $(date -u +%Y-%m-%d)
| basis | cells compared | disagreements | build-reports ($([ -n "${BIN:-}" ] && echo "$bin" || echo debug)) wall (CPU; peak RSS) | reports_peer.py (pandas) wall (CPU; peak RSS) | peer / ours wall | peer / ours CPU (client + server) |
|---|---|---|---|---|---|---|
$summary
Per report (rows × columns): see \`$out/compare-*.txt\`. Load average at the start: $load (2 cores, shared).
Reproduce: \`SUBS=$SUBS SEED=$SEED MONTHS=$MONTHS AS_OF=$AS_OF REPORT_AS_OF=$report_as_of FAULTS=$FAULTS Benchmarks/reports/compare_peer.sh\`.
MD
exit $status
