#!/usr/bin/env bash
# Two versions of build-reports' SQL (report files and migrations), each on its own copy of a world, measured side by
# side: per round `nightly` (reusing what the previous run stored) and `--full`, old and new alternated. Before the
# rounds each copy stores the previous night (as of AS_OF minus one day). Prints one markdown row per run (wall, the
# client's CPU, the database's backend CPU for that copy, the job's step seconds) and whether each run's files equal
# the other version's (CSVs) and each nightly's its full run's (every file).
#   OLD_DB=… OLD_SQL=<report folder> NEW_DB=… NEW_SQL=Reports REPORT_BIN=<folder of build-reports> [OLD_BIN=…]
#   [ROUNDS=1] [AS_OF=2026-11-29T00:00:00Z] [REPORT_MONTHS=24] Benchmarks/reports/ab_nightly.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${REPORT_BIN:?}; old_bin=${OLD_BIN:-$bin}
out=${REPORT_OUT:-Benchmarks/out/ab}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}; REPORT_MONTHS=${REPORT_MONTHS:-24}; ROUNDS=${ROUNDS:-1}
source Benchmarks/reports/measure.sh
mkdir -p "$out"; rm -rf "${out:?}"/*
last=$(date -u -d "${AS_OF%%T*}" +%Y-%m)
first=$(date -u -d "${AS_OF%%T*} -$((REPORT_MONTHS - 1)) months" +%Y-%m)
previous=$(date -u -d "${AS_OF%%T*} -1 day" +%Y-%m-%dT%H:%M:%SZ)
common=(--from "$first" --to "$last" --currency USD --basis corrected --raw-ids --log-format json)
run() { # label version as_of [--full]
  local label=$1 version=$2 at=$3; shift 3
  if [ "$version" = old ]; then db=$OLD_DB; sql=$OLD_SQL; b=$old_bin; else db=$NEW_DB; sql=$NEW_SQL; b=$bin; fi
  PGDATABASE=$db REPORT_SQL_DIR=$sql measure "$label" "$b/build-reports" --as-of "$at" "${common[@]}" --out "$out/$label" "$@"
}
steps() { python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
s = {k[8:]: float(v) for k, v in d.items() if k.startswith("seconds_")}
print(", ".join("%s %.1f" % kv for kv in sorted(s.items(), key=lambda kv: -kv[1]) if kv[1] >= 1))' "$1"; }
run prev-old old "$previous" >/dev/null; run prev-new new "$previous" >/dev/null
echo "| round | run | wall s | client CPU s | backend CPU s | load (1 min) | job steps (s, ≥ 1) |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  for who in nightly-old nightly-new full-old full-new; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $who in full-*) full=--full ;; *) full= ;; esac
    read -r wall cpu _ server <<<"$(run "$who-$round" "${who#*-}" "$AS_OF" $full)"
    echo "| $round | $who | $wall | $cpu | $server | $load | $(steps "$out/$who-$round.out") |"
  done
  same=""
  # Old against new: the CSVs (the workbook's cover and the HTML page name each report file's SHA-256, which differs
  # where a file changed).
  for pair in "nightly-old full-old all" "nightly-new full-new all" "full-old full-new csv" "nightly-old nightly-new csv"; do
    set -- $pair; verdict="byte-identical"
    if [ "$3" = csv ]; then files=("$out/$1-$round"/*.csv); else files=("$out/$1-$round"/*); fi
    for f in "${files[@]}"; do cmp -s "$f" "$out/$2-$round/$(basename "$f")" || verdict="**differ** ($(basename "$f"))"; done
    same+="$1 vs $2: $verdict; "
  done
  echo "| $round | $same ||||||"
done
