#!/usr/bin/env bash
# The main job as far as the library goes today: a PKCE pair and a full authorization URL, from C and
# from Python, through the one libtelenorid.so.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out/examples
cc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/examples/authorization_url.c \
   -Lout/lib -ltelenorid -Wl,-rpath,"$PWD/out/lib" -o out/examples/authorization_url
echo "== from C (bindings/c/examples/authorization_url.c)"
out/examples/authorization_url
echo
echo "== from Python (bindings/python/examples/authorization_url.py)"
PYTHONPATH=bindings/python python3 bindings/python/examples/authorization_url.py
