#!/usr/bin/env bash
# Installs what building and testing telenorid needs on a fresh Debian machine with Swift 6.3 at hand.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need_apt=()
# cmake: the JNI bridge's CMakeLists.txt (the Android build's) is built for the host in `make test`.
# glewlwyd is a real OpenID provider the Python tests start on 127.0.0.1; sqlite3 holds its database.
# python3-venv: the test dependencies go into .venv, since Debian's python3 refuses pip installs into the
# system (it is "externally managed", PEP 668).
for pkg in libssl-dev libcurl4-openssl-dev pkg-config valgrind gcc cmake junit5 glewlwyd sqlite3 python3-venv; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# The JNI tests need a JDK 17 with javac (the machine image ships one; install it where it does not).
if [ ! -x /usr/lib/jvm/java-17-openjdk-amd64/bin/javac ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
fi

command -v swift >/dev/null || { echo "setup: Swift 6.3 is needed (swift.org toolchain on PATH)" >&2; exit 1; }
# The Python test dependencies, in .venv at the repository's root (ignored by git); the Makefile and the
# test scripts run .venv/bin/python when it exists. A failed install fails setup; only pip's notices are
# filtered, and pipefail keeps pip's exit status.
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# idpyoidc: the FAPI 2.0 provider of Tests/support/fapi_provider.py, pinned with its JOSE library (the
# harness adapts two of its internals, see there).
.venv/bin/python -m pip install -q --disable-pip-version-check \
    pytest mypy authlib requests httpx django-oauth-toolkit cryptography idpyoidc==5.0.0 cryptojwt==1.11.0 \
    2>&1 | { grep -v "Running pip as the 'root'" || true; }
echo "setup: ok"
