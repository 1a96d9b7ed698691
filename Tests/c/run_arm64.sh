#!/usr/bin/env bash
# The aarch64 library (`make build-arm64`, out/lib-arm64) under qemu-aarch64: the C suite's test_api and the
# flows against real providers, which run natively on 127.0.0.1 (the test binaries start them with the
# PATH's python3: the venv's, through the Makefile). The test programs are cross-compiled by clang against
# Debian's arm64 libraries (scripts/setup.sh installs them, multiarch) and run with the arm64 loader and
# libraries of this machine (`qemu-aarch64 -L /`).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
lib=out/lib-arm64
out=out/tests-arm64
if [ ! -e "$lib/libtelenorid.so.0" ]; then
    echo "run_arm64.sh: $lib/libtelenorid.so.0 is missing; run 'make build-arm64' first" >&2
    exit 1
fi
mkdir -p "$out"
cc=(clang --target=aarch64-linux-gnu -fuse-ld=lld)
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -ITests/c -g)
link=(-L"$lib" -ltelenorid -lpthread -Wl,-rpath,"$PWD/$lib")
failed=()
step() { # step NAME COMMAND...
    local name=$1
    shift
    echo "== $name"
    if "$@"; then echo "-- $name: ok"; else echo "-- $name: FAILED (exit $?)"; failed+=("$name"); fi
}

file -L "$lib/libtelenorid.so.0" | grep -q 'ARM aarch64' || { echo "run_arm64.sh: $lib is not aarch64" >&2; exit 1; }
step "compile test_api (aarch64)" "${cc[@]}" "${cflags[@]}" Tests/c/test_api*.c "${link[@]}" -o "$out/test_api"
step "test_api (qemu-aarch64)" qemu-aarch64 -L / "$out/test_api"
# The flows against django-oauth-toolkit, the Aloha stand-in and the fault provider, and the threaded ones.
for name in test_flows test_store test_accounts test_cancel test_host_callbacks; do
    step "compile $name (aarch64)" "${cc[@]}" "${cflags[@]}" "Tests/c/$name.c" "${link[@]}" -o "$out/$name"
    step "$name (qemu-aarch64)" qemu-aarch64 -L / "$out/$name"
done
# The JNI bridge cross-compiled against this library (and its JUnit smoke run under qemu where an arm64 JVM is
# at hand: bindings/jni/build_bridge_arm64.sh says when it is skipped).
step "JNI bridge (aarch64)" bash bindings/jni/build_bridge_arm64.sh

if [ ${#failed[@]} -ne 0 ]; then
    echo "C tests on aarch64: FAILED: ${failed[*]}"
    exit 1
fi
echo "C tests on aarch64: all passed"
