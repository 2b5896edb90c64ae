#!/bin/bash
# Checks drift-counts' textfile with Prometheus' own linter: runs the built drift-counts against the database the
# environment names (e.g. `eval "$(Tests/Harness/pg-cluster.sh env)"` and PGDATABASE of a generated world), then
# `promtool check metrics` on the .prom file. promtool comes with Debian's `prometheus` package.
#   Benchmarks/tools/promtool-check.sh [--as-of …]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v promtool >/dev/null || { echo "promtool is not installed (apt-get install prometheus)"; exit 2; }
bin="$(swift build --show-bin-path)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0
"$bin/drift-counts" --textfile-dir "$out" --log-format json "$@" >/dev/null || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || { echo "drift-counts exited $status"; exit 1; }
promtool check metrics < "$out/iap_drift_counts.prom"
echo "promtool: $(grep -c '^# TYPE' "$out/iap_drift_counts.prom") metric families, $(grep -vc '^#' "$out/iap_drift_counts.prom") series: OK"
