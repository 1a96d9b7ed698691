"""The `telenorid` command at the fault provider (Tests/support/fault_provider.py), run as a user would run it
(subprocesses), for what a real provider won't do on request: ID token claims, scopes and error descriptions
holding terminal controls; a sign-out of the rotation journal's; no revocation endpoint. Signing in is
`login --no-browser`, the test pasting the redirect the provider would have sent."""
import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from fault_provider import FaultProvider, Response  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLIENT_ID = "cli-faults"
# What a terminal acts on: ESC (an OSC that sets the window title, a CSI that clears the screen), BEL, CR and
# LF (forged lines), DEL, the C1 CSI, and the bidirectional override, isolate and marks.
HOSTILE = {
    "sub": "alice\x1b[2J",
    "name": "Eve\x1b]0;owned\x07\rroot signed in\nforged row",
    "email": "eve\x9b31m@example.com",
    "preferred_username": "\u202etxt.exe\u2066x\u2069\u200e\u200f\x7f",
}
HOSTILE_SCOPE = "openid\x1b[31m profile\nforged"
RAW = ("\x1b", "\x07", "\r", "\x9b", "\x7f", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f")


def environment(**extra):
    return dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file", **extra)


def telenorid(*args, env=None):
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=60,
                          env=environment(**(env or {})))


def assert_no_raw_controls(text):
    found = [character for character in RAW if character in text]
    assert not found, (found, text)


@pytest.fixture
def fault():
    with FaultProvider() as provider:
        yield provider


def login(fault, state_file, claims=None, settings=True, extra=(), **token):
    """Signs in through `login --no-browser`: reads the authorization URL the command prints, makes the token
    endpoint answer for its nonce with an ID token holding `claims` (and `token`'s members; id_token=None:
    none), and pastes the redirect. `settings` False: no --issuer nor --client-id (the kept ones are used);
    `extra`: more flags.
    Returns the completed process."""
    flags = ["--issuer", fault.issuer, "--client-id", CLIENT_ID] if settings else []
    process = subprocess.Popen([sys.executable, "-m", "telenorid", "login", "--no-browser", *flags, *extra,
                                "--state-file", str(state_file)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment())
    try:
        seen = []
        for line in process.stderr:
            seen.append(line)
            if line.startswith(fault.issuer + "/authorize"):
                break
        else:
            pytest.fail("no authorization URL: " + "".join(seen))
        query = {key: values[0] for key, values in parse_qs(urlsplit(line.strip()).query).items()}
        nonce = query.get("nonce")
        token.setdefault("id_token", fault.id_token(CLIENT_ID, nonce, **(claims or {})))
        fault.token_behaviour = lambda form: Response(body=fault.token_body(CLIENT_ID, nonce, **token))
        out, err = process.communicate(f"{query['redirect_uri']}?code=c-1&state={query['state']}\n", timeout=60)
    finally:
        process.kill()
    done = subprocess.CompletedProcess(process.args, process.returncode, out, "".join(seen) + err)
    assert done.returncode == 0, done.stderr
    return done


def the_record(state_file):
    [record] = [path for path in state_file.parent.glob(state_file.stem + ".*.json")
                if path.name not in (state_file.stem + ".settings.json", state_file.stem + ".accounts.json")]
    return record


# ---- text from outside is printed escaped ------------------------------------------------------------------

def test_claims_and_scope_are_printed_escaped_and_json_keeps_them(fault, tmp_path):
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file)]
    login(fault, state_file, HOSTILE, scope=HOSTILE_SCOPE)

    status = telenorid("status", *common)
    assert status.returncode == 0, status.stderr
    assert_no_raw_controls(status.stdout)
    lines = status.stdout.splitlines()
    assert lines[0].startswith("signed in as alice\\x1b[2J at "), lines
    assert "scopes: openid\\x1b[31m profile forged" in lines, lines  # scopes are split at white space
    assert len(lines) == 4, lines

    accounts = telenorid("accounts", *common)
    assert accounts.returncode == 0, accounts.stderr
    assert_no_raw_controls(accounts.stdout)
    [row] = accounts.stdout.splitlines()
    assert "Eve\\x1b]0;owned\\x07\\x0droot signed in\\x0aforged row" in row and "eve\\x9b31m@example.com" in row, row
    assert "\\u202etxt.exe\\u2066x\\u2069\\u200e\\u200f\\x7f" in row, row

    # --json is JSON, which escapes them itself: the values come back whole.
    document = json.loads(telenorid("status", "--json", *common).stdout)
    assert document["subject"] == HOSTILE["sub"] and document["scopes"] == HOSTILE_SCOPE.split()
    [listed] = json.loads(telenorid("accounts", "--json", *common).stdout)
    assert {key: listed[key if key != "sub" else "subject"] for key in HOSTILE} == HOSTILE

    # The userinfo claims and the provider's error description, in the library's message.
    fault.userinfo_behaviour = lambda: Response(body={"sub": HOSTILE["sub"], "name": HOSTILE["name"]})
    userinfo = telenorid("userinfo", *common)
    assert userinfo.returncode == 0, userinfo.stderr
    assert_no_raw_controls(userinfo.stdout)
    fault.token_behaviour = lambda form: Response(400, {"error": "invalid_request",
                                                        "error_description": "no\x1b]0;owned\x07\rforged\u202e"})
    refused = telenorid("refresh", *common)
    assert refused.returncode == 1 and "invalid_request" in refused.stderr, refused.stderr
    assert_no_raw_controls(refused.stderr)


def test_every_message_is_escaped_once_by_one_function():
    from telenorid.cli_settings import printable
    assert printable("a\x1bb\x00\x07\r\n\t\x7f\x85\x9b") == "a\\x1bb\\x00\\x07\\x0d\\x0a\\x09\\x7f\\x85\\x9b"
    assert printable("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029") == (
        "\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029")
    kept = "Åse Ødegård 😀 \u200d zero-width joiner, a\\x1b typed by hand"
    assert printable(kept) == kept
    assert printable(printable("\x1b\u202e")) == printable("\x1b\u202e")


# ---- a sign-out of the rotation journal's -------------------------------------------------------------------

def test_a_rotation_journal_sign_out_exits_3(fault, tmp_path):
    """A record whose last refresh was out when its process stopped (the journal's marker), refused by the
    provider: ROTATION_POSSIBLY_LOST, which is "sign in again" as AUTHORIZATION_LOST is (README: exit 3)."""
    state_file = tmp_path / "state.json"
    login(fault, state_file)
    record = the_record(state_file)
    kept = json.loads(record.read_text())
    kept["refresh_started_at"] = int(time.time()) - 60
    record.write_text(json.dumps(kept))
    fault.token_behaviour = lambda form: Response(400, {"error": "invalid_grant"})

    refreshed = telenorid("refresh", "--state-file", str(state_file))
    assert refreshed.returncode == 3, refreshed.stderr
    assert "telenorid login" in refreshed.stderr and "rotat" in refreshed.stderr, refreshed.stderr
    assert telenorid("token", "--state-file", str(state_file)).returncode == 3


# ---- a provider without a revocation endpoint ------------------------------------------------------------

NOT_REVOKED = "no revocation endpoint (RFC 7009)"
STAYS_VALID = "refresh token stays valid there until it expires"


def test_logout_without_a_revocation_endpoint_prints_the_end_session_url_and_signs_out(fault, tmp_path):
    fault.metadata_changes = {"revocation_endpoint": None, "end_session_endpoint": fault.issuer + "/logout"}
    state_file = tmp_path / "state.json"
    login(fault, state_file)

    logout = telenorid("logout", "--state-file", str(state_file))
    assert logout.returncode == 0, logout.stderr
    assert logout.stdout.startswith(fault.issuer + "/logout?") and "id_token_hint=" in logout.stdout, logout.stdout
    assert NOT_REVOKED in logout.stderr and STAYS_VALID in logout.stderr, logout.stderr
    assert not any(path.startswith("/revoke") for _, path in fault.requests)
    assert telenorid("token", "--state-file", str(state_file)).returncode == 3
    assert sorted(path.name for path in tmp_path.iterdir()) == [], "signed out here: nothing kept"

    login(fault, state_file)
    logout = telenorid("logout", "--json", "--state-file", str(state_file))
    assert logout.returncode == 0, logout.stderr
    document = json.loads(logout.stdout)
    assert document["revoked"] is False and document["signed_in"] is False
    assert document["end_session_url"].startswith(fault.issuer + "/logout?")


def test_revoke_without_a_revocation_endpoint_signs_out_here_and_says_so(fault, tmp_path):
    fault.metadata_changes = {"revocation_endpoint": None}
    state_file = tmp_path / "state.json"
    login(fault, state_file)

    revoked = telenorid("revoke", "--json", "--state-file", str(state_file))
    assert revoked.returncode == 0, revoked.stderr
    assert json.loads(revoked.stdout) == {"signed_in": False, "revoked": False}
    assert NOT_REVOKED in revoked.stderr and STAYS_VALID in revoked.stderr, revoked.stderr
    assert telenorid("token", "--state-file", str(state_file)).returncode == 3

    login(fault, state_file)
    [account] = json.loads(telenorid("accounts", "--json", "--state-file", str(state_file)).stdout)
    removed = telenorid("accounts", "--state-file", str(state_file), "remove", "--", account["id"])
    assert removed.returncode == 0, removed.stderr
    assert NOT_REVOKED in removed.stderr and STAYS_VALID in removed.stderr, removed.stderr
    assert telenorid("status", "--state-file", str(state_file)).returncode == 3


def test_revoke_with_a_revocation_endpoint_revokes(fault, tmp_path):
    state_file = tmp_path / "state.json"
    login(fault, state_file)
    fault.revocation_behaviour = lambda form: Response(200, b"")
    revoked = telenorid("revoke", "--json", "--state-file", str(state_file))
    assert revoked.returncode == 0, revoked.stderr
    assert json.loads(revoked.stdout) == {"signed_in": False, "revoked": True}
    assert [form["token"] for seen in fault.seen if seen.path == "/revoke" for form in [seen.form]] == ["rt-1"]
    assert "revoked at the provider" in revoked.stderr


def test_a_configuration_error_of_another_kind_is_not_taken_for_a_missing_endpoint(fault, tmp_path):
    """The revocation endpoint is there but the revocation fails: the error is reported (exit 1), not
    explained away as a provider that cannot revoke; the sign-in is gone here all the same."""
    state_file = tmp_path / "state.json"
    login(fault, state_file)
    fault.revocation_behaviour = lambda form: Response(400, {"error": "unsupported_token_type"})
    revoked = telenorid("revoke", "--state-file", str(state_file))
    assert revoked.returncode == 1 and "unsupported_token_type" in revoked.stderr, revoked.stderr
    assert NOT_REVOKED not in revoked.stderr
    assert telenorid("token", "--state-file", str(state_file)).returncode == 3


# ---- Ctrl-C after a refresh request left -------------------------------------------------------------------

def test_ctrl_c_after_the_refresh_request_left_finishes_it_and_saves_the_rotated_token(fault, tmp_path):
    """The provider rotates the refresh token for a request it has received: Ctrl-C then waits for the answer,
    says so, saves it, and exits 130; the next command carries on with the new tokens."""
    import signal
    import threading

    state_file = tmp_path / "state.json"
    login(fault, state_file)
    arrived = threading.Event()

    def late_rotation(form):
        arrived.set()
        time.sleep(1.5)
        return Response(body=fault.token_body(CLIENT_ID, None, access_token="at-2", refresh_token="rt-2", id_token=None))
    fault.token_behaviour = late_rotation
    process = subprocess.Popen([sys.executable, "-m", "telenorid", "refresh", "--state-file", str(state_file)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment())
    try:
        assert arrived.wait(30), "the refresh request never came"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "finishing the request already sent" in err, err
    assert "rt-2" in the_record(state_file).read_text()
    fault.token_behaviour = lambda form: Response(400, {"error": "invalid_grant"})
    token = telenorid("token", "--state-file", str(state_file))
    assert token.returncode == 0 and token.stdout.strip() == "at-2", token.stderr


# ---- what people read --------------------------------------------------------------------------------------

ISO_LOCAL = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"


def test_a_sign_in_without_an_id_token_says_the_user_is_not_named(fault, tmp_path):
    """Some providers' device grant sends no ID token: the sign-in names no user, and says so rather than
    "signed in as None"."""
    state_file = tmp_path / "state.json"
    # Without openid in the scope, as a device grant without OpenID Connect is.
    signed_in = login(fault, state_file, extra=("--scope", "profile"), id_token=None)
    assert "None" not in signed_in.stdout and "None" not in signed_in.stderr, signed_in
    assert f"signed in at {fault.issuer} (the provider sent no ID token, so the user is not named)" \
        in signed_in.stdout, signed_in.stdout
    status = telenorid("status", "--state-file", str(state_file))
    assert status.returncode == 0 and "None" not in status.stdout, status
    assert status.stdout.startswith(f"signed in at {fault.issuer} (the provider sent no ID token"), status.stdout
    assert json.loads(telenorid("status", "--json", "--state-file", str(state_file)).stdout)["subject"] is None


def test_expiry_is_local_iso_8601_with_the_seconds_left_and_json_keeps_numbers(fault, tmp_path):
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file)]
    login(fault, state_file, expires_in=3600)
    status = telenorid("status", *common)
    assert status.returncode == 0, status.stderr
    [line] = [line for line in status.stdout.splitlines() if line.startswith("access token")]
    found = re.fullmatch(rf"access token: expires ({ISO_LOCAL}) \(in ([\d,]+) s\)", line)
    assert found, line
    at, left = datetime.fromisoformat(found[1]), int(found[2].replace(",", ""))
    assert 3500 < left <= 3600 and "," in found[2] and abs(at.timestamp() - time.time() - left) <= 2
    assert at.utcoffset() == datetime.fromtimestamp(at.timestamp()).astimezone().utcoffset(), "local time"
    document = json.loads(telenorid("status", "--json", *common).stdout)
    assert isinstance(document["expires_at"], int) and isinstance(document["expires_in"], int)
    assert abs(document["expires_at"] - at.timestamp()) <= 1

    refreshed = telenorid("refresh", *common)
    assert refreshed.returncode == 0, refreshed.stderr
    assert re.search(rf"refreshed; the access token expires {ISO_LOCAL} \(in [\d,]+ s\)", refreshed.stderr), \
        refreshed.stderr
    assert "Unix time" not in refreshed.stderr + status.stdout

    login(fault, state_file, expires_in=1)
    time.sleep(2.2)
    expired = telenorid("status", *common)
    assert re.search(rf"access token: expired {ISO_LOCAL} \(\d+ s ago\): `telenorid token` refreshes it",
                     expired.stdout), expired.stdout


def test_revoke_keeps_the_settings_and_its_hint_signs_in_again(fault, tmp_path):
    """The settings are not secret: revoke keeps them, and the command its hints name signs in with them."""
    state_file = tmp_path / "state.json"
    settings = tmp_path / "state.settings.json"
    login(fault, state_file)
    fault.revocation_behaviour = lambda form: Response(200, b"")
    revoked = telenorid("revoke", "--state-file", str(state_file))
    assert revoked.returncode == 0, revoked.stderr
    assert settings.exists() and json.loads(settings.read_text())["issuer"] == fault.issuer
    hint = f"telenorid login --state-file {state_file}"
    assert f"`{hint}` signs in again" in revoked.stderr, revoked.stderr
    signed_out = telenorid("token", "--state-file", str(state_file))
    assert signed_out.returncode == 3 and f"sign in again with `{hint}`" in signed_out.stderr, signed_out.stderr

    again = login(fault, state_file, settings=False)  # the hint's command: no --issuer, no --client-id
    assert "signed in as account" in again.stderr and "--issuer is required" not in again.stderr
    assert telenorid("token", "--state-file", str(state_file)).returncode == 0
