#!/usr/bin/env bash
# Benchmarks, not tests: ratios against reference implementations measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out/bench
gcc -O2 -std=gnu99 -Iinclude bench/bench_c.c -Lout/lib -ltelenorid -lcrypto -Wl,-rpath,"$PWD/out/lib" -o out/bench/bench_c
gcc -O2 -std=gnu99 bench/dlopen_time.c -ldl -o out/bench/dlopen_time
echo "== library size and load"
echo "libtelenorid.so stripped: $(stat -L -c %s out/lib/libtelenorid.so.0) bytes"
out/bench/dlopen_time "$PWD/out/lib/libtelenorid.so.0"
echo "== from C"
out/bench/bench_c "${1:-100000}"
echo "== from Python"
python3 -c "import authlib" 2>/dev/null || python3 -m pip install -q authlib requests
PYTHONPATH=bindings/python python3 bench/bench_python.py "${2:-5000}"
