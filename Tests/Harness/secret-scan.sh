#!/usr/bin/env bash
# Secret scan: runs the demo pipeline (demo.sh: migrate, world, store simulator, the nightly chain with the world's
# report files to import and a drift textfile folder) on a small world into its own folder and database, then
# scans everything the pipeline wrote for secrets: private key material (PEM headers and every line of the key
# files' bodies), bearer tokens, JWTs (three base64url segments) and the raw purchase tokens of the world.
#   Tests/Harness/secret-scan.sh <bin folder> <work folder>
# Scanned: every folder a job writes, all under the scan's own out folder: the job log (every job's log lines and
# JSON summaries), the demo's stdout, build-reports' CSV files ($REPORT_OUT_DIR; the chain's run, and one over the
# world's months), reconcile's CSV files
# ($RECONCILE_OUT), drift-counts' output and its .prom textfile, then close-period of the world's middle month (its
# output, log and every period_snapshot row written out as a file), explain of Google and Apple subscriptions (text
# and JSON, with their logs), and the job_run rows (summaries, errors, arguments).
# Not scanned: the inputs (the world's truth folder and report files, the key folder) and the store simulator's
# log (a test double, not the product). Before the real scan the patterns must find planted canaries.
# Prints `secret-scan files=N lines=M tokens=T hits=H`; exit 1 on any hit, 2 when the scan could not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ $# -eq 2 ] || { echo "usage: $0 <bin folder> <work folder>" >&2; exit 2; }
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work/out/textfile"
out="$work/out"

eval "$(Tests/Harness/pg-cluster.sh env)"
export DEMO_BIN="$bin" DEMO_DIR="$work" DEMO_DATABASE=${SCAN_DATABASE:-iap_secret_scan}
export SUBSCRIPTIONS=${SUBSCRIPTIONS:-400} MONTHS=${MONTHS:-3} SEED=${SEED:-7} AS_OF=${AS_OF:-2026-06-01}
export REPORTS_DIR="$work/world/reports" DRIFT_TEXTFILE_DIR="$out/textfile"
export REPORT_OUT_DIR="$out/reports" RECONCILE_OUT="$out/reconcile"
mkdir -p "$REPORT_OUT_DIR" "$RECONCILE_OUT" "$out/period_snapshot" "$out/explain"
demo_status=0
Tests/Harness/demo.sh >"$out/demo.stdout" 2>&1 || demo_status=$?
export PGDATABASE=$DEMO_DATABASE
# The chain stops at the first hard failure; drift-counts (the .prom textfile and its JSON) always runs here.
"$bin/drift-counts" --log-format json >"$out/drift-counts.stdout" 2>"$out/drift-counts.log" || true
# build-reports over the world's months (the chain's own run reports months the world does not reach, without FX).
"$bin/build-reports" --from "$(date -u -d "${AS_OF:0:7}-01 -${MONTHS} month" +%Y-%m)" --to "$(date -u -d "${AS_OF:0:7}-01 -1 month" +%Y-%m)" \
  --log-format json >"$out/build-reports.stdout" 2>"$out/build-reports.log" || true
# close-period of the world's middle month (its files and reconciliation into period_snapshot), each row written out.
close_month=$(date -u -d "${AS_OF:0:7}-01 -2 month" +%Y-%m)
"$bin/close-period" --period "$close_month" --log-format json >"$out/close-period.stdout" 2>"$out/close-period.log" || true
snapshots=0
while IFS='|' read -r id name; do
  [ -n "$id" ] || continue
  psql -Atq -c "SELECT encode(content, 'base64') FROM period_snapshot WHERE close_id = $id AND name = \$\$${name}\$\$" \
    | base64 -d >"$out/period_snapshot/${id}_${name//\//_}"
  snapshots=$((snapshots + 1))
done < <(psql -Atq -F '|' -c "SELECT close_id, name FROM period_snapshot ORDER BY close_id, name")
# explain of three Google and three Apple subscriptions, as text and as JSON.
explained=0
for id in $(psql -Atq -c "(SELECT subscription_id FROM google_purchase_token ORDER BY subscription_id LIMIT 3)
    UNION ALL (SELECT subscription_id FROM apple_subscription_identity ORDER BY subscription_id LIMIT 3)"); do
  "$bin/explain" "$id" --log-format json >"$out/explain/$id.txt" 2>>"$out/explain/explain.log" || true
  "$bin/explain" "$id" --json --log-format json >"$out/explain/$id.json" 2>>"$out/explain/explain.log" || true
  explained=$((explained + 1))
done
psql -Atq -c "SELECT row_to_json(j) FROM job_run j ORDER BY id" >"$out/job_run.jsonl"
psql -Atq -c "SELECT purchase_token FROM google_purchase_token" | sort -u >"$work/purchase-tokens.txt"
runs=$(wc -l <"$out/job_run.jsonl")
tokens=$(wc -l <"$work/purchase-tokens.txt")
if [ "$runs" -lt 7 ] || [ "$tokens" -lt 10 ]; then
  echo "secret-scan: the pipeline did not run (demo exit $demo_status, $runs job runs, $tokens tokens); see $out/demo.stdout" >&2
  exit 2
fi
# Every folder must hold what its job writes, or the scan of it proves nothing.
for folder in reports reconcile textfile explain; do
  [ -n "$(find "$out/$folder" -type f -size +0 -print -quit)" ] || { echo "secret-scan: nothing written in $out/$folder" >&2; exit 2; }
done
[ "$snapshots" -ge 4 ] || { echo "secret-scan: close-period of $close_month wrote $snapshots snapshots; see $out/close-period.log" >&2; exit 2; }

# Every base64 line of the private keys (PEM bodies, and the service account's private_key) is a literal pattern.
: >"$work/key-lines.txt"
for key in "$work"/keys/*; do
  tr -d '\r' <"$key" | sed 's/\\n/\n/g' | grep -Eo '[A-Za-z0-9+/=]{40,}' >>"$work/key-lines.txt" || true
done
keylines=$(sort -u "$work/key-lines.txt" | tee "$work/key-lines.sorted" | wc -l)
[ "$keylines" -ge 2 ] || { echo "secret-scan: no key lines read from $work/keys" >&2; exit 2; }

patterns='-----BEGIN [A-Z ]*PRIVATE KEY-----|[Bb]earer +[A-Za-z0-9._~+/-]{16,}=*|[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}'
# scan <files…>: prints one "file:line: what" per hit (the secret itself is not printed).
scan() {
  { grep -EnoH -e "$patterns" "$@" 2>/dev/null | sed -E 's/^([^:]*:[0-9]+):.*/\1: key header, bearer token or JWT/' || true
    grep -FnoH -f "$work/key-lines.sorted" "$@" 2>/dev/null | sed -E 's/^([^:]*:[0-9]+):.*/\1: private key material/' || true
    grep -FnoH -f "$work/purchase-tokens.txt" "$@" 2>/dev/null | sed -E 's/^([^:]*:[0-9]+):.*/\1: raw purchase token/' || true
  }
}

# Canaries: each kind must be found, or the scan proves nothing.
canary="$work/canary.txt"
{ echo "-----BEGIN EC PRIVATE KEY-----"
  echo "Authorization: Bearer ya29.c0AfH6SMBxyzabcdefghijklmnop"
  echo "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJpc3N1ZXIifQ.MEUCIQDabcdefghijkl"
  echo "key $(head -n 1 "$work/key-lines.sorted")"
  echo "token $(head -n 1 "$work/purchase-tokens.txt")"
} >"$canary"
found=$(scan "$canary" | wc -l)
[ "$found" -eq 5 ] || { echo "secret-scan: the patterns found $found of 5 canaries" >&2; scan "$canary" >&2; exit 2; }

files=("$work/logs/demo.log")
while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$out" -type f -print0)
lines=$(cat "${files[@]}" | wc -l)
scan "${files[@]}" >"$work/hits.txt"
hits=$(wc -l <"$work/hits.txt")
head -n 20 "$work/hits.txt" | sed "s|$work/||" >&2
echo "secret-scan files=${#files[@]} lines=$lines tokens=$tokens snapshots=$snapshots explained=$explained hits=$hits demo_exit=$demo_status"
[ "$hits" -eq 0 ]
