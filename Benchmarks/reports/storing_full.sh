#!/usr/bin/env bash
# What a `build-reports --full` run spends storing (issue 31, Benchmarks/results.md "Storing a --full run"): the
# statements of StoredSpans.save and StoredMonths.save before migrations 0037/0038 (DELETE + INSERT through the index;
# month rows with their foreign key) and after (the basis's span partitions TRUNCATEd, filled, indexed after; rows
# without the foreign key), alternated ROUNDS times in one psql session on a database whose stores a --full run filled
# (schema at 0036). Every round is rolled back, the "after" one with the two migrations applied inside it, so the
# database is left as it was. Prints the server seconds of each round's timed statements.
# Environment: PGHOST/PGPORT/PGUSER/PGDATABASE, ROUNDS (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-2}
setup="CREATE TEMP TABLE report_span_run AS SELECT subscription_id, provider, billing_account_id, state, from_at, to_at, currency, country, product_id, plan_id, billing_period, twelfths FROM report_stored_span WHERE basis = 'corrected';
CREATE TEMP TABLE report_span_input_new AS SELECT subscription_id, row_count, hash_sum FROM report_stored_span_input WHERE basis = 'corrected';
CREATE TEMP TABLE report_stored_new_month AS SELECT * FROM report_stored_month;
CREATE TEMP TABLE report_stored_new_row AS SELECT * FROM report_stored_row;
\\echo timed"
cols="subscription_id, provider, billing_account_id, state, from_at, to_at, currency, country, product_id, plan_id, billing_period, twelfths"
months_old="DELETE FROM report_stored_month m USING pg_temp.report_stored_new_month n WHERE m.report = n.report AND m.basis = n.basis AND m.currency = n.currency AND m.month = n.month;
INSERT INTO report_stored_month SELECT * FROM pg_temp.report_stored_new_month;
INSERT INTO report_stored_row SELECT * FROM pg_temp.report_stored_new_row;"
old="BEGIN;
$setup
DELETE FROM report_stored_span WHERE basis = 'corrected';
DELETE FROM report_stored_span_input WHERE basis = 'corrected';
INSERT INTO report_stored_span (basis, $cols) SELECT 'corrected', $cols FROM pg_temp.report_span_run;
INSERT INTO report_stored_span_input (basis, subscription_id, row_count, hash_sum) SELECT 'corrected', subscription_id, row_count, hash_sum FROM pg_temp.report_span_input_new;
\\echo months
$months_old
ROLLBACK;"
new="BEGIN;
\\i SQL/migrations/0037_report_stored_spans_by_basis.sql
\\i SQL/migrations/0038_report_stored_row_without_foreign_key.sql
$setup
TRUNCATE report_stored_span_input_corrected, report_stored_span_corrected;
DROP INDEX report_stored_span_corrected_subscription;
INSERT INTO report_stored_span_corrected (basis, $cols) SELECT 'corrected', $cols FROM pg_temp.report_span_run;
CREATE INDEX report_stored_span_corrected_subscription ON report_stored_span_corrected (subscription_id);
INSERT INTO report_stored_span_input_corrected (basis, subscription_id, row_count, hash_sum) SELECT 'corrected', subscription_id, row_count, hash_sum FROM pg_temp.report_span_input_new ORDER BY subscription_id;
\\echo months
DELETE FROM report_stored_row m USING pg_temp.report_stored_new_month n WHERE m.report = n.report AND m.basis = n.basis AND m.currency = n.currency AND m.month = n.month;
$months_old
ROLLBACK;"
for round in $(seq 1 "$ROUNDS"); do
  for who in old new; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    script=$old; [ "$who" = new ] && script=$new
    printf '%s\n' '\timing on' "$script" | psql -q -v ON_ERROR_STOP=1 2>&1 | awk -v r="$round" -v w="$who" -v l="$load" '
      /^timed/ { on = 1; part = "spans"; next } /^months/ { part = "months"; next }
      on && /^Time:/ { s[part] += $2 / 1000 }
      END { printf "| %s | %s | %.1f | %.1f | %.1f | %s |\n", r, w, s["spans"], s["months"], s["spans"] + s["months"], l }'
  done
done
