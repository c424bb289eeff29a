#!/usr/bin/env bash
# Formats every Swift file of the package with the toolchain's `swift format` (configuration in
# .swift-format), then lints strictly. `Scripts/format.sh --check` changes nothing and fails when a
# file is not formatted or a lint rule is broken; CI runs it that way.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"

paths=(Package.swift Sources Tests Benchmarks Examples Fuzz)
if [[ "${1:-}" == "--check" ]]; then
    status=0
    while IFS= read -r -d '' file; do
        if ! diff -q <(swift format "$file") "$file" >/dev/null; then
            echo "not formatted: $file (run Scripts/format.sh)"
            status=1
        fi
    done < <(find "${paths[@]}" -name '*.swift' -print0)
    swift format lint --strict --parallel --recursive "${paths[@]}" || status=1
    exit $status
fi
swift format --in-place --parallel --recursive "${paths[@]}"
swift format lint --strict --parallel --recursive "${paths[@]}"
