#!/usr/bin/env bash
# Checks that every test the documentation names exists.
#
# The contract articles name the tests that prove each clause as `SuiteTests.function`, in backticks (the
# suite is the Swift Testing suite type, whose name ends in `Tests`). This script finds every such
# reference outside code blocks in the DocC catalogs, the README and the `///` comments of the sources,
# and fails unless the suite type is declared under Tests/ (a struct, class or extension) and one of its
# files declares `func function(`.
set -euo pipefail
cd "$(dirname "$0")/.."

documents=()
while IFS= read -r file; do documents+=("$file"); done < <(
    find Sources -path '*.docc/*.md' -o -name '*.swift' | sort
)
documents+=(README.md)

# Prints `file:line:Suite.function` for each reference; in Swift files only `///` lines count. Fenced
# code blocks are skipped: snippets show the reader's own tests, not ours.
references() {
    awk '
        FNR == 1 { fence = 0 }
        {
            line = $0
            if (FILENAME ~ /\.swift$/) {
                if (line !~ /^[ \t]*\/\/\//) next
                sub(/^[ \t]*\/\/\/ ?/, "", line)
            }
            if (line ~ /^[ \t]*```/) { fence = !fence; next }
            if (fence) next
            while (match(line, /`[A-Z][A-Za-z0-9]*Tests\.[A-Za-z_][A-Za-z0-9_]*`/)) {
                print FILENAME ":" FNR ":" substr(line, RSTART + 1, RLENGTH - 2)
                line = substr(line, RSTART + RLENGTH)
            }
        }
    ' "$@"
}

checked=0
missing=0
while IFS= read -r reference; do
    location=${reference%:*}
    name=${reference##*:}
    suite=${name%%.*}
    function=${name#*.}
    checked=$((checked + 1))
    files=$(grep -rlE "(struct|class|extension) ${suite}([ :<{]|$)" Tests --include='*.swift' || true)
    if [[ -z "$files" ]]; then
        echo "$location: \`$name\`: no suite \`$suite\` under Tests/" >&2
        missing=$((missing + 1))
        continue
    fi
    # shellcheck disable=SC2086 # the file list splits on newlines; test paths have no spaces
    if ! grep -qE "func ${function}\(" $files; then
        echo "$location: \`$name\`: \`$suite\` has no \`func $function(\`" >&2
        missing=$((missing + 1))
    fi
done < <(references "${documents[@]}")

if ((checked == 0)); then
    echo "check-doc-tests: found no test references at all; has the reference form changed?" >&2
    exit 1
fi
if ((missing > 0)); then
    echo "check-doc-tests: $missing of $checked test references name no existing test" >&2
    exit 1
fi
echo "check-doc-tests: all $checked test references name existing tests"
