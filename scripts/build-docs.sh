#!/usr/bin/env bash
# Builds the DocC catalogs of both library modules with warnings as errors (CI fails on any DocC warning).
# No plugin: the compiler emits the symbol graphs and the toolchain's docc converts them.
set -euo pipefail
cd "$(dirname "$0")/.."
for module in Reactive Stapler; do
    # Keep the graphs between runs: a module that is up to date does not recompile, so it would not
    # emit them again; a module that recompiles overwrites its own.
    graphs=".build-docs/symbol-graphs-$module"
    mkdir -p "$graphs"
    swift build --target "$module" --scratch-path .build-docs \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.stapler.$module" \
        --output-path ".build-docs/$module.doccarchive" \
        --warnings-as-errors
done
echo "docs: both catalogs built without warnings"
