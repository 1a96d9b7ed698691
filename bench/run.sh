#!/usr/bin/env bash
# Benchmarks, not tests: libtelenorid from C and from Python beside reference implementations measured in
# the same run, each printing its figures, then one table of every goal (bench/report.py): the library's
# figure, the reference's, the ratio, the goal and whether it is met. Nothing here fails on speed.
#
#   bash bench/run.sh [C iterations per round] [Python iterations per round] [rounds]
#
# Builds the library first only when out/lib has none (`make bench` builds it anyway). ID_TOKEN_ITERATIONS,
# REFRESH_ITERATIONS and MEMORY_COUNT override those benchmarks' counts. Round trips vary more from round
# to round than local work (the scheduler, the server), so they take the best of more rounds:
# REFRESH_ROUNDS, 15 unless set.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# The Python of `make setup`'s .venv when there is one (the Makefile exports it as PYTHON), else python3.
PYTHON="${PYTHON:-$([ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3)}"
c_iterations=${1:-20000}
py_iterations=${2:-3000}
rounds=${3:-7}
refresh_rounds=${REFRESH_ROUNDS:-15}

if [ ! -e out/lib/libtelenorid.so.0 ]; then
    make build
fi
mkdir -p out/bench
cc=${CC:-cc}
results=$root/out/bench/results.jsonl
: >"$results"
export BENCH_RESULTS=$results BENCH_OUT=$root/out/bench
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_c.c -Lout/lib -ltelenorid -lcrypto \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_c
$cc -O2 -std=gnu11 -Wall bench/dlopen_time.c -ldl -o out/bench/dlopen_time
$cc -O2 -std=gnu11 -Wall -Wextra bench/libcurl_floor.c -ldl -o out/bench/libcurl_floor
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_client_memory.c -Lout/lib -ltelenorid -lcurl \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_client_memory
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_id_token.c -Lout/lib -ltelenorid -lcrypto \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_id_token
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_refresh.c -Lout/lib -ltelenorid -lcurl \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_refresh

"$PYTHON" -c "import authlib, requests, pycurl, joserfc" 2>/dev/null || "$PYTHON" -m pip install -q authlib requests pycurl joserfc

echo "== host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$PYTHON" --version)"
size=$(stat -L -c %s out/lib/libtelenorid.so.0)
if file -L out/lib/libtelenorid.so.0 | grep -q 'not stripped'; then
    strip -o out/bench/libtelenorid.stripped out/lib/libtelenorid.so.0
    size=$(stat -c %s out/bench/libtelenorid.stripped)
fi
echo "{\"row\": \"library_size\", \"telenorid\": $size, \"reference\": null}" >>"$results"
libcurl=$(ldconfig -p | sed -n 's/.*libcurl\.so\.4 (libc6,x86-64) => //p' | head -1)
echo "== library: $size bytes stripped; $(out/bench/dlopen_time "$root/out/lib/libtelenorid.so.0" "${libcurl:-libcurl.so.4}")"
echo
export PYTHONPATH=$root/bindings/python
out/bench/bench_c "$c_iterations" "$rounds"
echo
"$PYTHON" bench/bench_python.py "$py_iterations" "$rounds"
echo
"$PYTHON" bench/bench_import.py

# ID token validation, the auth state's memory, then round trips against a local token endpoint (nginx),
# from C and from Python.
server=$root/out/bench/token-server
port=$(bash bench/token_server.sh start "$server")
trap 'bash bench/token_server.sh stop "$server"' EXIT
server_pid=$(cat "$server/nginx.pid")
nonce=$("$PYTHON" bench/make_id_token.py "$server" "http://127.0.0.1:$port")
echo
"$PYTHON" bench/bench_memory.py "$server" "${MEMORY_COUNT:-10000}"
echo
out/bench/bench_client_memory "http://127.0.0.1:$port/token" "${CLIENT_MEMORY_COUNT:-200}"
echo
out/bench/bench_id_token "http://127.0.0.1:$port" "http://127.0.0.1:$port/jwks" "$server/token" "$server/public.pem" "$nonce" \
    "${ID_TOKEN_ITERATIONS:-3000}" "$rounds"
echo
"$PYTHON" bench/bench_id_token.py "http://127.0.0.1:$port" "$server" "$nonce" "${ID_TOKEN_ITERATIONS:-1000}" "$rounds"
echo
out/bench/bench_refresh "http://127.0.0.1:$port/token" "$server_pid" "${REFRESH_ITERATIONS:-2000}" "$refresh_rounds"
echo
"$PYTHON" bench/bench_refresh.py "http://127.0.0.1:$port/token" "$server_pid" "${REFRESH_ITERATIONS:-1000}" "$refresh_rounds"
echo
echo "== goals (host load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$PYTHON" bench/report.py "$results"
