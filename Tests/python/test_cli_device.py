"""`telenorid login --device` (RFC 8628) against django-oauth-toolkit, whose discovery document advertises no
device_authorization_endpoint: the failure names --device-authorization-endpoint; with it, --json writes the
code to enter as its first line, before the wait, then the sign-in's document as its second."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from browser import approve_device

ROOT = Path(__file__).resolve().parents[2]


def environment():
    return dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file")


def test_a_provider_without_a_device_endpoint_is_named_with_the_flag_that_gives_one(provider, tmp_path):
    run = subprocess.run([sys.executable, "-m", "telenorid", "login", "--device", "--issuer", provider["issuer"],
                          "--client-id", provider["clients"]["device_public"]["client_id"], "--json",
                          "--state-file", str(tmp_path / "state.json")],
                         capture_output=True, text=True, timeout=60, env=environment())
    assert run.returncode == 1, run.stderr
    message = run.stderr.splitlines()[-1]
    assert f"{provider['issuer']} advertises no device_authorization_endpoint" in message, run.stderr
    assert "--device-authorization-endpoint URL" in message and "RFC 8628" in message
    assert run.stdout == "" and "Traceback" not in run.stderr
    assert not (tmp_path / "state.json").exists()


def test_device_login_as_json_prints_the_code_first_then_the_sign_in(provider, tmp_path):
    """A script reads the first line while the command waits, shows the code, and reads the second at the end:
    one JSON object per line."""
    state_file = tmp_path / "state.json"
    process = subprocess.Popen([sys.executable, "-m", "telenorid", "login", "--device", "--json",
                                "--issuer", provider["issuer"], "--scope", "openid profile",
                                "--client-id", provider["clients"]["device_public"]["client_id"],
                                "--device-authorization-endpoint", provider["device_authorization_endpoint"],
                                "--state-file", str(state_file)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment())
    try:
        first = json.loads(process.stdout.readline())
        assert process.poll() is None, "the code comes before the wait ends"
        assert set(first) == {"user_code", "verification_uri", "verification_uri_complete", "expires_at", "interval"}
        assert first["verification_uri"] == provider["issuer"] + "/device/"
        assert first["verification_uri_complete"] == f"{first['verification_uri']}?user_code={first['user_code']}"
        assert first["expires_at"] > time.time() and first["interval"] == 1
        user = provider["user"]
        assert approve_device(first["verification_uri"], first["user_code"], user["username"],
                              user["password"]) == "Device Authorized"
        rest, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    [second] = rest.splitlines()
    document = json.loads(second)
    # django-oauth-toolkit sends no ID token for this grant: the status is the sign-in's document.
    assert document["signed_in"] is True and document["scopes"] == ["openid", "profile"]
    assert f"enter the code {first['user_code']}" in errors
