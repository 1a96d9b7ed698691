"""One sign-in shared by several processes through the library's state file (telenorid_auth_state_bind_file),
against django-oauth-toolkit, which rotates refresh tokens and refuses a used one: processes refreshing at
the same moment each start from the file under its lock, so none redeems a refresh token another already
used, and the sign-in survives. The same processes without the file would race to redeem one token."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import telenorid

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "support" / "provider"))
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REDIRECT = "http://127.0.0.1:53682/callback"
PROCESSES = 4

# Each worker opens the shared file, waits for the go signal (a file appearing), refreshes, and prints the
# outcome: every process starts its refresh at about the same moment.
WORKER = r"""
import os, sys, time, telenorid
issuer, client_id, path, go = sys.argv[1:5]
config = telenorid.Config.from_settings(issuer=issuer, client_id=client_id, redirect_uri="http://127.0.0.1:53682/callback")
with telenorid.Client(config) as client:
    state = client.open_auth_state_file(path)
    while not os.path.exists(go):
        time.sleep(0.005)
    try:
        state.refresh()
        print("ok", state.fresh_access_token()[:6])
    except telenorid.TelenoridError as error:
        print(type(error).__name__, error.message)
"""


@pytest.fixture(scope="module")
def provider():
    with start_provider() as info:
        yield info


def signed_in_state(provider):
    config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                            redirect_uri=REDIRECT, scope="openid profile")
    client = telenorid.Client(config)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    return client, client.exchange_code(pending.handle_callback(redirect))


def run_workers(provider, path, tmp_path):
    go = tmp_path / "go"
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, provider["issuer"], provider["clients"]["public"]["client_id"],
                                 str(path), str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
               for _ in range(PROCESSES)]
    go.touch()
    outcomes = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        outcomes.append(out.strip())
    return outcomes


def test_processes_sharing_the_file_never_redeem_one_refresh_token_twice(provider, tmp_path):
    client, state = signed_in_state(provider)
    path = tmp_path / "state.json"
    state.bind_file(str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first_refresh_token = state.get("refresh_token")

    outcomes = run_workers(provider, path, tmp_path)
    assert all(outcome.startswith("ok") for outcome in outcomes), outcomes

    # This process still holds the first refresh token, long since rotated away. Its next refresh starts
    # from the file and takes the workers' newest tokens instead of sending its stale one, which the
    # provider would refuse; the one after that goes to the provider, which accepts it: the grant is alive.
    saved = json.loads(path.read_text())
    assert saved["refresh_token"] != first_refresh_token
    state.refresh()
    assert state.signed_in and state.get("refresh_token") == saved["refresh_token"]
    state.refresh()
    assert state.signed_in and state.get("refresh_token") != saved["refresh_token"]
    assert json.loads(path.read_text())["refresh_token"] == state.get("refresh_token")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    client.close()


def test_without_the_file_the_same_race_loses_the_grant(provider, tmp_path):
    """The control: copies restored from one saved state, refreshing each with the same refresh token. The
    provider accepts the first and refuses the others (invalid_grant): the race the file prevents."""
    client, state = signed_in_state(provider)
    saved = state.serialize()
    copies = [client.restore(saved) for _ in range(2)]
    copies[0].refresh()
    with pytest.raises(telenorid.AuthorizationLost):
        copies[1].refresh()
    client.close()
