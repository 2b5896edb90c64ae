# Shared by the reliability scripts: the embedded cluster's variables, a debug build with the tests (the tests start
# the job executables built beside them), and where the logs go.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
Tests/Harness/pg-cluster.sh up >/dev/null
eval "$(Tests/Harness/pg-cluster.sh env)"
out=Benchmarks/out/reliability
mkdir -p "$out"
swift build --build-tests >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
# Runs the test binary directly (not `swift test`), so a script does not hold SwiftPM's lock on .build.
bin=$(swift build --show-bin-path)
run_tests() { "$bin/iap-pipelinePackageTests.xctest" --testing-library swift-testing --filter "$1"; }
