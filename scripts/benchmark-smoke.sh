#!/usr/bin/env bash
# The benchmark smoke run: builds the Benchmarks package in release, runs every scenario at a hundredth of
# its size for a few iterations, counting mallocs only, and checks the counts against the thresholds
# checked in for this toolchain (Benchmarks/Thresholds/<major.minor>/). Wall time is not checked: it is
# too noisy on a shared machine. Exits non-zero on a malloc-count regression.
#
#     scripts/benchmark-smoke.sh            # check
#     scripts/benchmark-smoke.sh --update   # record new thresholds for this toolchain (then commit them)
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
export PATH="/opt/swift/usr/bin:$PATH"
export STAPLER_BENCHMARK_SMOKE=1

toolchain="$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)"
if [ -z "$toolchain" ]; then
    echo "benchmark smoke: cannot read the Swift version" >&2
    exit 1
fi
thresholds="Thresholds/$toolchain"

if [ "${1:-}" = "--update" ]; then
    mkdir -p "$thresholds"
    swift package --allow-writing-to-package-directory benchmark thresholds update \
        --path "$thresholds" --no-progress
    echo "benchmark smoke: thresholds for Swift $toolchain written to Benchmarks/$thresholds"
    exit 0
fi

if [ ! -d "$thresholds" ]; then
    echo "benchmark smoke: no thresholds for Swift $toolchain (Benchmarks/$thresholds); running without a check"
    swift package benchmark --no-progress
    exit 0
fi

# The plugin's own exit codes (2 regression, 4 improvement) reach us only as the name of the error it
# throws: SwiftPM exits 1 for any plugin error. So the verdict is read from the output.
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
status=0
swift package benchmark thresholds check --path "$thresholds" --no-progress 2>&1 | tee "$output" || status=$?
if [ "$status" -eq 0 ]; then
    echo "benchmark smoke: malloc counts equal the thresholds for Swift $toolchain"
elif grep -q "benchmarkThresholdRegression" "$output"; then
    echo "benchmark smoke: malloc counts regressed against Benchmarks/$thresholds" >&2
    exit 1
elif grep -q "benchmarkThresholdImprovement" "$output"; then
    echo "benchmark smoke: malloc counts are BETTER than the thresholds for Swift $toolchain;" \
        "record them with scripts/benchmark-smoke.sh --update and commit Benchmarks/$thresholds"
else
    echo "benchmark smoke: the benchmark run failed (exit $status)" >&2
    exit 1
fi
