#!/usr/bin/env bash
# Benchmarks, not tests: libtelenorid from C and from Python beside reference implementations measured in
# the same run, printing ns/op or µs/op and ratios. Nothing here passes or fails on speed.
#
#   bash bench/run.sh [C iterations per round] [Python iterations per round] [rounds]
#
# Builds the library first only when out/lib has none (`make bench` builds it anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# The Python of `make setup`'s .venv when there is one (the Makefile exports it as PYTHON), else python3.
PYTHON="${PYTHON:-$([ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3)}"
c_iterations=${1:-20000}
py_iterations=${2:-3000}
rounds=${3:-7}

if [ ! -e out/lib/libtelenorid.so.0 ]; then
    make build
fi
mkdir -p out/bench
cc=${CC:-cc}
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_c.c -Lout/lib -ltelenorid -lcrypto \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_c
$cc -O2 -std=gnu11 -Wall bench/dlopen_time.c -ldl -o out/bench/dlopen_time
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_id_token.c -Lout/lib -ltelenorid -lcrypto \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_id_token
$cc -O2 -std=gnu11 -Wall -Wextra -Iinclude bench/bench_refresh.c -Lout/lib -ltelenorid -lcurl \
    -Wl,-rpath,"$root/out/lib" -o out/bench/bench_refresh

"$PYTHON" -c "import authlib, requests, pycurl, jwt, joserfc" 2>/dev/null || "$PYTHON" -m pip install -q authlib requests pycurl pyjwt joserfc

echo "== host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$PYTHON" --version)"
echo "== library: $(stat -L -c %s out/lib/libtelenorid.so.0) bytes stripped; $(out/bench/dlopen_time "$root/out/lib/libtelenorid.so.0")"
# For scale: most of the load is libtelenorid's own dependencies, libcurl first (with its TLS, LDAP, SSH, ...).
curl_so=$(ldd out/lib/libtelenorid.so.0 | awk '/libcurl/ {print $3}')
echo "   of which libcurl alone ($curl_so): $(out/bench/dlopen_time "$curl_so")"
echo
out/bench/bench_c "$c_iterations" "$rounds"
echo
PYTHONPATH="$root/bindings/python" "$PYTHON" bench/bench_python.py "$py_iterations" "$rounds"
echo
PYTHONPATH="$root/bindings/python" "$PYTHON" bench/bench_memory.py

# ID token validation, then round trips against a local token endpoint (nginx), from C and from Python.
server=$root/out/bench/token-server
port=$(bash bench/token_server.sh start "$server")
trap 'bash bench/token_server.sh stop "$server"' EXIT
nonce=$("$PYTHON" bench/make_id_token.py "$server" "http://127.0.0.1:$port")
echo
out/bench/bench_id_token "http://127.0.0.1:$port" "http://127.0.0.1:$port/jwks" "$server/token" "$server/public.pem" "$nonce" \
    "${ID_TOKEN_ITERATIONS:-5000}" "$rounds"
echo
PYTHONPATH="$root/bindings/python" "$PYTHON" bench/bench_id_token.py "${ID_TOKEN_ITERATIONS:-2000}" "$rounds"
echo
out/bench/bench_refresh "http://127.0.0.1:$port/token" "${REFRESH_ITERATIONS:-2000}" "$rounds"
echo
PYTHONPATH="$root/bindings/python" "$PYTHON" bench/bench_refresh.py "http://127.0.0.1:$port/token" "${REFRESH_ITERATIONS:-1000}" "$rounds"
