#!/usr/bin/env bash
# The movement fill, old against new, alternated in one psql session on the same filled contributions (migration
# 0032): 0021's report_movement (copied into pg_temp from SQL/migrations/0021_report_shared_definitions.sql) and the
# migrated one, each written to a temporary table ROUNDS times, then the two tables compared (EXCEPT ALL both ways).
#   REPORT_DB=bench_reports [ROUNDS=3] [EXPLAIN=1] Benchmarks/reports/probe_movement_fill.sh
# Prints "<step> <ms>" per statement and the row counts and differences (0 and 0 when equal).
set -euo pipefail
cd "$(dirname "$0")/../.."
db=${REPORT_DB:-bench_reports}
ROUNDS=${ROUNDS:-3}
params="'${AS_OF:-2026-11-29T00:00:00Z}'::timestamptz, '${FROM:-2024-12-01}'::timestamptz, '${TO:-2026-11-01}'::timestamptz"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo '\set ON_ERROR_STOP on'
  echo 'BEGIN ISOLATION LEVEL REPEATABLE READ;'
  echo "SET LOCAL jit = off; SET LOCAL cursor_tuple_fraction = 1.0; SET LOCAL work_mem = '256MB';"
  echo 'CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled) ON COMMIT DROP;'
  sed -n '/^CREATE FUNCTION report_movement(/,/^\$fn\$;/p' SQL/migrations/0021_report_shared_definitions.sql |
    sed -e 's/^CREATE FUNCTION report_movement(/CREATE FUNCTION pg_temp.report_movement_0021(/' \
        -e 's/report_run_contribution(/public.report_run_contribution(/; s/report_run_snapshot(/public.report_run_snapshot(/'
  echo '\timing on'
  for r in snapshot contribution; do
    echo "CREATE TEMP TABLE report_${r}_run (LIKE public.report_${r}_run) ON COMMIT DROP;"
    echo "\\echo step fill_$r"
    echo "INSERT INTO pg_temp.report_${r}_run SELECT * FROM report_${r}($params, 'corrected');"
    echo "ANALYZE pg_temp.report_${r}_run;"
    echo "INSERT INTO pg_temp.report_run_filled (relation, as_of, first_month, last_month, basis) VALUES ('$r', $params, 'corrected');"
  done
  echo 'CREATE TEMP TABLE m_old (LIKE public.report_movement_run); CREATE TEMP TABLE m_new (LIKE public.report_movement_run);'
  for _ in $(seq 1 "$ROUNDS"); do
    for f in old new; do
      fn=report_movement; [ $f = old ] && fn=pg_temp.report_movement_0021
      [ -z "${EXPLAIN:-}" ] || echo "EXPLAIN ANALYZE SELECT count(*) FROM $fn($params, 'corrected');"
      echo "TRUNCATE m_$f;"
      echo "\\echo step movement_$f"
      echo "INSERT INTO m_$f SELECT * FROM $fn($params, 'corrected');"
    done
  done
  echo '\timing off'
  echo "SELECT (SELECT count(*) FROM m_old) AS old_rows, (SELECT count(*) FROM m_new) AS new_rows,"
  echo "       (SELECT count(*) FROM (SELECT * FROM m_old EXCEPT ALL SELECT * FROM m_new) x) AS only_old,"
  echo "       (SELECT count(*) FROM (SELECT * FROM m_new EXCEPT ALL SELECT * FROM m_old) y) AS only_new;"
  echo 'ROLLBACK;'
} >"$script"
psql -X -q -d "$db" -f "$script" | awk '/^step / { step = $2; next } /^Time: / { if (step != "") print step, $2; step = ""; next } { print }'
