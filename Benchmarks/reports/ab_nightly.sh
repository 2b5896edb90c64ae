#!/usr/bin/env bash
# Two versions of build-reports, each installed as deployed on its own copy of a world, measured side by side: per
# round `nightly` (reusing what the previous run stored) and `--full`, old and new alternated. A version is a source
# tree (this repository, or a `git worktree` of another commit) with its release build
# (`source Benchmarks/release-flags.sh && swift build "${RELEASE_FLAGS[@]}"` in it): its jobs, report SQL and
# migrations are installed as `make install` does (Benchmarks/reports/as_deployed.sh, run in that tree: the installed
# `migrate` as iap_owner brings its copy to that version's schema) and run as iap_job from a working directory of
# their own, identifiers masked: the deployed command line. The copies are vacuumed and analysed together first (a
# world's stores bloat night by night, and an unvacuumed copy's nights drift slower), and each version runs the
# previous night (as of AS_OF minus one day) before each measured night. Prints one markdown row per run (wall, the
# client's CPU, the database's backend CPU for that copy, the job's step seconds) and whether each run's files equal
# the other version's (CSVs) and each nightly's its full run's (every file). With both versions the same tree, it
# measures this machine's noise (A/A).
#   OLD_DB=… OLD_SRC=<source tree> NEW_DB=… [NEW_SRC=<this repository>] [ROUNDS=1] [AS_OF=2026-11-29T00:00:00Z]
#   [REPORT_MONTHS=24] [RUNS="nightly full"] [REPORT_OUT=Benchmarks/out/ab] Benchmarks/reports/ab_nightly.sh
# A copy whose schema is newer than its version's migrations is refused by that version's `migrate`: make the old
# copy from the world before the new version's migrations were applied to it.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)
old_src=$(realpath "${OLD_SRC:?}"); new_src=$(realpath "${NEW_SRC:-$here}")
out=${REPORT_OUT:-Benchmarks/out/ab}
AS_OF=${AS_OF:-2026-11-29T00:00:00Z}; REPORT_MONTHS=${REPORT_MONTHS:-24}; ROUNDS=${ROUNDS:-1}; RUNS=${RUNS:-nightly full}
release=.build/x86_64-unknown-linux-gnu/release
source Benchmarks/reports/measure.sh
mkdir -p "$out"; rm -rf "${out:?}"/*; out=$(realpath "$out")
last=$(date -u -d "${AS_OF%%T*}" +%Y-%m)
first=$(date -u -d "${AS_OF%%T*} -$((REPORT_MONTHS - 1)) months" +%Y-%m)
previous=$(date -u -d "${AS_OF%%T*} -1 day" +%Y-%m-%dT%H:%M:%SZ)
common=(--from "$first" --to "$last" --currency USD --basis corrected --log-format json)
for version in old new; do
  if [ "$version" = old ]; then src=$old_src db=$OLD_DB; else src=$new_src db=$NEW_DB; fi
  (cd "$src" && source Benchmarks/reports/as_deployed.sh && as_deployed "$db" "$src/$release" "$out/installed-$version")
  mkdir -p "$out/work-$version"
  psql -X -q -d "$db" -c "VACUUM ANALYZE"
done
run() { # label version as_of [--full]: the installed version as iap_job from its own working directory
  local label=$1 version=$2 at=$3; shift 3
  if [ "$version" = old ]; then db=$OLD_DB; else db=$NEW_DB; fi
  measure "$label" env -C "$out/work-$version" PGUSER=iap_job PGDATABASE="$db" "$out/installed-$version/bin/build-reports" \
    --as-of "$at" "${common[@]}" --out "$out/$label" "$@"
}
steps() { python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
s = {k[8:]: float(v) for k, v in d.items() if k.startswith("seconds_")}
print(", ".join("%s %.1f" % kv for kv in sorted(s.items(), key=lambda kv: -kv[1]) if kv[1] >= 1))' "$1"; }
echo "| round | run | wall s | client CPU s | backend CPU s | load (1 min) | job steps (s, ≥ 1) |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  for who in nightly-old nightly-new full-old full-new; do
    case " $RUNS " in *" ${who%-*} "*) ;; *) continue ;; esac
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $who in full-*) full=--full ;; *) full= ;; esac
    # Each night follows its version's night before (not measured), so every round's night has one day of new rows
    # to it; a second night at the same instant would find nothing changed (the "no change" night, faster).
    [ -n "$full" ] || run "prev-$who-$round" "${who#*-}" "$previous" >/dev/null
    read -r wall cpu _ server <<<"$(run "$who-$round" "${who#*-}" "$AS_OF" $full)"
    echo "| $round | $who | $wall | $cpu | $server | $load | $(steps "$out/$who-$round.out") |"
  done
  same=""
  # Old against new: the CSVs (the workbook's cover and the HTML page name each report file's SHA-256, which differs
  # where a file changed).
  for pair in "nightly-old full-old all" "nightly-new full-new all" "full-old full-new csv" "nightly-old nightly-new csv"; do
    set -- $pair
    [ -d "$out/$1-$round" ] && [ -d "$out/$2-$round" ] || continue
    verdict="byte-identical"
    if [ "$3" = csv ]; then files=("$out/$1-$round"/*.csv); else files=("$out/$1-$round"/*); fi
    for f in "${files[@]}"; do cmp -s "$f" "$out/$2-$round/$(basename "$f")" || verdict="**differ** ($(basename "$f"))"; done
    same+="$1 vs $2: $verdict; "
  done
  echo "| $round | $same ||||||"
done
