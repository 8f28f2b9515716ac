#!/usr/bin/env bash
# Builds the DocC catalogs of the three library modules with warnings as errors (CI fails on any DocC warning).
# No plugin: the compiler emits the symbol graphs and the toolchain's docc converts them.
set -euo pipefail
cd "$(dirname "$0")/.."
for module in Reactive Stapler StaplerTesting; do
    # Keep the graphs between runs: a module that is up to date does not recompile, so it would not
    # emit them again; a module that recompiles overwrites its own.
    graphs=".build-docs/symbol-graphs-$module"
    mkdir -p "$graphs"
    swift build --target "$module" --scratch-path .build-docs \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
    # Only this module's graphs: building it emits its dependencies' graphs too, whose documentation links
    # to articles of their own catalogs.
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
