#!/usr/bin/env bash
# Builds the documentation of every library module with the toolchain's docc, through the symbol
# graphs, into .build/docs/<Module>.doccarchive. Fails on any docc warning and on any public symbol
# without a documentation comment.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v docc >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

modules=(GeoCore GeoFence GeoRoute GeoCluster GeoRender GeoSearch)
swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -maxdepth 2 -type d -name symbolgraph | head -n 1)
rm -rf .build/docs
mkdir -p .build/docs
status=0
for module in "${modules[@]}"; do
    input=.build/docs/$module.symbols
    mkdir -p "$input"
    cp "$graphs/$module.symbols.json" "$input/"
    # Extensions of other modules' types made by this module.
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$input/" \;
    log=.build/docs/$module.log
    if ! docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$input" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.meridian.$module" \
        --output-path ".build/docs/$module.doccarchive" \
        --warnings-as-errors --experimental-documentation-coverage --coverage-summary-level none \
        >"$log" 2>&1; then
        echo "docs: $module has documentation warnings:"
        grep -E "^(warning|error)" -A3 "$log" | head -60
        status=1
    fi
    # Every public symbol has a documentation comment of its own.
    if ! Scripts/undocumented.py "$graphs/$module.symbols.json"; then status=1; fi
done
# The articles' code is the code the tests compile and run.
python3 Scripts/check-articles.py || status=1
if ((status == 0)); then echo "docs: built ${modules[*]} into .build/docs"; fi
exit $status
