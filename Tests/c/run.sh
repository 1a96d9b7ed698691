#!/usr/bin/env bash
# The C tests of libtelenorid (out/lib, from `make build`):
#   1. compiles test_api (test_api*.c, linked) and test_dlopen (dlopen, not linked) with -std=c99 -Wall -Wextra
#      -Werror -pedantic, and test_api again with -fsanitize=address,undefined;
#   2. check_symbols.sh: header functions == exported symbols, no libswift*, SONAME, header alone, status names;
#   3. test_api under valgrind (when installed), then plain;
#   4. test_dlopen;
#   5. test_api under ASan/UBSan (the uninstrumented Swift library is fine; leak detection is valgrind's job);
#   6. test_cancel (cancellation from another thread) plain and under ASan/UBSan; test_host_callbacks (the host's signers, no network),
#      test_null_contract (the header's NULL rule for every function, generated from the header by scripts/gen; the handles only a provider gives from Tests/c/null_contract_provider.py), test_line_auth (against the Aloha stand-in), test_store (the host's store), test_accounts (accounts),
#      test_flows (Vipps app-to-app and the identity-provider app against the real provider), test_device_grant
#      (RFC 8628 against django-oauth-toolkit and glewlwyd) test_ciba (CIBA poll and ping against glewlwyd) and test_resource_server (introspection, JWT access tokens and
#      client credentials against django-oauth-toolkit and glewlwyd), test_backchannel_logout (logout tokens it signs, the local sign-out),
#      test_token_exchange (RFC 8693 against idpyoidc's provider in the FAPI 2.0 harness), test_native_sso (OpenID Connect Native SSO
#      against the double Tests/support/native_sso_provider.py), each plain, under valgrind and under ASan/UBSan; test_secrets (no copies of secrets left
#      in memory, against Tests/c/secrets_provider.py) plain only;
#   7. test_install.sh (make install + pkg-config), test_examples.py (bindings/c/examples against the provider),
#      test_pg_store.py (bindings/c/examples/pg_store.c, a store in PostgreSQL, against a throwaway server)
#      and test_fapi.py (bindings/c/examples/fapi_login.c against glewlwyd, under valgrind).
# Runs every step, prints a summary, and exits non-zero when any step failed. Works from any directory;
# builds into out/tests/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# The Python of `make setup`'s .venv when there is one (the Makefile exports it as PYTHON), else python3.
# The C tests exec "python3" by name (test_flows.c, test_secrets.c, test_line_auth.c): the venv's bin/
# goes first on PATH so that name is the same interpreter.
PYTHON="${PYTHON:-$([ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3)}"
[ "$PYTHON" = python3 ] || export PATH="$(dirname "$PYTHON"):$PATH"
out=out/tests
lib=out/lib
mkdir -p "$out"
if [ ! -e "$lib/libtelenorid.so.0" ]; then
    echo "run.sh: $lib/libtelenorid.so.0 is missing; run 'make build' first" >&2
    exit 1
fi

cc=${CC:-gcc}
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -ITests/c -g)
link=(-L"$lib" -ltelenorid -lpthread -Wl,-rpath,"$PWD/$lib")
failed=()
step() { # step NAME COMMAND...: runs it, records a failure
    local name=$1
    shift
    echo "== $name"
    if "$@"; then echo "-- $name: ok"; else echo "-- $name: FAILED (exit $?)"; failed+=("$name"); fi
}
# compile_test NAME [LINK...]: Tests/c/NAME.c as out/tests/NAME and, under ASan/UBSan, NAME_asan (no stale
# binary may stand in for one that failed to build).
compile_test() {
    local name=$1
    shift
    rm -f "$out/$name" "$out/${name}_asan"
    step "compile $name" "$cc" "${cflags[@]}" "Tests/c/$name.c" "${link[@]}" "$@" -o "$out/$name"
    step "compile $name with ASan/UBSan" "$cc" "${cflags[@]}" -fsanitize=address,undefined -fno-omit-frame-pointer \
        -fno-sanitize-recover=undefined "Tests/c/$name.c" "${link[@]}" "$@" -o "$out/${name}_asan"
}

# No stale binary may stand in for one that failed to build.
rm -f "$out/test_api" "$out/test_dlopen" "$out/test_api_asan" "$out/test_secrets"
step "compile test_api" "$cc" "${cflags[@]}" Tests/c/test_api*.c "${link[@]}" -o "$out/test_api"
step "compile test_dlopen" "$cc" "${cflags[@]}" Tests/c/test_dlopen.c -ldl -lpthread -o "$out/test_dlopen"
step "compile test_api with ASan/UBSan" "$cc" "${cflags[@]}" -fsanitize=address,undefined -fno-omit-frame-pointer \
    -fno-sanitize-recover=undefined Tests/c/test_api*.c "${link[@]}" -o "$out/test_api_asan"
# Line authentication against the Aloha stand-in (Tests/support/aloha_server.py, started by the test).
compile_test test_line_auth
# Vipps app-to-app and the identity-provider app end to end against the real provider (started by the test).
compile_test test_flows
step "compile test_secrets" "$cc" "${cflags[@]}" Tests/c/test_secrets.c "${link[@]}" -o "$out/test_secrets"
# The device authorization grant (RFC 8628) against django-oauth-toolkit and glewlwyd (started by the test).
compile_test test_device_grant
compile_test test_idp_app
# The host's signers (lifetime, lengths, calls from inside, FAPI 2.0): no network.
compile_test test_host_callbacks
# The header's NULL rule for every function (generated by scripts/gen from the header): the handles only a
# provider gives come from Tests/c/null_contract_provider.py (the fault provider, started by the test).
compile_test test_null_contract
# Cancellation from another thread (against the stub server, and a loopback wait): plain and ASan/UBSan only,
# since it measures how fast a cancelled call returns.
compile_test test_cancel
# The host's store (eight states on one record, one refresh) against the real provider.
compile_test test_store
# Accounts (a registry in a directory store: two users, select, remove, two threads adding) against the real provider.
compile_test test_accounts
# CIBA (OpenID CIBA Core 1.0) against glewlwyd, started by the test, with its notification endpoint on a thread.
compile_test test_ciba
# Resource servers (introspection, JWT access tokens) and machines' tokens (client credentials, a shared store) against
# django-oauth-toolkit and glewlwyd, the JWT bearer grant against Authlib's (Tests/support/jwt_bearer_provider.py).
compile_test test_resource_server
# DPoP proofs checked at a resource server (RFC 9449 §4.3, §7.1): no network.
compile_test test_dpop_rs
# Back-channel logout: logout tokens the test signs (HMAC from OpenSSL's libcrypto), the local sign-out.
compile_test test_backchannel_logout -lcrypto
# Token exchange (RFC 8693) against idpyoidc's provider (Tests/support/fapi_provider.py --token-exchange, started by the test).
compile_test test_token_exchange
# Native SSO (OpenID Connect Native SSO for Mobile Apps 1.0) against the double every language shares (Tests/support/native_sso_provider.py,
# started by the test: no provider here implements it).
compile_test test_native_sso
# test_dlopen must not link the library.
if [ -x "$out/test_dlopen" ] && readelf -d "$out/test_dlopen" | grep -q 'libtelenorid'; then
    echo "run.sh: test_dlopen links libtelenorid"; failed+=("test_dlopen not linked")
fi

step "check_symbols" bash Tests/c/check_symbols.sh

if [ -x "$out/test_api" ]; then
    if command -v valgrind >/dev/null; then
        # Definite leaks and memory errors fail; the Swift runtime's one-time allocations ("still reachable",
        # "possibly lost") don't.
        step "test_api under valgrind" valgrind --leak-check=full --errors-for-leak-kinds=definite \
            --show-leak-kinds=definite --error-exitcode=1 "$out/test_api"
    else
        echo "== test_api under valgrind: skipped (valgrind is not installed)"
    fi
    step "test_api" "$out/test_api"
fi
[ -x "$out/test_dlopen" ] && step "test_dlopen" "$out/test_dlopen" "$PWD/$lib/libtelenorid.so.0"
[ -x "$out/test_api_asan" ] && step "test_api under ASan/UBSan" env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$out/test_api_asan"
# Each of these three: under valgrind (when installed), plain, then its ASan/UBSan build.
three_ways() { # three_ways NAME
    local name=$1
    if [ -x "$out/$name" ]; then
        command -v valgrind >/dev/null && step "$name under valgrind" valgrind --leak-check=full \
            --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=1 "$out/$name"
        step "$name" "$out/$name"
    fi
    [ -x "$out/${name}_asan" ] && step "$name under ASan/UBSan" \
        env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$out/${name}_asan"
}
[ -x "$out/test_cancel" ] && step "test_cancel" "$out/test_cancel"
[ -x "$out/test_cancel_asan" ] && step "test_cancel under ASan/UBSan" \
    env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$out/test_cancel_asan"
three_ways test_host_callbacks
three_ways test_null_contract
three_ways test_idp_app
three_ways test_line_auth
three_ways test_flows
three_ways test_store
three_ways test_accounts
three_ways test_device_grant
three_ways test_ciba
three_ways test_resource_server
three_ways test_dpop_rs
three_ways test_backchannel_logout
three_ways test_token_exchange
three_ways test_native_sso
# Plain only: valgrind's and ASan's shadow copies of the heap would be found by the scan. Run even when
# its compile failed, so the test shows as failed, never as skipped.
step "test_secrets" "$out/test_secrets"

step "make install + pkg-config" bash Tests/c/test_install.sh
step "examples against the provider" "$PYTHON" Tests/c/test_examples.py
step "pg_store example against PostgreSQL and the provider" "$PYTHON" Tests/c/test_pg_store.py
step "fapi_login example against glewlwyd" "$PYTHON" Tests/c/test_fapi.py
step "test_lemonldap against LemonLDAP::NG" bash -c '"${@:2}" -o "$1/test_lemonldap" && "$1/test_lemonldap"' _ "$out" "$cc" "${cflags[@]}" Tests/c/test_lemonldap.c "${link[@]}"

if [ ${#failed[@]} -ne 0 ]; then
    echo "C tests: FAILED: ${failed[*]}"
    exit 1
fi
echo "C tests: all passed"
