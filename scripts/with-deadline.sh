#!/usr/bin/env bash
# Usage: scripts/with-deadline.sh SECONDS COMMAND [ARGUMENTS...]
#
# Runs COMMAND with its output shown as it comes. If it is still running after SECONDS, prints what
# hangs: the stack frames in the package's test code of every thread of the test processes (through
# gdb, when it is installed), and the tests that started but never ended; then stops COMMAND and
# exits 124. Otherwise exits with COMMAND's status.
#
# CI runs every `swift test` through it, so a test that never ends fails its step within minutes,
# naming itself, instead of running CI into its time limit with nothing to show.
set -uo pipefail

limit=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Its own session, so that stopping it stops the test processes it started too (each in a process
# group of its own). Line-buffered output, so that the log holds every line printed before the deadline.
setsid stdbuf -oL -eL "$@" > >(tee "$log") 2>&1 &
pid=$!
deadline=$((SECONDS + limit))
while kill -0 "$pid" 2> /dev/null; do
    if ((SECONDS >= deadline)); then
        echo
        echo "=== still running after ${limit} s: $* ==="
        if command -v gdb > /dev/null; then
            for test_process in $(pgrep -s "$pid" -f '\.xctest'); do
                echo "--- the package's test code on the threads of process $test_process ---"
                gdb -p "$test_process" -batch -ex 'thread apply all bt 40' 2> /dev/null \
                    | grep -E '^Thread |/(Tests|Sources)/' | swift demangle --simplified || true
            done
        fi
        echo "--- tests that started and never ended ---"
        python3 - "$log" << 'EOF'
import collections, re, sys

# Swift Testing prints `◇ Test "name" started.` and, at the end, `✔ Test "name" passed...` or
# `✘ Test "name" failed...`, with `with N test cases` after the name of a parameterized test (whose
# test cases have lines of their own, not counted here).
open_tests = collections.Counter()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    match = re.match(r'^\S+ Test "(.*?)"(?: with \d+ test cases?)? (started|passed|failed|skipped)', line)
    if not match:
        continue
    name, event = match.groups()
    if event == "started":
        open_tests[name] += 1
    elif event in ("passed", "failed", "skipped"):
        open_tests[name] -= 1
unfinished = sorted(name for name, count in open_tests.items() if count > 0)
print("\n".join(unfinished) if unfinished else "(none: the hang is outside a test, or before the first)")
EOF
        pkill -TERM -s "$pid"
        sleep 5
        pkill -KILL -s "$pid"
        exit 124
    fi
    sleep 2
done
wait "$pid"
