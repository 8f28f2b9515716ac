#!/usr/bin/env bash
# Instructions per operation of benchmark scenarios, counted by valgrind's callgrind: repeatable whatever
# else the machine is doing. Each scenario runs once, then twice, at SIZE operations (default 100,000); the
# difference of the two totals divided by SIZE cancels the process's start and any setup the scenario
# keeps between runs. For R2 an operation is a value sent to all 1,000 observers.
#
#     scripts/benchmark-instructions.sh R1-ours R1-OpenCombine ...
#
# Builds the Profile runner of the Benchmarks package in release first.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
export PATH="/opt/swift/usr/bin:$PATH"
size="${SIZE:-100000}"
swift build -c release --product Profile >/dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# valgrind 3.19 cannot read the DWARF 5 debug info Swift emits: profile a copy without it (symbols stay).
profile="$out/Profile"
objcopy --strip-debug "$(swift build -c release --show-bin-path)/Profile" "$profile"

total() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$profile" "$1" "$size" "$2" >/dev/null 2>"$out/log"
    sed -n 's/^summary: //p' "$out/cg"
    rm -f "$out/cg"
}

for scenario in "$@"; do
    once="$(total "$scenario" 1)"
    twice="$(total "$scenario" 2)"
    awk -v name="$scenario" -v a="$once" -v b="$twice" -v n="$size" \
        'BEGIN { printf "%-28s %12.1f instructions per operation\n", name, (b - a) / n }'
done
