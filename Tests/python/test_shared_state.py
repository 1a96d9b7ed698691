"""One sign-in shared by several processes through the library's state file (telenorid_auth_state_bind_file),
against django-oauth-toolkit, which rotates refresh tokens and refuses a used one: processes refreshing at
the same moment each start from the file under its lock, so none redeems a refresh token another already
used, and the sign-in survives. The same processes without the file would race to redeem one token."""
import http.client
import http.server
import json
import os
import stat
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

import telenorid

from browser import complete_login  # noqa: E402

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


def signed_in_state(provider):
    config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                            redirect_uri=REDIRECT, scope="openid profile",
                                            revocation_endpoint=provider["issuer"] + "/revoke_token/")
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


# A state file written by hand, as a bound state would write it, for tests that never reach a provider: the
# issuer is a loopback port nothing listens on.
OFFLINE_ISSUER = "http://127.0.0.1:9"
OFFLINE_CLIENT = "shared-state-test"


def offline_state_file(path, **members):
    document = dict(version=1, issuer=OFFLINE_ISSUER, client_id=OFFLINE_CLIENT, access_token="access-0",
                    token_type="Bearer", expires_at=1, refresh_token="refresh-0")
    document.update(members)
    path.write_text(json.dumps(document))
    path.chmod(0o600)


def offline_client(**settings):
    return telenorid.Client(telenorid.Config.from_settings(issuer=OFFLINE_ISSUER, client_id=OFFLINE_CLIENT,
                                                           redirect_uri=REDIRECT, **settings))


OPEN_FILE = r"""
import sys, telenorid
config = telenorid.Config.from_settings(issuer=sys.argv[1], client_id=sys.argv[2], redirect_uri="http://127.0.0.1:53682/callback")
with telenorid.Client(config) as client:
    try:
        client.open_auth_state_file(sys.argv[3])
        print("opened")
    except telenorid.TelenoridError as error:
        print(type(error).__name__, error.message)
"""


@pytest.mark.parametrize("where", ["state", "lock"])
def test_a_fifo_at_the_state_or_lock_path_is_refused_at_once(tmp_path, where):
    """Opening a FIFO for reading blocks until a writer comes: a FIFO planted at the state path, or at its
    lock, must be refused instead of hanging every process that opens the state (in a child process, which
    the test can kill if it hangs)."""
    path = tmp_path / "state.json"
    os.mkfifo(tmp_path / ("state.json" if where == "state" else "state.json.lock"))
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", OPEN_FILE, OFFLINE_ISSUER, OFFLINE_CLIENT, str(path)],
                              capture_output=True, text=True, env=environment, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail(f"open_auth_state_file blocked on a FIFO at the {where} path")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ConfigurationError") and "not a regular file" in done.stdout, done.stdout
    assert time.monotonic() - started < 10


def test_a_directory_or_symbolic_link_at_the_state_path_is_refused(tmp_path):
    (tmp_path / "state.json").mkdir()
    with offline_client() as client, pytest.raises(telenorid.ConfigurationError, match="not a regular file"):
        client.open_auth_state_file(str(tmp_path / "state.json"))
    offline_state_file(tmp_path / "real.json")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    with offline_client() as client, pytest.raises(telenorid.ConfigurationError, match="symbolic link"):
        client.open_auth_state_file(str(tmp_path / "link.json"))


HOLD_LOCKS = r"""
import fcntl, os, sys, time
locks = [open(path, "a+") for path in sys.argv[1:]]
for lock in locks:
    fcntl.flock(lock, fcntl.LOCK_EX)
    # As the library's holders do: the pid, for a process that gives up waiting to name.
    lock.seek(0); lock.truncate(); lock.write(f"{os.getpid()}\n"); lock.flush()
print("locked", flush=True)
time.sleep(60)
"""


def test_the_wait_for_the_lock_is_bounded_by_the_timeout(tmp_path):
    """A process that holds the locks and never lets go (stopped in a debugger, say) costs the others the
    configured timeout, then a transient status naming the lock and its holder; nothing is lost. A refresh
    waits for the exclusive lock, a sign-out for the update lock only."""
    path = tmp_path / "state.json"
    offline_state_file(path)
    saved = path.read_bytes()
    with offline_client(timeout_ms=400) as client:
        state = client.open_auth_state_file(str(path))
        holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCKS, str(path) + ".lock", str(path) + ".update.lock"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            started = time.monotonic()
            with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
                state.refresh()
            waited = time.monotonic() - started
            assert 0.35 < waited < 3, waited
            assert str(path) + ".lock" in caught.value.message and f"process {holder.pid}" in caught.value.message
            assert telenorid.status_is_transient(caught.value.status)
            with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
                state.revoke()
            assert str(path) + ".update.lock" in caught.value.message and f"process {holder.pid}" in caught.value.message
        finally:
            holder.kill()
            holder.wait()
        assert state.signed_in and state.get("refresh_token") == "refresh-0"
        assert path.read_bytes() == saved
        # The lock free again, the refresh goes out (and finds no provider there). The rotation journal wrote
        # its marker and, the request never sent, cleared it: the same state, as the library writes it.
        with pytest.raises(telenorid.TransportError):
            state.refresh()
        assert state.signed_in and json.loads(path.read_bytes()) == json.loads(saved)


@pytest.mark.parametrize("member", [dict(client_id="another-client"), dict(issuer="http://127.0.0.1:10")])
def test_a_state_saved_for_another_client_is_never_taken_up(tmp_path, member):
    """Another client's state in the file (a misconfigured second app, a file copied over): the re-read
    under the lock refuses it as restoring it would, so its refresh token never reaches this client's token
    endpoint (refused before any request: a request would fail with a transport error here), and neither
    the state nor the file changes."""
    path = tmp_path / "state.json"
    offline_state_file(path)
    with offline_client() as client:
        state = client.open_auth_state_file(str(path))
        offline_state_file(path, access_token="their-access", refresh_token="their-refresh", **member)
        saved = path.read_bytes()
        for call in (state.refresh, state.revoke):
            with pytest.raises(telenorid.ConfigurationError, match="another issuer or client id"):
                call()
            assert state.signed_in and state.get("refresh_token") == "refresh-0"
            assert path.read_bytes() == saved



# One refresh by another process, at `token_endpoint` when one is given.
REFRESH_ONCE = r"""
import sys, telenorid
issuer, client_id, path, token_endpoint = sys.argv[1:5]
settings = dict(issuer=issuer, client_id=client_id, redirect_uri="http://127.0.0.1:53682/callback",
                revocation_endpoint=issuer + "/revoke_token/", token_endpoint=token_endpoint or None)
with telenorid.Client(telenorid.Config.from_settings(**settings)) as client:
    state = client.open_auth_state_file(path)
    try:
        state.refresh()
        print("ok", state.signed_in)
    except telenorid.TelenoridError as error:
        print(type(error).__name__, state.signed_in, error.message)
"""


def refresh_elsewhere(provider, path, token_endpoint=""):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    return subprocess.Popen([sys.executable, "-c", REFRESH_ONCE, provider["issuer"], provider["clients"]["public"]["client_id"],
                             str(path), token_endpoint], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environment)


def outcome_of(worker):
    out, err = worker.communicate(timeout=120)
    assert worker.returncode == 0, err
    return out.strip()


def refused_at_the_provider(client, saved, **tokens):
    """Whether the provider refuses the refresh token of `saved` (with `tokens` in place of its own)."""
    document = dict(saved, **tokens)
    try:
        client.restore(json.dumps(document)).refresh()
    except telenorid.AuthorizationLost:
        return True
    return False


def test_revoke_revokes_what_the_file_holds_not_what_this_process_last_saw(provider, tmp_path):
    client, state = signed_in_state(provider)
    path = tmp_path / "state.json"
    state.bind_file(str(path))
    assert outcome_of(refresh_elsewhere(provider, path)) == "ok True"
    live = json.loads(path.read_text())
    assert live["refresh_token"] != state.get("refresh_token")  # this process still holds the rotated-away one

    state.revoke()
    assert not state.signed_in and "refresh_token" not in json.loads(path.read_text())
    assert refused_at_the_provider(client, live), "the live refresh token survived the revocation"
    client.close()


class HoldingGateway:
    """A gateway in front of the provider's token endpoint for the other process (the library sends
    nothing on loopback through a proxy): it passes each request on at once, and holds the provider's
    answer to a refresh until released, so that the refresh is answered at the provider but not yet
    landed in the process that sent it."""

    def __init__(self, token_endpoint):
        self.target = urllib.parse.urlsplit(token_endpoint)
        self.refresh_answered = threading.Event()
        self.release = threading.Event()
        self.answers = []
        gateway = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "connection")}
                upstream = http.client.HTTPConnection(gateway.target.hostname, gateway.target.port, timeout=30)
                upstream.request("POST", gateway.target.path, body=body, headers=headers)
                response = upstream.getresponse()
                data = response.read()
                if b"grant_type=refresh_token" in body:
                    gateway.answers.append(json.loads(data))
                    gateway.refresh_answered.set()
                    gateway.release.wait(60)
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in ("connection", "content-length", "transfer-encoding"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{self.target.path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_sign_out_recorded_while_another_process_refreshes_wins(provider, tmp_path):
    """This process signs out (revokes) while another's refresh is out: the sign-out does not wait for it,
    and the other process, re-reading the file before it keeps its refresh, finds the sign-out there:
    it revokes the tokens it got, keeps none, and reports not signed in."""
    client, state = signed_in_state(provider)
    path = tmp_path / "state.json"
    state.bind_file(str(path))
    before = json.loads(path.read_text())
    with urllib.request.urlopen(provider["issuer"] + "/.well-known/openid-configuration", timeout=10) as response:
        gateway = HoldingGateway(json.load(response)["token_endpoint"])
    try:
        worker = refresh_elsewhere(provider, path, gateway.url)
        assert gateway.refresh_answered.wait(60), "the other process's refresh never reached the provider"
        signed_out = threading.Event()
        revoking = threading.Thread(target=lambda: (state.revoke(), signed_out.set()))
        revoking.start()
        revoking.join(10)
        assert signed_out.is_set(), "the sign-out waited for the other process's refresh"
    finally:
        gateway.release.set()
    outcome = outcome_of(worker)
    revoking.join(30)
    gateway.close()
    assert outcome.startswith("NotSignedInError False"), outcome
    assert not state.signed_in and "refresh_token" not in json.loads(path.read_text())
    fetched = gateway.answers[0]
    assert refused_at_the_provider(client, before, access_token=fetched["access_token"],
                                   refresh_token=fetched["refresh_token"]), "the other process kept its refresh alive"
    client.close()
