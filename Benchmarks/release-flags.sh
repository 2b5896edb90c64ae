# The release build the benchmarks measure, as it is deployed (`make release`): optimised, the Swift runtime and
# Foundation linked into each binary (a job then needs only the Debian libraries, and starts ~20 ms sooner).
# Sourced by the benchmark scripts: `swift build "${RELEASE_FLAGS[@]}" …`.
RELEASE_FLAGS=(-c release --static-swift-stdlib)
