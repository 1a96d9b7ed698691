#!/usr/bin/env bash
# The main job: a PKCE pair and an authorization URL from C, then an end-to-end login from Python against
# a locally started OpenID provider (django-oauth-toolkit), all through the one libtelenorid.so.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out/examples
cc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/examples/authorization_url.c \
   -Lout/lib -ltelenorid -Wl,-rpath,"$PWD/out/lib" -o out/examples/authorization_url
echo "== from C (bindings/c/examples/authorization_url.c)"
out/examples/authorization_url
echo
echo "== end-to-end login from Python (bindings/python/examples/login.py)"
PYTHONPATH=bindings/python python3 bindings/python/examples/login.py
