#!/usr/bin/env bash
# The main job: an end-to-end login with the `telenorid` command against a locally started OpenID provider
# (django-oauth-toolkit on 127.0.0.1), through the loopback redirect listener; then the tokens in use:
# userinfo, a fresh access token, a refresh with rotation, the ID token verified again, revocation. Before
# that, a PKCE pair and an authorization URL from C. All of it through the one libtelenorid.so.
#
# The user's part (login form, consent) is played headlessly by Tests/support/provider/browser.py, which
# follows the redirect to the listener as a browser would; set TELENORID_BROWSER to another command (a real
# browser) to do it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Python of `make setup`'s .venv when there is one (the Makefile exports it as PYTHON), else python3.
PYTHON="${PYTHON:-$([ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3)}"
mkdir -p out/examples out/demo
cc -std=c99 -Wall -Wextra -Werror -Iinclude bindings/c/examples/authorization_url.c \
   -Lout/lib -ltelenorid -Wl,-rpath,"$PWD/out/lib" -o out/examples/authorization_url
echo "== from C (bindings/c/examples/authorization_url.c)"
out/examples/authorization_url
echo

"$PYTHON" Tests/support/provider/oidc_provider.py > out/demo/provider.json &
provider=$!
trap 'kill $provider 2>/dev/null || true' EXIT
for _ in $(seq 300); do [ -s out/demo/provider.json ] && break; sleep 0.1; done
read -r issuer client user password < <("$PYTHON" -c 'import json, sys; p = json.loads(sys.stdin.readline())
print(p["issuer"], p["clients"]["public"]["client_id"], p["user"]["username"], p["user"]["password"])' < out/demo/provider.json)
echo "== provider: django-oauth-toolkit at $issuer"

export PYTHONPATH=$PWD/bindings/python
# The sign-in is kept in files beside this one (the library's directory store: out/demo/state.<account>.json
# holds the tokens, read below); the settings in out/demo/state.settings.json.
rm -f out/demo/state.*
telenorid() { echo "\$ telenorid $1" >&2; "$PYTHON" -m telenorid "$@" --state-file out/demo/state.json --store file; }
browser="$PYTHON $PWD/Tests/support/provider/browser.py --follow $user $password"
echo "== sign in; the verified ID token claims:"
telenorid login --issuer "$issuer" --client-id "$client" --scope "openid profile email" --port 53682 \
    --browser-command "${TELENORID_BROWSER:-$browser}"
account=$(telenorid status --json | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["account"])')
state=out/demo/state.$account.json
echo "== userinfo:"
telenorid userinfo
echo "== a fresh access token: $(telenorid token | cut -c1-8)…"
before=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["refresh_token"])' "$state")
telenorid refresh
after=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["refresh_token"])' "$state")
echo "== refresh token rotated and saved: $([ "$before" != "$after" ] && echo yes || echo NO)"
id_token=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["id_token"])' "$state")
echo "== the ID token, verified again with the provider's keys:"
telenorid verify "$id_token" | "$PYTHON" -c 'import json, sys; d = json.load(sys.stdin); print("header", d["header"]); print("sub", d["claims"]["sub"], "iss", d["claims"]["iss"])'
telenorid revoke
echo "== after revocation:"
telenorid token || echo "(exit code $?: signed out, as expected)"
