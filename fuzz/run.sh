#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/targets/ and runs each for a bounded time.
#
#   fuzz/run.sh [seconds per target, default 30]          (from any directory)
#
# The core (Sources/TelenoridCore, all of it) is compiled once, with ASan and libFuzzer's coverage
# instrumentation, into a static library with -enable-testing; each target `@testable import`s it and
# is linked into out/fuzz/<target>. The core is rebuilt only when its sources or the compiler change.
#
# Each target then
#   1. replays its regression inputs, fuzz/regressions/<target>/* (inputs that once crashed it), and
#   2. fuzzes for the given time, starting from a scratch copy of fuzz/corpus/<name>/ (<target> without
#      the fuzz_ prefix; the committed corpus never grows), with fuzz/dict/<name>.dict when present.
# Targets run in parallel, as many at a time as there are cores (FUZZ_JOBS overrides). Crashes, leaks,
# timeouts (-timeout=10) and running out of memory (-rss_limit_mb=2048) save the input under
# out/fuzz/artifacts/ and make the script exit non-zero. Logs are out/fuzz/<target>.log.
#
# To reproduce a finding:  out/fuzz/<target> out/fuzz/artifacts/<target>-crash-...
# To add it as a regression: copy it to fuzz/regressions/<target>/ (with a descriptive name).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
seconds=${1:-30}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: fuzz/run.sh [seconds per target]" >&2; exit 2; }
out=$root/out/fuzz
build=$out/build
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$build" "$out/artifacts"

swiftc=$(command -v swiftc || true)
[ -n "$swiftc" ] || { [ -x /opt/swift/usr/bin/swiftc ] && swiftc=/opt/swift/usr/bin/swiftc; }
[ -n "$swiftc" ] || { echo "fuzz: swiftc not found" >&2; exit 1; }
linker=()
if [ -x "$(dirname "$swiftc")/ld.lld" ] || command -v ld.lld >/dev/null; then linker=(-use-ld=lld); fi
# Shown only when swiftc fails, minus gold's noise about ASan's local symbols.
quiet() { grep -vE "Cannot export local symbol|^$" || true; }

common=(-parse-as-library -sanitize=fuzzer,address -O -I Sources/CPlatform -I Sources/COpenSSL -I Sources/CCurl)
read -r -a libs <<<"$(pkg-config --libs libcrypto libcurl)"
mapfile -t core_sources < <(find Sources/TelenoridCore -name '*.swift' | LC_ALL=C sort)

# --- the core, once ---
stamp=$({ "$swiftc" --version 2>&1; echo "${common[*]}"; cat "${core_sources[@]}" Sources/CPlatform/* Sources/COpenSSL/* Sources/CCurl/*; } | sha256sum | cut -d' ' -f1)
start=$SECONDS
if [ "$(cat "$build/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$build/libTelenoridCore.a" ]; then
    rm -f "$build/stamp"
    if ! "$swiftc" "${common[@]}" -emit-library -static -emit-module -enable-testing -wmo -module-name TelenoridCore \
            -emit-module-path "$build/TelenoridCore.swiftmodule" "${core_sources[@]}" \
            -o "$build/libTelenoridCore.a" >"$build/core.log" 2>&1; then
        quiet <"$build/core.log"; echo "fuzz: the core did not build"; exit 1
    fi
    echo "$stamp" >"$build/stamp"
    echo "fuzz: core built in $((SECONDS - start)) s"
else
    echo "fuzz: core up to date"
fi

# --- the targets ---
# What several targets share (fuzz/support/*.swift, its names under one namespace each) is compiled into every
# target.
mapfile -t support_sources < <(find fuzz/support -maxdepth 1 -name '*.swift' | LC_ALL=C sort)
targets=()
for source in fuzz/targets/*.swift; do
    name=$(basename "$source" .swift)
    if ! "$swiftc" "${common[@]}" "${linker[@]}" -module-name "Fuzz_$name" -I "$build" -I fuzz/support/FuzzOpenSSLUI \
            "$source" "${support_sources[@]}" \
            "$build/libTelenoridCore.a" "${libs[@]}" -o "$out/$name" >"$build/$name.log" 2>&1; then
        quiet <"$build/$name.log"; echo "fuzz: $name did not build"; exit 1
    fi
    targets+=("$name")
done
echo "fuzz: built ${targets[*]} in $((SECONDS - start)) s; fuzzing ${seconds} s each, $jobs at a time"

# --- running ---
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
# The Swift runtime's own crash backtracer would run under ASan on a trap and report its memory reads
# as heap overflows; libFuzzer's handler prints the stack and saves the input instead.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
demangle=(cat)
if [ -x "$(dirname "$swiftc")/swift-demangle" ]; then demangle=("$(dirname "$swiftc")/swift-demangle" --simplified); fi
limits=(-rss_limit_mb=2048 -timeout=10)

run_target() {
    local name=$1 short=${1#fuzz_} bin=$out/$1 log=$out/$1.log result=$scratch/$1.result
    local dict=() regressions=()
    [ -f "fuzz/dict/$short.dict" ] && dict=(-dict="fuzz/dict/$short.dict")
    if [ -d "fuzz/regressions/$name" ]; then
        mapfile -t regressions < <(find "fuzz/regressions/$name" -type f ! -name '*.md' | LC_ALL=C sort)
    fi
    local replay=pass
    if [ ${#regressions[@]} -gt 0 ] &&
            ! "$bin" "${limits[@]}" "${regressions[@]}" >"$out/$name.regressions.log" 2>&1; then
        replay=fail
    fi
    local work=$scratch/$name.corpus
    mkdir -p "$work"
    [ -d "fuzz/corpus/$short" ] && cp -R "fuzz/corpus/$short/." "$work/"
    if "$bin" "$work" "${dict[@]}" "${limits[@]}" -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="$out/artifacts/$name-" >"$log" 2>&1; then
        echo "ok $replay ${#regressions[@]}" >"$result"
    else
        echo "failed $replay ${#regressions[@]}" >"$result"
    fi
    rm -rf "$work"
}

for name in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_target "$name" &
done
wait

status=0
for name in "${targets[@]}"; do
    outcome=missing replay="" replayed=0
    read -r outcome replay replayed <"$scratch/$name.result" || true
    log=$out/$name.log
    if [ "$outcome" = ok ]; then
        runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
        rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
        cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' || true)
        echo "fuzz: $name ok — $runs runs, $rate exec/s, $cov"
    else
        status=1
        echo "fuzz: $name FAILED — log $log:"
        grep -vE "^#[0-9]+\s+(NEW|REDUCE|pulse|RELOAD)|^\"|^INFO:|^MS:" "$log" | tail -50 | "${demangle[@]}"
    fi
    if [ "${replay:-}" = fail ]; then
        status=1
        echo "fuzz: $name FAILED on a regression input (fuzz/regressions/$name/), log $out/$name.regressions.log:"
        grep -E "^Running:|ERROR|Fatal error|SUMMARY|#[0-9]+ 0x" "$out/$name.regressions.log" | head -40 | "${demangle[@]}"
    elif [ "${replayed:-0}" -gt 0 ]; then
        echo "fuzz: $name: $replayed regression inputs pass"
    fi
done
exit $status
