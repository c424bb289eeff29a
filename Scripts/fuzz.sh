#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer (and AddressSanitizer, leak detection on) for a while.
#
#     Scripts/fuzz.sh TARGET [SECONDS]      (default 30 s)
#     Scripts/fuzz.sh all [SECONDS]         every target in turn
#
# Targets: wkt wkb geojson polyline gpx csv fences tracks points store proj render lines live. The
# corpus starts from Fuzz/Corpus/TARGET (seeded from the package's fixtures) and grows in
# .build/fuzz-corpus/TARGET; Fuzz/Dictionaries/TARGET.dict guides the mutations. A crash, a hang
# (more than 10 s on one input), a leak or more than 2 GB of memory fails the run and leaves the
# input in .build/fuzz-findings/; fix it and keep the input in Fuzz/Regressions/TARGET/, which
# `swift test` replays.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
target=${1:?usage: Scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-30}
targets=(wkt wkb geojson polyline gpx csv fences tracks points store proj render lines live places)
binary=${MERIDIAN_FUZZ_BINARY:-$(Scripts/build-fuzz.sh)}

if [[ $target == all ]]; then
    export MERIDIAN_FUZZ_BINARY=$binary
    failed=()
    for t in "${targets[@]}"; do "$0" "$t" "$seconds" || failed+=("$t"); done
    ((${#failed[@]} == 0)) || { echo "fuzz: findings in ${failed[*]}"; exit 1; }
    exit 0
fi

corpus=.build/fuzz-corpus/$target
findings=.build/fuzz-findings/$target
rm -rf "$findings"
mkdir -p "$corpus" "$findings"
seeds=()
[[ -d Fuzz/Corpus/$target ]] && seeds+=("Fuzz/Corpus/$target")
[[ -d Fuzz/Regressions/$target ]] && seeds+=("Fuzz/Regressions/$target")
dictionary=()
[[ -f Fuzz/Dictionaries/$target.dict ]] && dictionary=("-dict=Fuzz/Dictionaries/$target.dict")

echo "fuzzing $target for $seconds s"
log=.build/fuzz-logs/$target.log
mkdir -p .build/fuzz-logs
status=0
MERIDIAN_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 \
    LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp SWIFT_BACKTRACE=enable=no \
    timeout $((seconds + 120)) "$binary" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$findings/" -print_final_stats=1 "${dictionary[@]}" \
    "$corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
grep -E "^(stat::number_of_executed_units|==[0-9]+==|SUMMARY|finding:)" "$log" || true
if compgen -G "$findings/*" >/dev/null; then
    echo "fuzz: $target found inputs that fail: $(ls "$findings") (log: $log)"
    exit 1
fi
if ((status != 0)) || ! grep -q "^stat::number_of_executed_units" "$log"; then
    echo "fuzz: $target did not run to the end (exit $status); the log is $log:"
    tail -20 "$log"
    exit 1
fi
echo "fuzz: $target: no finding"
