#!/usr/bin/env bash
# Mutants the suite must kill: applies each deliberate bug of scripts/mutants.txt, one at a time, to a
# copy of the package (.build-mutants/package: the work tree is never touched), builds the tests, runs
# the tests that mutant names (--filter), then the fuzz target it names (if any) for the seconds given,
# and restores the file. A mutant is killed when a test fails, traps or the run times out, or the fuzz
# target crashes; it survives when its tests and its fuzzing pass. Fails if any mutant survives, or if one no
# longer applies (its `find` text is not in the file exactly once) or no longer compiles.
#
# Usage: scripts/mutants.sh [name ...]     (default: every mutant)
#        scripts/mutants.sh --check         only that every mutant still applies: its `find` text is in its
#                                           file exactly once (no build; CI runs it)
#
# First the unmutated copy builds and the union of the filters passes (else a kill would prove nothing).
# The model-based test runs STAPLER_MODEL_SEQUENCES=2000 sequences here. Takes about 5 minutes on two
# cores: a build of the copy from scratch, then seconds per mutant (an incremental build and the tests it
# names). CI leaves it out for time: run it before a change to the engine, the storage or the
# transforms lands.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export STAPLER_MODEL_SEQUENCES="${STAPLER_MODEL_SEQUENCES:-2000}"

root="$PWD"
work="$root/.build-mutants"
copy="$work/package"
scratch="$work/build"
# The mutants as tab-separated lines: name, what, file, find, replace, tests, fuzz target and seconds.
mutants=$(awk '
    /^mutant: / { name = substr($0, 9); fuzz = "-" }
    /^fuzz: / { fuzz = substr($0, 7) }
    /^what: / { what = substr($0, 7) }
    /^file: / { file = substr($0, 7) }
    /^find: / { find = substr($0, 7) }
    /^replace: / { replace = substr($0, 10) }
    /^tests: / { tests = substr($0, 8) }
    /^$/ && name != "" { print name "\t" what "\t" file "\t" find "\t" replace "\t" tests "\t" fuzz; name = "" }
    END { if (name != "") print name "\t" what "\t" file "\t" find "\t" replace "\t" tests "\t" fuzz }
' scripts/mutants.txt)
check_only=0
if [ "${1:-}" = --check ]; then
    check_only=1
    shift
fi
if [ "$#" -gt 0 ]; then
    mutants=$(printf '%s\n' "$mutants" | awk -F'\t' -v names=" $* " 'index(names, " " $1 " ")')
fi
[ -n "$mutants" ] || { echo "mutants: no mutant selected" >&2; exit 2; }

# Replaces the mutant's `find` text in file $1 by its `replace` text (FIND and REPLACE in the environment);
# with a second argument, only checks that the text is there exactly once. Fails when it is not.
apply_mutant() {
    python3 - "$@" <<'EOF'
import os, sys
path = sys.argv[1]
if not os.path.isfile(path):
    sys.exit(1)
text = open(path).read()
# `\n` in either stands for a line break, so that a mutant can name a line by the one before it.
find, replace = (os.environ[name].replace("\\n", "\n") for name in ("FIND", "REPLACE"))
if text.count(find) != 1:
    sys.exit(1)
if len(sys.argv) < 3:
    open(path, "w").write(text.replace(find, replace))
EOF
}

if [ "$check_only" = 1 ]; then
    count=0
    stale=0
    while IFS=$'\t' read -r name what file find replace tests fuzz; do
        count=$((count + 1))
        if ! FIND="$find" REPLACE="$replace" apply_mutant "$file" --check-only; then
            echo "STALE    $name: the text to replace is not in $file exactly once (update scripts/mutants.txt)"
            stale=$((stale + 1))
        fi
    done <<< "$mutants"
    echo "mutants: $((count - stale)) of $count apply"
    [ "$stale" -eq 0 ]
    exit
fi

# The package as it is in the work tree, without builds or git (tar keeps the files' times, so the
# copy's build stays incremental from one run to the next).
rm -rf "$copy"
mkdir -p "$copy"
tar -C "$root" --exclude='./.build*' --exclude=./.git --exclude=./.swiftpm --exclude=./Benchmarks -cf - . \
    | tar -C "$copy" -xf -

build() { (cd "$copy" && timeout 1800 swift build --build-tests --scratch-path "$scratch" > "$work/build.log" 2>&1); }
run_tests() {
    (cd "$copy" && timeout 900 swift test --skip-build --scratch-path "$scratch" --filter "$1" > "$work/test.log" 2>&1)
}

echo "mutants: building the unmutated copy"
build || { tail -30 "$work/build.log" >&2; echo "mutants: the unmutated package does not build" >&2; exit 1; }
all_filters=$(printf '%s\n' "$mutants" | cut -f6 | tr '|' '\n' | sort -u | paste -sd'|')
if ! run_tests "$all_filters"; then
    tail -30 "$work/test.log" >&2
    echo "mutants: the unmutated package fails its tests ($all_filters): fix that first" >&2
    exit 1
fi

killed=0
survived=0
broken=0
total=0
start=$(date +%s)
while IFS=$'\t' read -r name what file find replace tests fuzz; do
    total=$((total + 1))
    target="$copy/$file"
    cp "$target" "$work/original"
    if ! FIND="$find" REPLACE="$replace" apply_mutant "$target"; then
        echo "BROKEN   $name: the text to replace is not in $file exactly once (update scripts/mutants.txt)"
        broken=$((broken + 1))
        continue
    fi
    began=$(date +%s)
    if ! build; then
        cp "$work/original" "$target"
        echo "BROKEN   $name: the mutant does not compile"
        grep -m3 'error:' "$work/build.log" || true
        broken=$((broken + 1))
        continue
    fi
    verdict="SURVIVED"
    if ! run_tests "$tests"; then
        verdict="killed"
        failing=$(grep -cE '^✘ Test .* failed after' "$work/test.log" || true)
        by="$failing failing tests of $tests"
        [ "$failing" -eq 0 ] && by="a trap or time-out in $tests"
    elif [ "$fuzz" != "-" ]; then
        # The tests passed: the fuzz target gets its turn, on the mutated copy.
        read -r fuzz_target fuzz_seconds <<< "$fuzz"
        if ! (cd "$copy" && ./scripts/fuzz.sh "$fuzz_target" "$fuzz_seconds" > "$work/fuzz.log" 2>&1); then
            verdict="killed"
            by="the $fuzz_target fuzz target (its tests, $tests, passed)"
        fi
    fi
    if [ "$verdict" = SURVIVED ]; then
        survived=$((survived + 1))
        by="$tests passed${fuzz/#-/}"
        cp "$work/test.log" "$work/survivor-$name.log"
    else
        killed=$((killed + 1))
    fi
    cp "$work/original" "$target"
    printf '%-8s %-30s %4ss  by %s: %s\n' "$verdict" "$name" $(($(date +%s) - began)) "$by" "$what"
done <<< "$mutants"

echo
echo "mutants: $killed killed of $total ($survived survived, $broken broken) in $(($(date +%s) - start)) s"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
