#!/usr/bin/env bash
# Installs what building and testing telenorid needs on a fresh Debian machine with Swift 6.3 at hand.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need_apt=()
# cmake: the JNI bridge's CMakeLists.txt (the Android build's) is built for the host in `make test`.
# glewlwyd is a real OpenID provider the Python tests start on 127.0.0.1; sqlite3 holds its database.
# lemonldap-ng-fastcgi-server, liblemonldap-ng-portal-perl, nginx: LemonLDAP::NG, a real OpenID provider the Python
# tests start on 127.0.0.1 (Tests/support/lemonldap_provider.py), its portal under the package's FastCGI server
# behind nginx. Its portal does not start without four packages Debian only recommends: libgd-securityimage-perl
# and libimage-magick-perl (the captcha module, loaded even when no captcha is asked for), libstring-random-perl
# (the OpenID provider module); libio-string-perl (every issuer module).
# postgresql (the server binaries, started by Tests/support/postgres_server.py on 127.0.0.1) and libpq-dev:
# the PostgreSQL store's tests (Python) and its C example (bindings/c/examples/pg_store.c).
# python3-venv: the test dependencies go into .venv, since Debian's python3 refuses pip installs into the
# system (it is "externally managed", PEP 668).
# groff-base, man-db: Tests/python/test_cli_help.py formats the CLI's man page as a reader's man would.
# maven: Tests/java/test_maven_release.py resolves the Java release with Maven's own resolver (its libraries).
# libsecret-1-0, gnome-keyring, dbus-daemon: the CLI keeps its secrets in the Secret Service through libsecret;
# Tests/python/test_secret_service.py starts a private session bus (dbus-daemon) and gnome-keyring-daemon on it.
for pkg in libssl-dev libcurl4-openssl-dev pkg-config valgrind gcc cmake junit5 glewlwyd sqlite3 postgresql libpq-dev \
           python3-venv libsecret-1-0 gnome-keyring dbus-daemon \
           lemonldap-ng-fastcgi-server liblemonldap-ng-portal-perl nginx libgd-securityimage-perl libimage-magick-perl \
           libstring-random-perl libio-string-perl groff-base man-db maven; do
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

# The aarch64 build (`make build-arm64`, `make test-arm64`): Debian's arm64 libraries beside this machine's
# (multiarch), the cross tools that strip it, and qemu-user to run its tests.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
fi
need_arm64=()
for pkg in libcurl4-openssl-dev:arm64 libssl-dev:arm64 libc6-dev:arm64 libgcc-12-dev:arm64 qemu-user \
           binutils-aarch64-linux-gnu; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_arm64+=("$pkg")
done
if [ ${#need_arm64[@]} -gt 0 ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_arm64[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: Swift 6.3 is needed (swift.org toolchain on PATH)" >&2; exit 1; }
# The Python test dependencies, in .venv at the repository's root (ignored by git); the Makefile and the
# test scripts run .venv/bin/python when it exists. A failed install fails setup; only pip's notices are
# filtered, and pipefail keeps pip's exit status.
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv

# An arm64 JVM for the aarch64 JNI smoke run and the linux-aarch64 natives jar's load (both under qemu-aarch64):
# Debian's openjdk-17-jre-headless:arm64 unpacked into .jvm-arm64 (ignored by git), not installed, since
# Multi-Arch: same would tie it to the amd64 JDK's version and pull in its desktop libraries. The Makefile hands
# it to the tests as ARM64_JAVA_HOME unless one is installed.
if [ ! -x /usr/lib/jvm/java-17-openjdk-arm64/bin/java ] && [ ! -x .jvm-arm64/usr/lib/jvm/java-17-openjdk-arm64/bin/java ]; then
    jvm_download="$(mktemp -d)"
    (cd "$jvm_download" && apt-get download -qq openjdk-17-jre-headless:arm64 2>&1 | { grep -v "unsandboxed" || true; })
    dpkg-deb -x "$jvm_download"/openjdk-17-jre-headless_*_arm64.deb .jvm-arm64
    rm -rf "$jvm_download"
fi

# idpyoidc: the FAPI 2.0 provider of Tests/support/fapi_provider.py, pinned with its JOSE library (the
# harness adapts two of its internals, see there). psycopg: telenorid.postgres_store (its binary wheel
# carries its own libpq).
.venv/bin/python -m pip install -q --disable-pip-version-check \
    pytest mypy authlib requests httpx django-oauth-toolkit cryptography idpyoidc==5.0.0 cryptojwt==1.11.0 \
    'psycopg[binary]>=3.1' \
    2>&1 | { grep -v "Running pip as the 'root'" || true; }
echo "setup: ok"
