#!/usr/bin/env bash
# Builds the libFuzzer targets (the core's sources compiled into each, with ASan) and runs each for a
# bounded time on a scratch copy of its committed corpus, then replays the regression inputs.
# Usage: fuzz/run.sh [seconds per target, default 30]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
out=out/fuzz
mkdir -p "$out/artifacts"
libs=$(pkg-config --libs libcrypto libcurl)
mapfile -t core < <(find Sources/TelenoridCore -name '*.swift' | sort)
status=0
for target in fuzz/targets/*.swift; do
    name=$(basename "$target" .swift)
    swiftc -parse-as-library -sanitize=fuzzer,address -O -module-name "Fuzz_$name" \
        -I Sources/COpenSSL -I Sources/CCurl $libs "${core[@]}" "$target" -o "$out/$name" 2>&1 | grep -vE "^$|Cannot export local symbol" || true
    [ -x "$out/$name" ] || { echo "fuzz: $name did not build"; exit 1; }
    work=$(mktemp -d)
    cp -r "fuzz/corpus/${name#fuzz_}/." "$work/" 2>/dev/null || true
    log="$out/$name.log"
    if "$out/$name" "$work" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
            -artifact_prefix="$out/artifacts/$name-" -print_final_stats=1 >"$log" 2>&1; then
        echo "fuzz: $name ok — $(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}') runs, $(grep -oE 'cov: [0-9]+' "$log" | tail -1)"
    else
        echo "fuzz: $name FAILED"; tail -40 "$log"; status=1
    fi
    rm -rf "$work"
    if [ -d "fuzz/regressions/$name" ] && ls "fuzz/regressions/$name"/* >/dev/null 2>&1; then
        "$out/$name" "fuzz/regressions/$name"/* >"$out/$name.regressions.log" 2>&1 || { echo "fuzz: $name regression input fails"; status=1; }
    fi
done
exit $status
