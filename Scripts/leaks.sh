#!/usr/bin/env bash
# The leak check: create, use and drop geometries, prepared geometries, transformers, cluster
# indexes, fence indexes and monitors many times over (Fuzz/MeridianFuzz/LeakCheck.swift).
#
#     Scripts/leaks.sh [CYCLES] [CHECKER_CYCLES]     (defaults 100000 and 2000)
#
# 1. An optimized build runs CYCLES cycles of each workload (transformers a tenth) and fails if
#    the resident set grew by more than 6 MB over them.
# 2. The AddressSanitizer build (Scripts/build-fuzz.sh) runs CHECKER_CYCLES cycles under the leak
#    checker, which fails on any unreachable allocation at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
cycles=${1:-100000}
checker_cycles=${2:-2000}

if ! swift build -c release --product meridian-fuzz >.build/leaks-build.log 2>&1; then
    tail -20 .build/leaks-build.log
    exit 1
fi
release=$(swift build -c release --product meridian-fuzz --show-bin-path)/meridian-fuzz
echo "leaks: $cycles cycles, resident memory before and after"
"$release" leaks "$cycles"

checked=$(Scripts/build-fuzz.sh)
echo "leaks: $checker_cycles cycles under the leak checker"
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp \
    SWIFT_BACKTRACE=enable=no MERIDIAN_LEAK_CHECKER=1 "$checked" leaks "$checker_cycles"
echo "leaks: none"
