#!/usr/bin/env bash
# Checks that the README's quick start is code that compiles and runs.
#
# The first ```swift block under "## Quick start" in README.md must be, line for line, the region between
# `// README quick start: begin` and `// README quick start: end` in Tests/StaplerTests/ReadmeQuickStart.swift,
# which the test target compiles and ReadmeQuickStartTests runs against an in-memory backend.
set -euo pipefail
cd "$(dirname "$0")/.."

readme=README.md
source_file=Tests/StaplerTests/ReadmeQuickStart.swift

block=$(awk '
    /^## Quick start/ { section = 1; next }
    section && /^## / { exit }
    section && !inside && /^```swift$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }
' "$readme")
region=$(awk '
    /^\/\/ README quick start: end$/ { exit }
    inside { print }
    /^\/\/ README quick start: begin$/ { inside = 1 }
' "$source_file")

if [[ -z "$block" ]]; then
    echo "check-readme: no \`\`\`swift block under \"## Quick start\" in $readme" >&2
    exit 1
fi
if [[ -z "$region" ]]; then
    echo "check-readme: no region between the quick-start markers in $source_file" >&2
    exit 1
fi
if ! diff -u --label "$readme (quick start)" --label "$source_file (marked region)" \
    <(printf '%s\n' "$block") <(printf '%s\n' "$region"); then
    echo "check-readme: the README's quick start differs from the code the tests compile; make them equal" >&2
    exit 1
fi
echo "check-readme: the README's quick start is the code ReadmeQuickStartTests runs ($(wc -l <<<"$block") lines)"
