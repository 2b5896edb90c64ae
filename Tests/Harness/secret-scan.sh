#!/usr/bin/env bash
# Secret scan: runs the demo pipeline (demo.sh: migrate, world, store simulator, the nightly chain with the world's
# report files to import and a drift textfile folder) on a small world into its own folder and database, then
# scans everything the pipeline wrote for secrets: private key material (PEM headers and every line of the key
# files' bodies), bearer tokens, JWTs (three base64url segments) and the raw purchase tokens of the world.
#   Tests/Harness/secret-scan.sh <bin folder> <work folder>
# Scanned: the job log (every job's log lines and JSON summaries), the demo's stdout, drift-counts' output and its
# .prom textfile, Reports/out when present, and the job_run rows (summaries, errors, arguments).
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
demo_status=0
Tests/Harness/demo.sh >"$out/demo.stdout" 2>&1 || demo_status=$?
export PGDATABASE=$DEMO_DATABASE
# The chain stops at the first hard failure; drift-counts (the .prom textfile and its JSON) always runs here.
"$bin/drift-counts" --log-format json >"$out/drift-counts.stdout" 2>"$out/drift-counts.log" || true
psql -Atq -c "SELECT row_to_json(j) FROM job_run j ORDER BY id" >"$out/job_run.jsonl"
psql -Atq -c "SELECT purchase_token FROM google_purchase_token" | sort -u >"$work/purchase-tokens.txt"
runs=$(wc -l <"$out/job_run.jsonl")
tokens=$(wc -l <"$work/purchase-tokens.txt")
if [ "$runs" -lt 7 ] || [ "$tokens" -lt 10 ]; then
  echo "secret-scan: the pipeline did not run (demo exit $demo_status, $runs job runs, $tokens tokens); see $out/demo.stdout" >&2
  exit 2
fi

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
[ -d "$root/Reports/out" ] && while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$root/Reports/out" -type f -print0)
lines=$(cat "${files[@]}" | wc -l)
scan "${files[@]}" >"$work/hits.txt"
hits=$(wc -l <"$work/hits.txt")
head -n 20 "$work/hits.txt" | sed "s|$work/||" >&2
echo "secret-scan files=${#files[@]} lines=$lines tokens=$tokens hits=$hits demo_exit=$demo_status"
[ "$hits" -eq 0 ]
