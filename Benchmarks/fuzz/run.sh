#!/usr/bin/env bash
# Builds the libFuzzer targets in Benchmarks/fuzz/targets and runs each for SECONDS (default 600). Not part of
# `make test` or CI. The project's modules are compiled with coverage instrumentation (`-sanitize=fuzzer`) into a
# separate scratch folder (.build/fuzz), then each target is linked with `swiftc -sanitize=fuzzer` (libFuzzer's main).
#   Benchmarks/fuzz/run.sh [seconds] [target ...]      targets: reports archive dates jws http (default: all)
# Seeds: Benchmarks/fuzz/corpus/<target>/ (committed). New inputs go to .build/fuzz/corpus/<target>/, crashes to
# .build/fuzz/crashes/<target>/; one `fuzz target=… seconds=… execs=… crashes=…` line per target goes to stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(reports archive dates jws http)
scratch="$root/.build/fuzz"
fuzz="$root/Benchmarks/fuzz"
mkdir -p "$scratch/bin"

# Which project modules (objects, in link order) and C libraries each target needs.
modules_for() {
  case "$1" in
    reports|archive) echo "StoreExports Archive" ;;
    dates) echo "BillingCore" ;;
    jws) echo "Crypto BillingCore" ;;
    http) echo "HTTPServer HTTP CCurlShim" ;;
  esac
}
libraries_for() {
  case "$1" in
    reports|archive) echo "-larchive" ;;
    jws) echo "-lssl -lcrypto" ;;
    http) echo "-lcurl" ;;
  esac
}

for target in "${targets[@]}"; do
  top=$(modules_for "$target" | cut -d' ' -f1)
  [ -n "$top" ] || { echo "run.sh: unknown target $target" >&2; exit 2; }
  swift build --scratch-path "$scratch" --target "$top" -Xswiftc -sanitize=fuzzer >"$scratch/build-$top.log" 2>&1 \
    || { tail -30 "$scratch/build-$top.log" >&2; exit 1; }
done
debug="$scratch/debug"
module_maps=()
for map in Sources/C*/module.modulemap "$debug"/CCurlShim.build/module.modulemap; do
  [ -f "$map" ] && module_maps+=(-Xcc "-fmodule-map-file=$map")
done

status=0
for target in "${targets[@]}"; do
  objects=()
  for module in $(modules_for "$target"); do objects+=("$debug/$module.build"/*.o); done
  # shellcheck disable=SC2046
  swiftc -sanitize=fuzzer -parse-as-library -g -I "$debug/Modules" -I "$debug" "${module_maps[@]}" \
    -Xcc -I -Xcc Sources/CCurlShim/include "$fuzz/targets/$target.swift" "${objects[@]}" $(libraries_for "$target") \
    -o "$scratch/bin/fuzz-$target" 2>"$scratch/link-$target.log" || { cat "$scratch/link-$target.log" >&2; exit 1; }
  corpus="$scratch/corpus/$target"
  crashes="$scratch/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  log="$scratch/fuzz-$target.log"
  export FUZZ_JWS_ROOT="$fuzz/jws-root.der"
  set +e
  "$scratch/bin/fuzz-$target" "$corpus" "$fuzz/corpus/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  code=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  found=$(find "$crashes" -type f | wc -l)
  echo "fuzz target=$target seconds=$seconds execs=${execs:-0} crashes=$found exit=$code log=${log#"$root"/}"
  [ "$code" -eq 0 ] && [ "$found" -eq 0 ] || status=1
done
exit "$status"
