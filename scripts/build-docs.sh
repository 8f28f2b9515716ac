#!/usr/bin/env bash
# Builds the DocC catalogs of the three library modules with warnings as errors (CI fails on any DocC warning).
# No plugin: SwiftPM extracts the public symbol graphs from the package's own debug build (`.build`, the one
# `swift build` and `swift test` use, so after a build this costs seconds, not a build of its own), and the
# toolchain's docc converts them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

swift package dump-symbol-graph --minimum-access-level public > .build/dump-symbol-graph.log 2>&1 || {
    cat .build/dump-symbol-graph.log >&2
    exit 1
}
graphs="$(swift build --show-bin-path)/../symbolgraph"
mkdir -p .build-docs
for module in Reactive Stapler StaplerTesting; do
    # Only this module's graphs: its extensions of its dependencies' types are in `Module@Dependency` files;
    # the dependencies' own graphs are left out, since their documentation links to articles of their own
    # catalogs.
    own=".build-docs/own-symbol-graphs-$module"
    rm -rf "$own"
    mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$own/" \;
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.stapler.$module" \
        --output-path ".build-docs/$module.doccarchive" \
        --warnings-as-errors
done
echo "docs: the three catalogs built without warnings"
