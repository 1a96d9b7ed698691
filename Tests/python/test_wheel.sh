#!/usr/bin/env bash
# The wheel as a user gets it: installed with pip into a fresh venv outside the repository and used from
# outside it, with no TELENORID_* variable and no PYTHONPATH, so the only library it can find is the copy
# inside the installed package (telenorid/library.py's second place). Checks that `import telenorid` loads
# nothing, that --help and --version need no library, and that `telenorid login` signs in at a real
# provider: django-oauth-toolkit on 127.0.0.1, started and played (headlessly, through the loopback
# listener) by Tests/support/provider as scripts/demo.sh does it.
#
# `Tests/python/test_wheel.sh [WHEEL]`: WHEEL defaults to a fresh scripts/wheel.sh build.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [ $# -ge 1 ]; then wheel=$(realpath "$1"); else scripts/wheel.sh >&2 && wheel=$(realpath dist/telenorid-*.whl); fi
version=$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)
# The interpreter with the provider's and the browser's packages (django-oauth-toolkit, requests).
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')

work=$(mktemp -d)
provider=
cleanup() { [ -z "$provider" ] || kill "$provider" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "wheel: FAILED: $*" >&2; exit 1; }

"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --no-index "$wheel"  # no dependencies: nothing is fetched

"$python" Tests/support/provider/oidc_provider.py > "$work/provider.json" &
provider=$!
for _ in $(seq 300); do [ -s "$work/provider.json" ] && break; sleep 0.1; done
read -r issuer client user password < <("$python" -c 'import json, sys; p = json.loads(sys.stdin.readline())
print(p["issuer"], p["clients"]["public"]["client_id"], p["user"]["username"], p["user"]["password"])' < "$work/provider.json")
browser="$python $root/Tests/support/provider/browser.py --follow $user $password"

# From here on: a user's shell, outside the repository, with nothing pointing at the checkout.
cd "$work"
for variable in $(compgen -e | grep -E '^(TELENORID_|PYTHONPATH$)' || true); do unset "$variable"; done
bin=$work/venv/bin

imported=$("$bin/python" -c 'import sys, telenorid
print(telenorid.__version__, "telenorid._ffi" in sys.modules)')
[ "$imported" = "$version False" ] || fail "import telenorid printed '$imported', not '$version False' (version, library loaded)"
[ "$("$bin/telenorid" --version)" = "telenorid $version" ] || fail "telenorid --version"
"$bin/telenorid" --help | grep -q "telenorid login" || fail "telenorid --help does not describe login"
loaded=$("$bin/python" -c 'import telenorid; telenorid.library_version(); from telenorid import _ffi; print(_ffi.library_path)')
case "$loaded" in "$work/venv/"*/telenorid/libtelenorid.so.0) ;; *) fail "the library came from $loaded, not the wheel";; esac

"$bin/telenorid" login --issuer "$issuer" --client-id "$client" --scope "openid profile email" --port 53682 \
    --timeout 60 --state-file "$work/state.json" --browser-command "$browser" > "$work/claims.json" ||
    fail "telenorid login exited $?"
"$python" -c 'import json, sys; claims = json.load(open(sys.argv[1]))
assert claims["iss"] == sys.argv[2] and claims["sub"], claims' "$work/claims.json" "$issuer" || fail "the ID token claims"
"$bin/telenorid" token --state-file "$work/state.json" > /dev/null || fail "telenorid token after login"
echo "wheel: ok ($(stat -c %s "$wheel") bytes)"
