#!/usr/bin/env bash
# Runs a libFuzzer target for a while, under Address Sanitizer; fails if it finds a crash.
#
# Usage: scripts/fuzz.sh [target] [seconds]     (default: page-storage, 60)
#        scripts/fuzz.sh all [seconds]          every target in turn, each for that long
#        scripts/fuzz.sh build                  builds every target's binary and runs none (CI builds them
#                                               while the test passes run; a later run reuses a binary
#                                               built from the same sources)
#
# Targets (each a Fuzz/<Name>/ folder and a seed corpus in Fuzz/Corpus/<Name>):
#   page-storage   PagedItems against a plain array of pages (Fuzz/PageStorage), built with the storage's
#                  sources and their invariant checks (-D STAPLER_INTERNAL_CHECKS).
#   engine         a real Paginator against the model-based test's reference model (Fuzz/Engine): calls and
#                  answers (good, bad, late, stale, in every direction) decoded from the bytes, checked by
#                  the test's own PagingSession and PagingReference (Tests/StaplerTests/ModelBased).
#   wire-formats   the Demo's four wire-format decoders (Fuzz/WireFormats): arbitrary bodies and Link
#                  headers give a page or HTTPFailure.malformed, never a trap.
#   restoration    a saved list's JSON decoded and restored onto an offset source (Fuzz/Restoration): a
#                  RestoreError or a list shown with no request that saves and restores to itself, then a
#                  short session of loads, jumps and answers on it under a memory bound or placeholders.
#   store          the SQLite store (Fuzz/Store): random transactions over three collections checked
#                  after each commit against a reference computed from the rows, and corrupt files (the
#                  bytes as a file, or as changes to a valid one) that must open, read and write or throw
#                  a StoreError. Built with the StaplerSQLite module and the system's libsqlite3.
#
# The library modules (Reactive, Stapler, a TestSupport of the files the model needs) are built into
# .build-fuzz/modules (again only when a library source changed), instrumented for coverage, with the invariant checks on and
# -enable-testing (the model's session uses @testable import).
#
# The seed corpus lives in Fuzz/Corpus/<Name> and is committed; the inputs a run finds interesting go
# to .build-fuzz/corpus-<target>, kept between local runs. A crashing input is copied into the seed
# corpus (commit it: it then runs on every CI pass) and printed, and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

target="${1:-page-storage}"
seconds="${2:-60}"
build=".build-fuzz"
modules="$build/modules"
mkdir -p "$build"

targets=(page-storage engine wire-formats restoration store)
if [ "$target" = all ] || [ "$target" = build ]; then
    for each in "${targets[@]}"; do
        if [ "$target" = build ]; then FUZZ_BUILD_ONLY=1 "$0" "$each"; else "$0" "$each" "$seconds"; fi
    done
    exit 0
fi

# Whole-module optimisation: one compiler job per module instead of one per batch of files, each of which
# type-checks the whole module again. The four binaries build in 4 min 15 s of CPU instead of 9 min 2 s.
flags=(-O -wmo -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name Stapler -D STAPLER_INTERNAL_CHECKS)

# Compiles, dropping the linker's warnings about the sanitizer runtime's local symbols (noise).
compile() {
    swiftc "${flags[@]}" "$@" 2>&1 | grep -v "Cannot export local symbol" || true
}

# Builds module $1 from the remaining sources as a static library in $modules.
build_module() {
    local name="$1"
    shift
    mkdir -p "$modules"
    compile -enable-testing -I "$modules" -emit-library -static -emit-module \
        -emit-module-path "$modules/$name.swiftmodule" -module-name "$name" "$@" -o "$modules/lib$name.a"
    [ -f "$modules/lib$name.a" ] || { echo "fuzz: the $name module did not build" >&2; exit 1; }
}

# Builds Reactive and Stapler, unless the modules were built from the same sources with the same flags.
build_libraries() {
    local stamp
    stamp=$( (echo "${flags[*]}"; find Sources -name '*.swift' | sort | xargs cat) | sha1sum | cut -d' ' -f1)
    if [ -f "$modules/libStapler.a" ] && [ "$(cat "$modules/stamp" 2>/dev/null)" = "$stamp" ]; then
        return
    fi
    rm -rf "$modules"
    build_module Reactive $(find Sources/Reactive -name '*.swift' | sort)
    build_module Stapler $(find Sources/Stapler -name '*.swift' | sort)
    echo "$stamp" > "$modules/stamp"
}

case "$target" in
page-storage) corpus="Fuzz/Corpus/PageStorage" ;;
engine) corpus="Fuzz/Corpus/Engine" ;;
wire-formats) corpus="Fuzz/Corpus/WireFormats" ;;
restoration) corpus="Fuzz/Corpus/Restoration" ;;
store) corpus="Fuzz/Corpus/Store" ;;
*)
    echo "fuzz: unknown target $target" >&2
    exit 2
    ;;
esac
binary="$build/fuzz-$target"
# The sources a target's binary is built from (a superset), with the flags: a binary whose stamp matches
# is reused as it is.
sources_stamp=$( (echo "${flags[*]}"; find Sources Demo Fuzz Tests/TestSupport Tests/StaplerTests -name '*.swift' |
    sort | xargs cat) | sha1sum | cut -d' ' -f1)
if [ ! -x "$binary" ] || [ "$(cat "$binary.stamp" 2>/dev/null)" != "$sources_stamp" ]; then
rm -f "$binary" "$binary.stamp"
case "$target" in
page-storage)
    # The page storage alone: every file of Storage/ but the deliverer's own state, which needs Reactive.
    compile -module-name FuzzTarget $(ls Sources/Stapler/Storage/*.swift | grep -v DelivererOwned) \
        Fuzz/PageStorage/FuzzPageStorage.swift -o "$binary"
    ;;
engine)
    build_libraries
    build_module TestSupport Tests/TestSupport/Locked.swift Tests/TestSupport/SplitMix.swift \
        Tests/TestSupport/ManualServer.swift
    model=Tests/StaplerTests/ModelBased
    compile -I "$modules" -L "$modules" -lStapler -lReactive -lTestSupport -module-name FuzzEngine \
        "$model/PagingReference.swift" "$model/PagingReference+Answers.swift" "$model/PagingReference+Policies.swift" \
        "$model/PagingReference+Bounds.swift" "$model/PagingOperation.swift" "$model/PagingSession.swift" \
        "$model/PagingSession+Subject.swift" "$model/PagingSession+Restore.swift" "$model/PagingSession+Slots.swift" \
        "$model/PagingSession+Transform.swift" \
        Tests/StaplerTests/Fixtures.swift Fuzz/Engine/FuzzEngine.swift -o "$binary"
    ;;
wire-formats)
    build_libraries
    # The Demo's sources but its entry point and its store run (which needs StaplerSQLite, and decodes
    # nothing the other runs do not).
    compile -I "$modules" -L "$modules" -lStapler -lReactive -module-name FuzzWireFormats \
        $(find Demo -name '*.swift' ! -name main.swift ! -name StoreRun.swift | sort) \
        Fuzz/WireFormats/FuzzWireFormats.swift -o "$binary"
    ;;
restoration)
    build_libraries
    build_module TestSupport Tests/TestSupport/Locked.swift Tests/TestSupport/SplitMix.swift \
        Tests/TestSupport/ManualServer.swift
    compile -I "$modules" -L "$modules" -lStapler -lReactive -lTestSupport -module-name FuzzRestoration \
        Tests/StaplerTests/Fixtures.swift Fuzz/Restoration/FuzzRestoration.swift -o "$binary"
    ;;
store)
    build_libraries
    # Sources/CSQLite holds the module map of the system's SQLite, which StaplerSQLite imports.
    build_module StaplerSQLite -I Sources/CSQLite $(find Sources/StaplerSQLite -name '*.swift' | sort)
    compile -I "$modules" -I Sources/CSQLite -L "$modules" -lStaplerSQLite -lStapler -lReactive -lsqlite3 \
        -module-name FuzzStore Fuzz/Store/FuzzStore.swift -o "$binary"
    ;;
esac
[ -x "$binary" ] || { echo "fuzz: the $target target did not build" >&2; exit 1; }
echo "$sources_stamp" > "$binary.stamp"
fi
if [ -n "${FUZZ_BUILD_ONLY:-}" ]; then
    echo "fuzz: $target built"
    exit 0
fi

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
