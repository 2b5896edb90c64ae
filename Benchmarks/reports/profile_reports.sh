#!/usr/bin/env bash
# Per-step server time of a full build-reports run, in one psql session: the transaction build-reports opens
# (jit off, cursor_tuple_fraction 1, work_mem 256MB), the shared tables filled as SharedReportTables fills them, then
# each report file PREPAREd with the five parameters and EXECUTEd ROUNDS times, its rows sent to psql and dropped
# (`\o /dev/null`), each timed by psql's \timing. What build-reports adds on its side (formatting, CSV, XLSX) is the
# job summary's seconds_<report> minus these.
#   REPORT_DB=bench_reports [SQL_DIR=Reports] [REPORTS="mrr mrr_bridge … path/to/other.sql"] [ROUNDS=1] Benchmarks/reports/profile_reports.sh
# (an entry with a slash is a file: old and new versions of a report timed alternately on the same filled tables)
# EXPLAIN=1 runs them under EXPLAIN (ANALYZE, BUFFERS) (the plan goes to OUT_DIR). OUT_DIR=dir writes the rows of the k-th entry of REPORTS to dir/k.txt (unaligned) to compare versions.
# Prints one line per step: "<step> <ms>…".
set -euo pipefail
cd "$(dirname "$0")/../.."
db=${REPORT_DB:-bench_reports}
sql_dir=${SQL_DIR:-Reports}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}
FROM=${FROM:-2024-12-01}
TO=${TO:-2026-11-01}
BASIS=${BASIS:-corrected}
ROUNDS=${ROUNDS:-1}
REPORTS=${REPORTS:-fx_missing mrr mrr_bridge mrr_movements subscribers entitlement_leakage reconciliation refunds grace_hold_recovery price_change_churn kpis trial_conversion plan_change_mix cohorts}
params="'$AS_OF'::timestamptz, '$FROM'::timestamptz, '$TO'::timestamptz"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo '\set ON_ERROR_STOP on'
  echo 'BEGIN ISOLATION LEVEL REPEATABLE READ;'
  # TEMP_BUFFERS=256MB tries a larger local buffer pool for the run's temporary tables (default 8MB)
  [ -z "${TEMP_BUFFERS:-}" ] || echo "SET LOCAL temp_buffers = '$TEMP_BUFFERS';"
  # SETTINGS="SET LOCAL enable_bitmapscan = off;" tries other planner settings for the whole run
  [ -z "${SETTINGS:-}" ] || echo "$SETTINGS"
  echo 'SET LOCAL jit = off; SET LOCAL cursor_tuple_fraction = 1.0; SET LOCAL work_mem = '"'256MB'"';'
  echo 'CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled) ON COMMIT DROP;'
  echo '\pset format unaligned'
  # CURSOR=1: psql reads the rows through a cursor, 10,000 at a time, as build-reports streams a report
  [ "${CURSOR:-0}" != 1 ] || echo '\set FETCH_COUNT 10000'
  echo '\timing on'
  # as SharedReportTables fills them: the spans (every one computed, as in a --full run) before the placements
  for r in snapshot span contribution movement subscriber_state; do
    source=report_$r; [ "$r" != span ] || source=report_run_span
    echo "\\echo step fill_$r"
    echo "CREATE TEMP TABLE report_${r}_run (LIKE public.report_${r}_run) ON COMMIT DROP;"
    echo "INSERT INTO pg_temp.report_${r}_run SELECT * FROM $source($params, '$BASIS');"
    echo "ANALYZE pg_temp.report_${r}_run;"
    echo "INSERT INTO pg_temp.report_run_filled (relation, as_of, first_month, last_month, basis) VALUES ('$r', $params, '$BASIS');"
  done
  k=0
  for r in $REPORTS; do
    # an entry with a slash is a file (another version of a report, timed beside the folder's), named by its path
    file="$sql_dir/$r.sql"; case $r in */*) file=$r ;; esac
    k=$((k + 1))
    if [ "${CURSOR:-0}" != 1 ]; then
      echo '\timing off'
      echo "PREPARE p_$k (timestamptz, timestamptz, timestamptz, text, text) AS"
      cat "$file"
      echo ';'
      echo '\timing on'
    fi
    for _ in $(seq 1 "$ROUNDS"); do
      echo "\\echo step $r"
      echo "\\o ${OUT_DIR:-/dev/null}${OUT_DIR:+/$k.txt}"
      if [ "${CURSOR:-0}" = 1 ]; then # the statement itself, its parameters written in, so psql declares a cursor
        sed -e "s/\\\$1/'$AS_OF'::timestamptz/g; s/\\\$2/'$FROM'::timestamptz/g; s/\\\$3/'$TO'::timestamptz/g" \
            -e "s/\\\$4/'USD'::text/g; s/\\\$5/'$BASIS'::text/g" "$file"
        echo ';'
      else
        echo "${EXPLAIN:+EXPLAIN (ANALYZE, BUFFERS) }EXECUTE p_$k ($params, 'USD', '$BASIS');"
      fi
      echo '\o'
    done
  done
  echo 'ROLLBACK;'
} >"$script"
psql -X -q -d "$db" -f "$script" | awk '/^step / { step = $2; if (!(step in seen)) { seen[step] = 1; order[++k] = step }; next }
  /^Time: / { ms[step] = ms[step] " " $2 } END { for (i = 1; i <= k; i++) print order[i] ms[order[i]] }'
