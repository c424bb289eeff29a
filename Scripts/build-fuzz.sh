#!/usr/bin/env bash
# Builds meridian-fuzz optimized, with libFuzzer and AddressSanitizer (leak detection included),
# in .build/fuzz, and prints the binary's path. Scripts/fuzz.sh and Scripts/leaks.sh use it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
flags=(--product meridian-fuzz --build-path .build/fuzz -c release
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)
if ! swift build "${flags[@]}" >.build/fuzz-build.log 2>&1; then
    grep -E "error" .build/fuzz-build.log >&2 || tail -20 .build/fuzz-build.log >&2
    echo "build-fuzz: the build failed (log: .build/fuzz-build.log)" >&2
    exit 1
fi
echo "$(swift build "${flags[@]}" --show-bin-path)/meridian-fuzz"
