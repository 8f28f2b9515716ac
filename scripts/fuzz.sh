#!/usr/bin/env bash
# Runs a libFuzzer target for a while, under Address Sanitizer; fails if it finds a crash.
#
# Usage: scripts/fuzz.sh [target] [seconds]     (default: page-storage, 60)
#
# Targets:
#   page-storage   PagedItems against a plain array of pages (Fuzz/PageStorage), built with the storage's
#                  sources and their invariant checks (-D STAPLER_INTERNAL_CHECKS).
#
# The seed corpus lives in Fuzz/Corpus/<target> and is committed; the inputs a run finds interesting go
# to .build-fuzz/corpus-<target>, kept between local runs. A crashing input is copied into the seed
# corpus (commit it: it then runs on every CI pass) and printed, and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

target="${1:-page-storage}"
seconds="${2:-60}"
build=".build-fuzz"
mkdir -p "$build"

case "$target" in
page-storage)
    sources=(Sources/Stapler/Storage/*.swift Fuzz/PageStorage/FuzzPageStorage.swift)
    corpus="Fuzz/Corpus/PageStorage"
    ;;
*)
    echo "fuzz: unknown target $target" >&2
    exit 2
    ;;
esac

binary="$build/fuzz-$target"
# The linker warns about the sanitizer runtime's local symbols; those lines are noise.
swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -D STAPLER_INTERNAL_CHECKS \
    -module-name FuzzTarget "${sources[@]}" -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
[ -x "$binary" ] || { echo "fuzz: the $target target did not build" >&2; exit 1; }

mkdir -p "$corpus" "$build/artifacts-$target" "$build/corpus-$target"
# No backtracer or symbolizer process on a crash: either may outlive the target and hold the pipe open.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0"
rm -f "$build/artifacts-$target"/*
status=0
"$binary" "$build/corpus-$target" "$corpus" -max_total_time="$seconds" -artifact_prefix="$build/artifacts-$target/" \
    -print_final_stats=1 > "$build/fuzz-$target.log" 2>&1 || status=$?
grep -E "^(Done|==[0-9]+==|SUMMARY)|Fatal error" "$build/fuzz-$target.log" || true
if [ "$status" -ne 0 ]; then
    for crash in "$build/artifacts-$target"/*; do
        [ -f "$crash" ] || continue
        cp "$crash" "$corpus/"
        echo "fuzz: $target crashed on $(basename "$crash"), copied into $corpus:" >&2
        od -An -tx1 "$crash" | head -5 >&2
    done
    exit 1
fi
runs=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$build/fuzz-$target.log" | grep -oE "[0-9]+" || echo "?")
echo "fuzz: $target ran $runs inputs in $seconds s with no crash"
