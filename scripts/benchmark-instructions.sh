#!/usr/bin/env bash
# Instructions per operation of benchmark scenarios, counted by valgrind's callgrind: repeatable whatever
# else the machine is doing. Each scenario runs at two sizes; the difference of the two totals divided by
# the difference of the sizes cancels setup and teardown.
#
#     scripts/benchmark-instructions.sh "R1-ours" "R1-OpenCombine" ...
#
# Sizes default to 100,000 and 200,000 operations (SMALL and LARGE override them). Builds the Profile
# runner of the Benchmarks package in release first.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
export PATH="/opt/swift/usr/bin:$PATH"
small="${SMALL:-100000}"
large="${LARGE:-200000}"
swift build -c release --product Profile >/dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# valgrind 3.19 cannot read the DWARF 5 debug info Swift emits: profile a copy without it (symbols stay).
profile="$out/Profile"
objcopy --strip-debug "$(swift build -c release --show-bin-path)/Profile" "$profile"

total() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$profile" "$1" "$2" >/dev/null 2>"$out/log"
    sed -n 's/^summary: //p' "$out/cg"
    rm -f "$out/cg"
}

for scenario in "$@"; do
    first="$(total "$scenario" "$small")"
    second="$(total "$scenario" "$large")"
    awk -v name="$scenario" -v a="$first" -v b="$second" -v n="$small" -v m="$large" \
        'BEGIN { printf "%-40s %10.1f instructions per operation\n", name, (b - a) / (m - n) }'
done
