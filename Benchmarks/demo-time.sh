#!/usr/bin/env bash
# Fresh-clone demo time: clones this repository (its committed HEAD) into a temporary folder, then times, separately,
# the build (`make build`: every product `make demo` needs, from an empty .build) and the demo (`make demo` on the
# built tree: its own private PostgreSQL, the world, the nightly chain, the recall and the reports), and prints
# the demo's sections with the wall-clock time each began (every output line is stamped as it arrives). Prints a markdown section
# for Benchmarks/results.md. The clone, its database cluster and its build are removed at the end (KEEP=1 keeps them).
# Runs for ten minutes or more on a quiet 2-core machine: run it once, with nothing else building.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/iap-demo-time.XXXXXX")
clone="$scratch/repo"
cleanup() {
  if [ -d "$clone" ]; then (cd "$clone" && make -s db-down >/dev/null 2>&1 || true); fi
  [ "${KEEP:-0}" = 1 ] || rm -rf "$scratch"
}
trap cleanup EXIT

git clone --quiet "$root" "$clone"
cd "$clone"
commit=$(git rev-parse --short HEAD)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
make -s deps >/dev/null

t0=$(date +%s)
make build >"$scratch/build.log" 2>&1
t1=$(date +%s)
# Each output line stamped with the wall clock as it arrives (bash's printf, no process per line).
stamp() { while IFS= read -r line; do printf '%(%T)T %s\n' -1 "$line"; done; }
set +e
AS_OF=${AS_OF:-$(date -u +%F)} make demo 2>&1 | stamp >"$scratch/demo.log"
status=${PIPESTATUS[0]}
set -e
[ "$status" = 0 ] || { echo "make demo exited $status; see $scratch/demo.log" >&2; KEEP=1; exit 1; }
t2=$(date +%s)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

build=$((t1 - t0)) demo=$((t2 - t1))
recall=$(grep -m1 -o 'recall: .*' "$scratch/demo.log" || echo "recall: (not printed)")
steps=$(grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} == ' "$scratch/demo.log" || true)
cat <<MD
### Fresh-clone \`make demo\`: commit $commit, $(date -u +%F)

\`Benchmarks/demo-time.sh\` (a \`git clone\` into a temporary folder, \`make build\` from an empty \`.build\`, then
\`make demo\` with the defaults: 20000 subscriptions × 18 months, seed 42). Load average before: $load_before; after: $load_after.

| phase | seconds |
|---|---|
| build (\`make build\`, debug) | $build |
| demo (\`make demo\` on the built tree) | $demo |
| total | $((build + demo)) |

$recall

Demo sections (wall-clock start of each):
\`\`\`
$steps
\`\`\`
MD
