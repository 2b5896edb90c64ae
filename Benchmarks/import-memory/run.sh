#!/usr/bin/env bash
# The import-memory benchmark (issue 27, "Streaming with bounded memory"): peak RSS of `import-exports` per input size
# and on archive bombs, then the same inputs under a 512 MiB address-space limit (`ulimit -v 524288`).
#   inputs  an Apple Subscriber report (.txt; one .txt.gz), an Apple financial report (.txt), a Google earnings zip (Benchmarks/reconcile/generate.py)
#           and a Google estimated sales report (.csv and .zip) at ~1 MB and ~50 MB of text, plain and .gz/.zip (and
#           ~500 MB with IMPORT_MEMORY_LARGE=1, removed again at the end), a Google earnings zip and an estimated sales
#           zip whose CSV expands to 2 GB and a Subscriber .txt.gz expanding to 2 GB (Benchmarks/import-memory/generate.py)
#   run     each file alone: a fresh migrated database, then `/usr/bin/time -v import-exports --reports-dir FILE`
#   prints  case, input bytes (file; text), exit code, peak RSS (MiB), wall, and whether stdout holds the job's summary
#           line and `job_run` is left `running`; the limited pass fails the script unless every case exits 0 or 1
#           with a summary line and no `running` job_run row.
# IMPORT_MEMORY_BUILD=debug|release (default debug: the lead's machine is shared; release builds with
# Benchmarks/release-flags.sh). IMPORT_MEMORY_CASES limits the cases (names as printed, space-separated).
# Inputs are cached under .local/bench/import-memory. Needs the PG* variables of the embedded cluster (`make db-up`,
# then `eval "$(Tests/Harness/pg-cluster.sh env)"`); uses the database iap_bench_import_memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
cache=$root/.local/bench/import-memory
mkdir -p "$cache"
if [ "${IMPORT_MEMORY_BUILD:-debug}" = release ]; then
  source Benchmarks/release-flags.sh
  flags=("${RELEASE_FLAGS[@]}")
else
  flags=()
fi
swift build "${flags[@]}" --product import-exports >/dev/null
swift build "${flags[@]}" --product migrate >/dev/null
bin=$(swift build "${flags[@]}" --show-bin-path)
export PGDATABASE=iap_bench_import_memory
gen=Benchmarks/import-memory/generate.py
mb=$((1 << 20))

# Inputs, each in a folder of its own (the job takes folders or files; a folder keeps the file name the kind is read from).
sub() { # NAME BYTES FILE
  local dir=$cache/$1
  [ -f "$dir/$3" ] || { mkdir -p "$dir"; python3 $gen subscriber "$2" "$dir/$3" >/dev/null; }
}
earn() { # NAME ORDERS (≈ 690 bytes of CSV per order)
  local dir=$cache/$1
  if ! ls "$dir"/earnings_*.zip >/dev/null 2>&1; then
    python3 Benchmarks/reconcile/generate.py "$2" 2026-07 "$dir.gen" 00000000-0000-4000-8000-000000000014 >/dev/null
    mkdir -p "$dir" && mv "$dir.gen"/earnings_*.zip "$dir/" && rm -rf "$dir.gen"
  fi
}
fin() { # NAME BYTES (an Apple financial report, read as a stream since h27)
  local dir=$cache/$1
  [ -f "$dir/85000000_1125_US.txt" ] || { mkdir -p "$dir"; python3 $gen financial "$2" "$dir/85000000_1125_US.txt" >/dev/null; }
}
fin financial-1mb $mb
fin financial-50mb $((50 * mb))
sub apple-1mb $mb Subscriber_85000000_20251103.txt
sub apple-1mb-gz $mb Subscriber_85000000_20251103.txt.gz
sub apple-50mb $((50 * mb)) Subscriber_85000000_20251103.txt
sub apple-50mb-gz $((50 * mb)) Subscriber_85000000_20251103.txt.gz
sales() { # NAME BYTES FILE (.csv or .zip)
  local dir=$cache/$1
  [ -f "$dir/$3" ] || { mkdir -p "$dir"; python3 $gen estimated-sales "$2" "$dir/$3" >/dev/null; }
}
earn google-1mb 1500
earn google-50mb 76000
sales sales-1mb $mb salesreport_202511.csv
sales sales-1mb-zip $mb salesreport_202511.zip
sales sales-50mb $((50 * mb)) salesreport_202511.csv
sales sales-50mb-zip $((50 * mb)) salesreport_202511.zip
cases="financial-1mb financial-50mb apple-1mb apple-1mb-gz apple-50mb apple-50mb-gz google-1mb google-50mb sales-1mb sales-1mb-zip sales-50mb sales-50mb-zip"
if [ "${IMPORT_MEMORY_LARGE:-0}" = 1 ]; then
  case " ${IMPORT_MEMORY_CASES:-apple-500mb} " in *" apple-500mb "*) sub apple-500mb $((500 * mb)) Subscriber_85000000_20251103.txt ;; esac
  case " ${IMPORT_MEMORY_CASES:-apple-500mb-gz} " in *" apple-500mb-gz "*) sub apple-500mb-gz $((500 * mb)) Subscriber_85000000_20251103.txt.gz ;; esac
  case " ${IMPORT_MEMORY_CASES:-google-500mb} " in *" google-500mb "*) earn google-500mb 760000 ;; esac
  case " ${IMPORT_MEMORY_CASES:-sales-500mb} " in *" sales-500mb "*) sales sales-500mb $((500 * mb)) salesreport_202511.csv ;; esac
  case " ${IMPORT_MEMORY_CASES:-sales-500mb-zip} " in *" sales-500mb-zip "*) sales sales-500mb-zip $((500 * mb)) salesreport_202511.zip ;; esac
  cases="$cases apple-500mb apple-500mb-gz google-500mb sales-500mb sales-500mb-zip"
  # The ~500 MB inputs take ~2 GB of a shared disk: removed when the script ends.
  trap 'rm -rf "$cache"/apple-500mb "$cache"/apple-500mb-gz "$cache"/google-500mb "$cache"/sales-500mb "$cache"/sales-500mb-zip' EXIT
fi
if [ ! -f "$cache/google-bomb/earnings_202607_1234567890123-0.zip" ]; then
  mkdir -p "$cache/google-bomb"
  python3 $gen earnings-bomb $((2048 * mb)) "$cache"/google-1mb/earnings_*.zip "$cache/google-bomb/earnings_202607_1234567890123-0.zip" >/dev/null
fi
[ -f "$cache/apple-bomb/Subscriber_85000000_20251103.txt.gz" ] || {
  mkdir -p "$cache/apple-bomb"; python3 $gen subscriber-bomb $((2048 * mb)) "$cache/apple-bomb/Subscriber_85000000_20251103.txt.gz" >/dev/null; }
[ -f "$cache/sales-bomb/salesreport_202511.zip" ] || {
  mkdir -p "$cache/sales-bomb"; python3 $gen estimated-bomb $((2048 * mb)) "$cache/sales-bomb/salesreport_202511.zip" >/dev/null; }
cases="${IMPORT_MEMORY_CASES:-$cases google-bomb apple-bomb sales-bomb}"

# Text bytes of an input (the CSV inside a zip, the text inside a gzip).
text_bytes() {
  case $1 in
    *.zip) python3 -c 'import sys, zipfile; print(sum(i.file_size for i in zipfile.ZipFile(sys.argv[1]).infolist()))' "$1" ;;
    *.gz) gzip -l "$1" | awk 'NR == 2 { print $2 }' ;; # modulo 4 GiB: right below that
    *) stat -c %s "$1" ;;
  esac
}

fresh_db() {
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE WITH (FORCE)" -c "CREATE DATABASE $PGDATABASE" >/dev/null
  "$bin/migrate" --log-format json >/dev/null 2>&1
}

# One run: LIMIT_KB (empty: none) CASE. Prints one table row; returns 1 when the limited contract is broken.
run_case() {
  local limit=$1 name=$2 dir=$cache/$2 out=$cache/$2.out err=$cache/$2.err timing=$cache/$2.time
  local file; file=$(ls "$dir"/* | head -1)
  fresh_db
  set +e
  ( [ -z "$limit" ] || ulimit -v "$limit"
    exec /usr/bin/time -v -o "$timing" "$bin/import-exports" --log-format json --reports-dir "$dir" >"$out" 2>"$err" )
  local code=$?
  set -e
  # The job's own exit code (time -v reports a signal as "Command terminated by signal N").
  local status; status=$(awk -F': ' '/Exit status/ { print $2 }' "$timing")
  grep -q 'terminated by signal' "$timing" && status="signal $(grep -o 'signal [0-9]*' "$timing" | awk '{ print $2 }')"
  local rss; rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$timing")
  local wall; wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$timing")
  local summary=no; grep -q '"job":"import-exports"' "$out" && summary=yes
  local running; running=$(psql -qtA -c "SELECT count(*) FROM job_run WHERE job_name = 'import-exports' AND status = 'running'")
  local reason; reason=$(grep -o '"error":"[^"]*' "$out" | head -1 | cut -c10-130 || true)
  printf '| %s | %s | %s | %s | %s MiB | %s | %s | %s | %s |\n' "$name" "$(stat -c %s "$file")" "$(text_bytes "$file")" \
    "$status" "$rss" "$wall" "$summary" "$running" "${reason:-}"
  if [ -n "$limit" ]; then
    [[ "$status" = 0 || "$status" = 1 ]] && [ "$summary" = yes ] && [ "$running" = 0 ] || return 1
  fi
  return 0
}

header='| case | file bytes | text bytes | exit | peak RSS | wall | summary line | job_run running | error (first 120 chars) |
|---|---|---|---|---|---|---|---|---|'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); build: ${IMPORT_MEMORY_BUILD:-debug}; commit $(git rev-parse --short HEAD)"
echo "no limit:"; echo "$header"
for c in $cases; do run_case "" "$c"; done
echo "ulimit -v 524288:"; echo "$header"
broken=0
for c in $cases; do run_case 524288 "$c" || broken=$((broken + 1)); done
psql -q -d postgres -c "DROP DATABASE IF EXISTS $PGDATABASE WITH (FORCE)" >/dev/null
if [ "$broken" -gt 0 ]; then echo "FAIL: $broken case(s) under ulimit -v 524288 did not end with exit 0/1, a summary line and job_run finished"; exit 1; fi
echo "ok: every case under ulimit -v 524288 ended with exit 0/1, a summary line and job_run finished"
