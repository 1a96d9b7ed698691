"""The `telenorid` command against LemonLDAP::NG 2.16 (Tests/support/lemonldap_provider.py), run as a user runs
it (subprocesses, `--store file`, a throwaway HOME), the browser's part played by `lemonldap_provider.py follow`
(sign in as dwho, consent, follow the redirect to the CLI's loopback listener).

LemonLDAP::NG's ways the CLI meets here: only the exact registered redirect URI (so `login --port 53692`, and a
clear message when the port is not the registered one), PKCE required, refresh without rotation and refreshed ID
tokens without nonce, a key set whose key has no alg, an issuer with a trailing slash, and no revocation
endpoint (RFC 7009): `logout` and `revoke` sign out here, say the provider cannot revoke, and exit 0.
"""
import base64
import json
import os
import stat
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
import requests

from lemonldap_provider import FASTCGI_SERVER, NGINX, REDIRECT_URI, USER, start_lemonldap  # noqa: E402

if not (os.access(FASTCGI_SERVER, os.X_OK) and os.access(NGINX, os.X_OK)):
    pytest.skip("LemonLDAP::NG or nginx is not installed (scripts/setup.sh installs them)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
HELPER = ROOT / "Tests" / "support" / "lemonldap_provider.py"
BROWSER = f"{sys.executable} {HELPER} follow"
# As a real browser command (xdg-open, firefox) does: hands the URL on and exits 0 at once, whatever the page
# then shows. (The helper itself exits 1 when the portal shows an error instead of redirecting, and a browser
# command that fails ends the login at once.)
BROWSER_RETURNING = f"sh -c '{BROWSER} \"$0\" >/dev/null 2>&1 &'"
PORT = str(urllib.parse.urlsplit(REDIRECT_URI).port)  # 53692, the one LemonLDAP::NG allows
SCOPE = "openid profile email"
# What the CLI says at a provider without a revocation endpoint (cli_accounts.NOT_REVOKED).
NOT_REVOKED = ("the provider has no revocation endpoint (RFC 7009), so it cannot revoke the sign-in: "
               "its refresh token stays valid there until it expires")


@pytest.fixture(scope="module")
def lemonldap():
    with start_lemonldap() as provider:
        yield provider


@pytest.fixture
def home(tmp_path):
    """A HOME of its own: nothing of the user's (~/.local/state/telenorid, a keyring) is read or written."""
    path = tmp_path / "home"
    path.mkdir()
    return path


def telenorid(home, *args):
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("TELENORID_STORE", "TELENORID_BROWSER", "TELENORID_CLIENT_SECRET",
                                   "XDG_STATE_HOME", "DBUS_SESSION_BUS_ADDRESS")}
    environment.update(HOME=str(home), PYTHONPATH=str(ROOT / "bindings" / "python"))
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=environment)


def login(lemonldap, home, state_file, *extra):
    return telenorid(home, "login", "--issuer", lemonldap.issuer, "--client-id", lemonldap.client_id,
                     "--scope", SCOPE, "--port", PORT, "--timeout", "60", "--store", "file",
                     "--state-file", str(state_file), "--browser-command", BROWSER, *extra)


def account_record(state_file):
    """The one account's record beside `state_file` (<stem>.<id>.json)."""
    records = [path for path in state_file.parent.glob(state_file.stem + ".*.json")
               if path.name not in (state_file.stem + ".settings.json", state_file.stem + ".accounts.json")]
    assert len(records) == 1, records
    return records[0]


def jwt_payload(token):
    return json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))


def metadata(lemonldap):
    return requests.get(lemonldap.issuer + ".well-known/openid-configuration", timeout=10).json()


def test_login_status_userinfo_token_refresh_verify_logout(lemonldap, home, tmp_path):
    state_file = tmp_path / "state" / "telenorid.json"
    common = ["--state-file", str(state_file)]

    signed_in = login(lemonldap, home, state_file)
    assert signed_in.returncode == 0, signed_in.stderr
    claims = json.loads(signed_in.stdout)
    assert claims["iss"] == lemonldap.issuer and claims["sub"] == USER["username"]
    assert claims["aud"] == [lemonldap.client_id] and claims["azp"] == lemonldap.client_id and claims["nonce"]
    assert f"waiting for the browser at {REDIRECT_URI}" in signed_in.stderr
    assert "signed in as account" in signed_in.stderr
    assert "Secret Service" not in signed_in.stderr  # --store file: no notice
    record = account_record(state_file)
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    saved = json.loads(record.read_text())
    first_access, first_refresh, first_id_token = saved["access_token"], saved["refresh_token"], saved["id_token"]
    assert first_refresh and jwt_payload(first_id_token)["nonce"] == claims["nonce"]
    assert not (home / ".local").exists(), "nothing under HOME when --state-file is given"

    status = telenorid(home, "status", "--json", *common)
    assert status.returncode == 0, status.stderr
    shown = json.loads(status.stdout)
    assert shown["signed_in"] is True and shown["subject"] == USER["username"]
    assert shown["issuer"] == lemonldap.issuer and shown["token_type"] == "Bearer"
    assert 0 < shown["expires_in"] <= 3600 and shown["state_file"] == str(state_file)
    text = telenorid(home, "status", *common)
    assert text.returncode == 0 and f"signed in as {USER['username']} at {lemonldap.issuer}" in text.stdout

    userinfo = telenorid(home, "userinfo", *common)
    assert userinfo.returncode == 0, userinfo.stderr
    assert json.loads(userinfo.stdout) == {"sub": USER["username"], "name": USER["name"], "email": USER["email"],
                                           "preferred_username": USER["username"]}

    token = telenorid(home, "token", *common)
    assert token.returncode == 0, token.stderr
    assert token.stdout.strip() == first_access  # an hour left: no refresh

    refreshed = telenorid(home, "refresh", "--json", *common)
    assert refreshed.returncode == 0, refreshed.stderr
    assert json.loads(refreshed.stdout)["refreshed"] is True
    saved = json.loads(record.read_text())
    assert saved["access_token"] != first_access
    # No rotation at LemonLDAP::NG: the answer has no refresh_token, and the one kept is still the first.
    assert saved["refresh_token"] == first_refresh
    # The refreshed ID token (no nonce) is kept, for the same user.
    assert saved["id_token"] != first_id_token
    assert "nonce" not in jwt_payload(saved["id_token"]) and jwt_payload(saved["id_token"])["sub"] == USER["username"]
    again = telenorid(home, "refresh", *common)
    assert again.returncode == 0, again.stderr
    assert json.loads(record.read_text())["refresh_token"] == first_refresh
    token = telenorid(home, "token", *common)
    assert token.returncode == 0 and token.stdout.strip() == json.loads(record.read_text())["access_token"]
    assert telenorid(home, "userinfo", *common).returncode == 0

    # Both ID tokens verify with the key set (its key has no alg: the header's RS256 is used).
    for id_token in (first_id_token, json.loads(record.read_text())["id_token"]):
        verified = telenorid(home, "verify", id_token, *common)
        assert verified.returncode == 0, verified.stderr
        shown = json.loads(verified.stdout)
        assert shown["header"] == {"typ": "JWT", "alg": "RS256", "kid": "test-key-1"}
        assert shown["claims"]["sub"] == USER["username"] and shown["claims"]["iss"] == lemonldap.issuer
    forged = telenorid(home, "verify", first_id_token[:-4] + "AAAA", *common)
    assert forged.returncode == 1 and "signature" in forged.stderr

    id_token = json.loads(record.read_text())["id_token"]
    refresh_token = json.loads(record.read_text())["refresh_token"]
    logout = telenorid(home, "logout", *common)
    assert logout.returncode == 0, logout.stderr
    # The end-session URL on standard output (alone), with the ID token as its hint.
    end_session = logout.stdout.strip()
    assert "\n" not in end_session
    parts = urllib.parse.urlsplit(end_session)
    assert urllib.parse.urlunsplit(parts._replace(query="")) == metadata(lemonldap)["end_session_endpoint"]
    query = urllib.parse.parse_qs(parts.query)
    assert query["id_token_hint"] == [id_token]
    # Said plainly: signed out here, not revoked, and why.
    assert "telenorid: signed out and account " in logout.stderr
    assert " removed here, not revoked: " + NOT_REVOKED in logout.stderr
    assert "to end the provider's browser session too, open:" in logout.stderr
    assert not record.exists()
    signed_out = telenorid(home, "token", *common)
    assert signed_out.returncode == 3 and "telenorid login" in signed_out.stderr
    assert telenorid(home, "logout", *common).returncode == 3  # nothing left to log out of

    # What the message says is so: the refresh token still works at LemonLDAP::NG.
    answer = requests.post(metadata(lemonldap)["token_endpoint"], timeout=10,
                           data={"grant_type": "refresh_token", "refresh_token": refresh_token,
                                 "client_id": lemonldap.client_id})
    assert answer.status_code == 200 and answer.json()["access_token"], answer.text


def test_logout_as_json(lemonldap, home, tmp_path):
    state_file = tmp_path / "state.json"
    signed_in = login(lemonldap, home, state_file)
    assert signed_in.returncode == 0, signed_in.stderr
    id_token = json.loads(account_record(state_file).read_text())["id_token"]
    logout = telenorid(home, "logout", "--json", "--state-file", str(state_file))
    assert logout.returncode == 0, logout.stderr
    shown = json.loads(logout.stdout)
    assert shown["signed_in"] is False and shown["revoked"] is False
    assert shown["end_session_url"].startswith(metadata(lemonldap)["end_session_endpoint"] + "?")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(shown["end_session_url"]).query)["id_token_hint"] == [id_token]
    assert NOT_REVOKED in logout.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["home"], "the last account gone, nothing is left"


def test_revoke_signs_out_here_and_says_the_provider_cannot(lemonldap, home, tmp_path):
    state_file = tmp_path / "state.json"
    signed_in = login(lemonldap, home, state_file)
    assert signed_in.returncode == 0, signed_in.stderr
    revoke = telenorid(home, "revoke", "--json", "--state-file", str(state_file))
    assert revoke.returncode == 0, revoke.stderr
    assert json.loads(revoke.stdout) == {"signed_in": False, "revoked": False}
    assert "signed out here, not revoked: " + NOT_REVOKED in revoke.stderr
    assert telenorid(home, "token", "--state-file", str(state_file)).returncode == 3


def test_login_on_a_port_not_registered_says_what_to_check(lemonldap, home, tmp_path):
    """LemonLDAP::NG allows only the registered redirect URI: on another port it shows an error page and never
    redirects. The CLI says, within a third of its timeout, what to check (the port among it), then fails."""
    state_file = tmp_path / "state.json"
    refused = telenorid(home, "login", "--issuer", lemonldap.issuer, "--client-id", lemonldap.client_id,
                        "--port", str(int(PORT) + 1), "--timeout", "6", "--store", "file",
                        "--state-file", str(state_file), "--browser-command", BROWSER_RETURNING)
    assert refused.returncode == 1, refused.stderr
    assert f"nothing has reached http://127.0.0.1:{int(PORT) + 1}/callback after 2 s" in refused.stderr
    assert "or only the registered one, which `--port` then sets" in refused.stderr
    assert "nothing was saved" in refused.stderr
    assert not list(tmp_path.glob("state*"))
