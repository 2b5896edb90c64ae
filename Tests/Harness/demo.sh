#!/usr/bin/env bash
# make demo: the nightly pipeline on the embedded default. A generated world (store truth + the database
# as the webhook path left it, with injected faults) in the private PostgreSQL, the store simulator on
# loopback serving that truth, the repair jobs against it, and a summary of what they found and fixed.
# Re-running it rebuilds the same world (same seed) and gives the same result.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# DEMO_BIN, DEMO_DIR and DEMO_DATABASE let a test run the demo on prebuilt binaries into its own folder and database.
bin=${DEMO_BIN:-$(swift build ${SWIFT_BUILD_FLAGS:-} --show-bin-path)}
local_dir=${DEMO_DIR:-"$root/.local"}
logs="$local_dir/logs"
keys="$local_dir/keys"
world="$local_dir/world"
mkdir -p "$logs" "$keys"
log="$logs/demo.log"
: >"$log"

SUBSCRIPTIONS=${SUBSCRIPTIONS:-20000}
MONTHS=${MONTHS:-18}
SEED=${SEED:-42}
FAULTS=${FAULTS:-all=0.02}
AS_OF=${AS_OF:-$(date -u +%F)}
# The simulated stores allow DEMO_RATE calls/s on the busy endpoints (Apple's real limit is 50/s); the
# clients aim 5% under it, through buckets shared in PostgreSQL.
DEMO_RATE=${DEMO_RATE:-200}

eval "$(Tests/Harness/pg-cluster.sh env)"
export PGDATABASE=${DEMO_DATABASE:-iap_demo}

# Demo keys, made once: an App Store Connect key and a Google service-account key, as files.
Tests/Harness/make-keys.sh "$keys" demo

echo "== database $PGDATABASE: recreated and migrated"
psql -q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE WITH (FORCE)" -c "CREATE DATABASE $PGDATABASE" 2>>"$log"
"$bin/migrate" --log-format json 2>>"$log" >/dev/null

echo "== world: $SUBSCRIPTIONS subscriptions over $MONTHS months as of $AS_OF, seed $SEED, faults $FAULTS"
rm -rf "$world"
"$bin/world" --seed "$SEED" --subscriptions "$SUBSCRIPTIONS" --months "$MONTHS" --as-of "$AS_OF" --out "$world" \
  --faults "$FAULTS" --log-format json 2>>"$log" | tail -n 1

# --- finance (issue 14): the stores' report files of the last complete month, for the chain's import and reconcile
# The world wrote every month's files under $world/reports; the demo hands the nightly chain the last complete
# calendar month's (Google earnings and sales; Apple's fiscal period ending in that month, named MMYY, with its
# payments summary), as a month-end import would see them.
# A caller's REPORTS_DIR (the secret scan hands over every month) is kept as given.
if [ -z "${REPORTS_DIR:-}" ]; then
finance_month=$(date -u -d "${AS_OF:0:7}-01 -1 month" +%Y%m)
finance_mmyy=${finance_month:4:2}${finance_month:2:2}
export REPORTS_DIR="$local_dir/reports-import"
rm -rf "$REPORTS_DIR"; mkdir -p "$REPORTS_DIR"
(cd "$world/reports" && find . -type f \( -path "./google/*_${finance_month}*" -o -path "./apple/finance/*_${finance_mmyy}_*" \
   -o -path "./apple/payments/*_${finance_mmyy}.csv" \) -exec cp --parents {} "$REPORTS_DIR" \;)
echo "== store report files of $finance_month for the chain's import-exports: $(find "$REPORTS_DIR" -type f | wc -l) files"
fi
# --- end finance -----------------------------------------------------------------------------------------

echo "== store simulator on loopback"
source Tests/Harness/store-simulator.sh
trap 'kill ${simulator_pid:-} 2>/dev/null || true' EXIT
start_store_simulator "$bin" "$world" "$keys" demo "$local_dir" "$logs/simulator.log" \
  --limits on --limits-config "apple.getAllSubscriptionStatuses=$DEMO_RATE,google.subscriptionsv2.get=$DEMO_RATE"
echo "   listening on 127.0.0.1:$port"
client_rate=$((DEMO_RATE * 95 / 100))
export STORE_RATE_LIMITS="apple.getAllSubscriptionStatuses=$client_rate,google.subscriptionsv2.get=$client_rate"

# --- ops (issue 16): drift counts before the chain -------------------------------------------------------
drift_before="$local_dir/drift/before" drift_after="$local_dir/drift/after"
rm -rf "$local_dir/drift"; mkdir -p "$drift_before" "$drift_after"
"$bin/drift-counts" --textfile-dir "$drift_before" --log-format json 2>>"$log" >/dev/null || true
# A new installation backfills Apple's notification history once (docs/RUNBOOK.md, "Recover an outage window"):
# 170 days, inside the 180 Apple keeps; the nightly chain's own recover-notifications then reaches back a day.
# BACKFILL_DAYS shortens it on a slow machine (the recall then shows the older lost notifications as not repaired).
since=$(date -u -d "$AS_OF - ${BACKFILL_DAYS:-170} days" +%FT%TZ)
echo "== backfill: recover-notifications --since $since (first installation)"
"$bin/recover-notifications" --since "$since" --log-format json 2>>"$log" | tail -n 1 \
  | sed -E 's/.*"counts":\{([^}]*)\}.*/   \1/; s/"//g' || true
# --- end ops ---------------------------------------------------------------------------------------------

echo "== nightly chain (a status line per step, then the summary table)"
status=0
"$bin/nightly" --log-format json 2>>"$log" | sed '$d' || status=$?

echo
echo "== what the chain found and repaired (drift_event by kind)"
psql -q -P footer=off -c "SELECT kind, count(*) AS repaired FROM drift_event GROUP BY kind ORDER BY kind"
echo "== store calls made (store_query by endpoint and outcome)"
psql -q -P footer=off -c "SELECT endpoint, outcome, count(*) AS calls FROM store_query GROUP BY endpoint, outcome ORDER BY endpoint, outcome"
echo "== refunds and revocations in the history (billing_transaction by refund kind)"
psql -q -P footer=off -c "SELECT refund_kind, event_type, count(*) AS rows, count(amount_micros) AS with_amount, count(DISTINCT currency_code) AS currencies
  FROM billing_transaction WHERE refund_kind IS NOT NULL GROUP BY refund_kind, event_type ORDER BY refund_kind, event_type"
# --- ops (issue 16): drift before/after, recall against the manifest, job runs in 80 columns -----------------
"$bin/drift-counts" --textfile-dir "$drift_after" --log-format json 2>>"$log" >/dev/null || true
echo "== drift counts before and after the chain (non-zero series; ratios and ages left out)"
awk 'FNR == 1 { side++ } /^#/ || /_ratio_24h|_seconds/ { next } {
       key = $1; sub(/^iap_/, "", key); gsub(/"|[a-z_]+=/, "", key); value[key, side] = $2; keys[key] = 1 }
     END { printf "%-60s %8s %8s\n", "series", "before", "after"
           for (k in keys) if (value[k, 1] + 0 != 0 || value[k, 2] + 0 != 0)
             printf "%-60s %8d %8d\n", substr(k, 1, 60), value[k, 1], value[k, 2] }' \
  "$drift_before/iap_drift_counts.prom" "$drift_after/iap_drift_counts.prom" | { IFS= read -r head; echo "$head"; sort; }
echo "== repair recall against the manifest (by fault kind)"
"$bin/world" --recall --out "$world" --log-format json 2>>"$log" | sed '$d'
echo "  (reachable: what the stores' APIs still answer for; the backfill covered Apple's last 170 days)"
echo "== job runs"
psql -q -P footer=off -c "SELECT job_name AS job, replace(status, 'threshold_breached', 'breached') AS status,
  round(extract(epoch FROM finished_at - started_at)::numeric, 1) AS secs,
  left(regexp_replace(counts::text, '[{}\" ]', '', 'g'), 32) AS counts FROM job_run ORDER BY id"
# --- end ops ---------------------------------------------------------------------------------------------
# --- finance (issue 14): what reconcile found in the month's files ------------------------------------------
# An Apple period is shown as people read it: the calendar month it is named after, the fiscal label, its days
# (the stored reportDate 2027-02 reads as February 2027 but is fiscal November 2026).
period_sql="CASE r.provider WHEN 'apple' THEN (CASE WHEN right(r.period, 2)::int <= 3
    THEN (left(r.period, 4)::int - 1)::text || '-' || lpad((right(r.period, 2)::int + 9)::text, 2, '0')
    ELSE left(r.period, 4) || '-' || lpad((right(r.period, 2)::int - 3)::text, 2, '0') END)
  || ' (FY' || left(r.period, 4) || ' P' || right(r.period, 2) || ', '
  || to_char((r.starts_at AT TIME ZONE 'America/Los_Angeles')::date, 'YYYY-MM-DD') || ' to '
  || to_char((r.ends_at AT TIME ZONE 'America/Los_Angeles')::date - 1, 'YYYY-MM-DD') || ')' ELSE r.period END"
echo "== reconciliation of the imported month (current run per provider and period: items by category)"
psql -q -P footer=off -c "SELECT r.provider, $period_sql AS period, i.category, sum(i.unit_count) AS items,
  sum(i.report_units) AS report_units, sum(i.database_units) AS db_units
  FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
  WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
# --- reconciliation loop (issue 28): the chain reconciles, repairs what the stores answer for, reconciles again ----
echo "== reconciliation loop: open items by category before (the chain's first reconcile) and after requery-at-risk"
psql -q -P footer=off -c "WITH ordered AS (
    SELECT id, provider, period, superseded_by, row_number() OVER (PARTITION BY provider, period ORDER BY id) AS n
    FROM reconciliation_run),
  legs AS (
    SELECT o.provider, o.period, i.category, i.unit_count AS before, 0 AS after
    FROM ordered o JOIN reconciliation_item i ON i.run_id = o.id WHERE o.n = 1
    UNION ALL SELECT o.provider, o.period, i.category, 0, i.unit_count
    FROM ordered o JOIN reconciliation_item i ON i.run_id = o.id WHERE o.superseded_by IS NULL)
  SELECT r.provider, $period_sql AS period, l.category, sum(l.before) AS before, sum(l.after) AS after
  FROM legs l JOIN reconciliation_run r ON r.provider = l.provider AND r.period = l.period AND r.superseded_by IS NULL
  WHERE l.category IN ('missing_in_database', 'refund_not_reflected', 'amount_mismatch', 'duplicate', 'missing_in_store_report')
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
echo "== what requery-at-risk said of each item it acted on (reconciliation_repair: the reason an item still listed keeps)"
psql -q -P footer=off -c "SELECT r.provider, i.category, p.outcome, count(*) AS items
  FROM reconciliation_repair p JOIN reconciliation_item i ON i.run_id = p.run_id AND i.line = p.line
  JOIN reconciliation_run r ON r.id = p.run_id GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
psql -qtAX -c "SELECT 'demo: Google refunds written for part of their charge (Orders API partialRefundEvents): ' || count(*)
  FROM billing_transaction f JOIN billing_transaction c ON c.transaction_key = f.refunded_transaction_key
  WHERE f.provider = 'GOOGLE' AND f.event_type = 'REFUNDED' AND -f.amount_micros < c.amount_micros"
# --- end reconciliation loop ---------------------------------------------------------------------------------
echo "== reconciliation totals per currency (report gross − database gross = variance)"
psql -q -P footer=off -c "WITH legs AS (
    SELECT r.provider, $period_sql AS period, i.currency::text AS currency, i.report_gross_micros AS g, 0::int8 AS d
    FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
    WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment
    UNION ALL SELECT r.provider, $period_sql, coalesce(i.database_currency, i.currency)::text, 0, i.database_gross_micros
    FROM reconciliation_run r JOIN reconciliation_item i ON i.run_id = r.id
    WHERE r.superseded_by IS NULL AND NOT i.prior_period_adjustment)
  SELECT provider, period, currency, sum(g) AS report_gross_micros, sum(d) AS db_gross_micros, sum(g) - sum(d) AS variance_micros
  FROM legs GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
psql -qtAX -c "SELECT 'demo: reconcile ' || status || ' (it exits 1 when a currency''s categories do not sum to its variance to the micro)'
  FROM job_run WHERE job_name = 'reconcile' ORDER BY id DESC LIMIT 1"
# --- end finance -----------------------------------------------------------------------------------------
echo "== finance reports (build-reports, the nightly chain's step)"
reports_date=$(psql -qtAX -c "SELECT to_char(as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM job_run
  WHERE job_name = 'build-reports' AND status = 'succeeded' ORDER BY id DESC LIMIT 1")
# build-reports writes under $REPORT_OUT_DIR when set (the secret scan's folder), else Reports/out.
reports_out=$(cd "$root" && mkdir -p "${REPORT_OUT_DIR:-Reports/out}" && cd "${REPORT_OUT_DIR:-Reports/out}" && pwd)
if [ -n "$reports_date" ] && [ -d "$reports_out/$reports_date" ]; then
  (cd "$reports_out/$reports_date" && for f in *.csv *.xlsx *.html; do printf '   %-28s %10s bytes\n' "$f" "$(wc -c <"$f")"; done)
  echo "demo: reports (CSV per report, one workbook with charts) are in $reports_out/$reports_date/"
  echo "demo: open $reports_out/$reports_date/report.html in a browser for the headline, charts and figures"
else
  echo "demo: build-reports wrote no reports (see $log)"
fi
faults=$(grep -c '"kind"' "$world/manifest.json" || true)
echo "demo: $faults injected faults are listed in $world/manifest.json"
echo "demo: the world's expected metrics are in $world/expected-metrics.json (definitions: docs/METRICS.md)"
echo "demo: database $PGDATABASE on the unix socket in $PGHOST; job logs in $log, simulator log in $logs/simulator.log"
# Exit 3 is the chain's soft outcome: every step ran, and one completed with a threshold breached (a repair job that
# left items it could not reach failed for the next run, as the generated world's unreachable faults do).
if [ "$status" -eq 3 ]; then
  echo "demo: the nightly chain exited 3 (soft: completed, a step left items failed or breached a threshold; see its status lines)"
  status=0
fi
exit "$status"
