"""telenorid.postgres_store.PostgresStore against a real PostgreSQL server (Debian's, started by
Tests/support/postgres_server.py on 127.0.0.1): records round-trip, a lock held elsewhere costs the timeout
and no more, a killed holder's lock is free again at once; and processes sharing one expired grant through
it, against django-oauth-toolkit (which rotates refresh tokens), refresh it exactly once."""
import contextlib
import ctypes
import http.client
import http.server
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")

import telenorid  # noqa: E402
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402
from postgres_server import start_postgres  # noqa: E402
from telenorid.postgres_store import PostgresStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REDIRECT = "http://127.0.0.1:53682/callback"


@pytest.fixture(scope="module")
def postgres():
    with start_postgres() as info:
        PostgresStore(info["conninfo"]).create_table()
        yield info


@pytest.fixture
def store(postgres):
    with PostgresStore(postgres["conninfo"]) as store:
        yield store


def test_records_round_trip(store, postgres):
    assert store.load("absent") is None
    data = bytes(range(256)) + b'{"refresh_token": "r-1"}'
    store.store("alice", data)
    assert store.load("alice") == data
    store.store("alice", b"second")
    assert store.load("alice") == b"second"
    with PostgresStore(postgres["conninfo"]) as other:  # another process's view: one row, the newest data
        assert other.load("alice") == b"second"
    with psycopg.connect(postgres["conninfo"]) as connection:
        assert connection.execute("SELECT count(*) FROM telenorid_records WHERE key = 'alice'").fetchone() == (1,)


def test_a_connection_the_server_dropped_is_replaced(postgres, store):
    """A database restart or failover drops the connections: the next call opens a new one."""
    store.store("dropped", b"before")
    assert store.lock("dropped", 1.0)
    with psycopg.connect(postgres["conninfo"], autocommit=True) as admin:
        dropped = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
    assert len(dropped) == 2  # the store's data connection and its lock's
    assert store.load("dropped") == b"before"
    store.store("dropped", b"after")
    assert store.load("dropped") == b"after"
    store.unlock("dropped")  # its lock went with its connection: released all the same
    assert store.lock("dropped", 1.0)  # on a new connection
    store.unlock("dropped")


def test_a_separate_table(postgres):
    with PostgresStore(postgres["conninfo"], table="other_records") as store:
        store.create_table()
        store.store("k", b"v")
        assert store.load("k") == b"v"
    with PostgresStore(postgres["conninfo"]) as default:
        assert default.load("k") is None
    with pytest.raises(ValueError):
        PostgresStore(postgres["conninfo"], table="records; DROP TABLE x")


def test_a_held_lock_costs_the_timeout_then_is_free_after_unlock(postgres, store):
    with PostgresStore(postgres["conninfo"]) as other:
        assert other.lock("grant", 1.0)
        started = time.monotonic()
        assert store.lock("grant", 0.4) is False
        waited = time.monotonic() - started
        assert 0.35 < waited < 2, waited
        assert store.lock("grant", 0) is False  # no wait at all
        # The update lock is another lock: a sign-out takes it while a refresh holds "grant".
        assert store.lock("grant.update", 0.4)
        store.store("grant", b"signed out")  # a write while another holds the exclusive lock does not wait
        store.unlock("grant.update")
        other.unlock("grant")
        assert store.lock("grant", 0.4)
        store.unlock("grant")
    with pytest.raises(RuntimeError):
        store.unlock("grant")


def test_threads_of_one_store_exclude_each_other(store):
    assert store.lock("threads", 1.0)
    outcome = []
    waiter = threading.Thread(target=lambda: outcome.append(store.lock("threads", 5.0)))
    waiter.start()
    time.sleep(0.3)
    assert outcome == []  # waiting for this thread's lock
    store.unlock("threads")
    waiter.join(5)
    assert outcome == [True]
    store.unlock("threads")


HOLD = r"""
import sys, time
from telenorid.postgres_store import PostgresStore
store = PostgresStore(sys.argv[1])
assert store.lock("held", 1.0)
print("locked", flush=True)
time.sleep(120)
"""


def test_a_killed_holder_releases_its_lock(postgres, store):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    holder = subprocess.Popen([sys.executable, "-c", HOLD, postgres["conninfo"]], stdout=subprocess.PIPE, text=True,
                              env=environment)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert store.lock("held", 0.3) is False
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        started = time.monotonic()
        assert store.lock("held", 5.0), "the killed holder's lock was never released"
        assert time.monotonic() - started < 5
        store.unlock("held")
    finally:
        holder.kill()
        holder.wait()


# ---- network namespaces: "hosts" of their own ---------------------------------------------------------------

CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def _pipe(source, sink, done):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
        done()


class Namespace:
    """A network namespace of its own (`unshare -n`): a host with nothing but its loopback, where the given
    ports of 127.0.0.1 reach this host's 127.0.0.1 through a relay in the test process (each connection
    relayed as a connection: one that closes in the namespace, as a killed process's does, closes here)."""

    def __init__(self, ports):
        self.holder = subprocess.Popen(["unshare", "-n", "sh", "-c", "ip link set lo up && echo up && exec sleep 600"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if self.holder.stdout is None or self.holder.stdout.readline().strip() != "up":
            self.holder.kill()
            raise OSError(f"unshare -n failed: {self.holder.communicate()[1].strip()}")
        self.path = f"/proc/{self.holder.pid}/ns/net"
        self.listeners = self._listen_inside(ports)
        for port, listener in self.listeners:
            threading.Thread(target=self._relay, args=(listener, port), daemon=True).start()

    def _listen_inside(self, ports):
        # A socket belongs to the namespace of the thread that creates it: a thread enters the namespace
        # (setns(2) changes the calling thread only), makes the listening sockets, and comes back.
        made, failed = [], []

        def inside():
            own, target = os.open("/proc/thread-self/ns/net", os.O_RDONLY), os.open(self.path, os.O_RDONLY)
            try:
                if _libc.setns(target, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns")
                try:
                    for port in ports:
                        listener = socket.socket()
                        listener.bind(("127.0.0.1", port))
                        listener.listen(64)
                        made.append((port, listener))
                finally:
                    if _libc.setns(own, CLONE_NEWNET) != 0:
                        os._exit(70)  # a test thread stranded in the namespace: stop rather than mislead
            except OSError as error:
                failed.append(error)
            finally:
                os.close(own)
                os.close(target)

        thread = threading.Thread(target=inside)
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        return made

    def _relay(self, listener, port):
        while True:
            try:
                inside, _ = listener.accept()
            except OSError:
                return
            try:
                outside = socket.create_connection(("127.0.0.1", port), timeout=10)
            except OSError:
                inside.close()
                continue
            outside.settimeout(None)
            left = [2]
            lock = threading.Lock()

            def done(inside=inside, outside=outside, left=left, lock=lock):
                with lock:
                    left[0] -= 1
                    if left[0] == 0:
                        inside.close()
                        outside.close()

            threading.Thread(target=_pipe, args=(inside, outside, done), daemon=True).start()
            threading.Thread(target=_pipe, args=(outside, inside, done), daemon=True).start()

    def command(self, argv):
        return ["nsenter", f"--net={self.path}", *argv]

    def close(self):
        for _, listener in self.listeners:
            listener.close()
        self.holder.kill()
        self.holder.wait()


# ---- one grant shared by processes through the store -------------------------------------------------------

ACCESS_TOKEN_SECONDS = 10  # the provider's access token lifetime: short, so the test waits it out
REFRESH_MARGIN_S = 3  # below it, so a refreshed token is fresh for the 7 s after the one refresh
WORKERS = 8

# Each worker opens the shared record, says so, waits for the go signal (a file appearing), asks for a fresh
# access token (or refreshes first, with "refresh"), and prints the outcome with a digest of the token
# (never the token).
WORKER = r"""
import hashlib, os, sys, time, telenorid
from telenorid.postgres_store import PostgresStore
issuer, client_id, token_endpoint, conninfo, key, go, call = sys.argv[1:8]
config = telenorid.Config.from_settings(issuer=issuer, client_id=client_id, token_endpoint=token_endpoint,
                                        refresh_margin_s=int(os.environ["REFRESH_MARGIN_S"]))
with PostgresStore(conninfo) as store, telenorid.Client(config) as client:
    state = client.open_store(store, key)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.002)
    try:
        if call == "refresh":
            state.refresh()
        token = state.fresh_access_token()
        print("ok", state.signed_in, hashlib.sha256(token.encode()).hexdigest()[:16], flush=True)
    except telenorid.TelenoridError as error:
        print(type(error).__name__, state.signed_in, error.message, flush=True)
"""


class CountingGateway:
    """A gateway in front of the provider's token endpoint (the library sends nothing on loopback through a
    proxy): records the refresh token of each refresh grant that comes in, and passes the requests on; with
    `hold` set, it keeps the next refresh request (never passing it on) until `release` is set."""

    def __init__(self, token_endpoint):
        self.target = urllib.parse.urlsplit(token_endpoint)
        self.refresh_tokens = []  # every refresh grant's refresh token that came in
        self.statuses = []  # the provider's status for each refresh grant passed on
        self.hold, self.held, self.release = False, threading.Event(), threading.Event()
        gateway = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                form = urllib.parse.parse_qs(body.decode())
                refresh = form.get("grant_type") == ["refresh_token"]
                if refresh:
                    gateway.refresh_tokens.append(form.get("refresh_token", [""])[0])
                    if gateway.hold:
                        gateway.hold = False
                        gateway.held.set()
                        gateway.release.wait(60)
                        return  # dropped: the provider never sees it
                headers = {name: value for name, value in self.headers.items()
                           if name.lower() not in ("host", "connection")}
                upstream = http.client.HTTPConnection(gateway.target.hostname, gateway.target.port, timeout=30)
                upstream.request("POST", gateway.target.path, body=body, headers=headers)
                response = upstream.getresponse()
                data = response.read()
                if refresh:
                    gateway.statuses.append(response.status)
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


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    """django-oauth-toolkit with short-lived access tokens; "tmp" is where it keeps its database."""
    provider_tmp = tmp_path_factory.mktemp("provider")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(provider_tmp))  # the provider's working directory goes there
        with start_provider(access_token_seconds=ACCESS_TOKEN_SECONDS) as info:
            patch.delenv("TMPDIR")
            yield dict(info, tmp=provider_tmp)


@pytest.fixture
def gateway(provider):
    with urllib.request.urlopen(provider["issuer"] + "/.well-known/openid-configuration", timeout=10) as response:
        gateway = CountingGateway(json.load(response)["token_endpoint"])
    yield gateway
    gateway.close()


def refresh_tokens_issued(provider):
    """The rows of django-oauth-toolkit's refresh token table (one per sign-in and one per refresh), and how
    many were revoked (rotated away by a refresh)."""
    (database,) = provider["tmp"].glob("telenorid-provider-*/db.sqlite3")
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*), count(revoked) FROM oauth2_provider_refreshtoken").fetchone()


def sign_in(provider, postgres, key):
    """Signs in and keeps the state in record `key`; the refresh token and when the access token was issued."""
    config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                            redirect_uri=REDIRECT, scope="openid profile")
    with PostgresStore(postgres["conninfo"]) as store, telenorid.Client(config) as client:
        pending = telenorid.AuthorizationRequest(client.config()).build()
        redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
        state = client.exchange_code(pending.handle_callback(redirect))
        signed_in_at = time.monotonic()
        state.bind_store(store, key)
        return state.get("refresh_token"), signed_in_at


def hosts(*ports):
    """Two network namespaces standing for two hosts that reach the provider, the gateway and the database
    at these ports; none where namespaces can't be made here (no CAP_SYS_ADMIN, no unshare): the workers
    are then plain processes on this host."""
    made = []
    try:
        for _ in range(2):
            made.append(Namespace(ports))
    except OSError as error:
        for namespace in made:
            namespace.close()
        print(f"no network namespaces ({error}): {WORKERS} plain processes")
        return []
    print(f"{WORKERS} processes in 2 network namespaces")
    return made


def worker_command(provider, gateway, postgres, key, go, call="fresh_access_token"):
    return [sys.executable, "-c", WORKER, provider["issuer"], provider["clients"]["public"]["client_id"], gateway.url,
            postgres["conninfo"], key, str(go), call]


WORKER_ENVIRONMENT = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), REFRESH_MARGIN_S=str(REFRESH_MARGIN_S))


def test_processes_sharing_one_expired_grant_refresh_it_once(postgres, provider, gateway, tmp_path):
    """8 processes on two "hosts" (network namespaces; plain processes where they can't be made), each with
    its own connections, open one record whose access token expired and ask for a fresh one at once (a
    barrier: a file appearing): the provider sees exactly one refresh, every process gets the same new
    access token and stays signed in, and no refresh token reaches the provider twice."""
    issued = refresh_tokens_issued(provider)
    first_refresh_token, signed_in_at = sign_in(provider, postgres, "alice")
    assert refresh_tokens_issued(provider) == (issued[0] + 1, issued[1])

    go = tmp_path / "go"
    namespaces = hosts(provider["port"], gateway.server.server_address[1], postgres["port"])
    command = worker_command(provider, gateway, postgres, "alice", go)
    workers = [subprocess.Popen(namespaces[n % len(namespaces)].command(command) if namespaces else command,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=WORKER_ENVIRONMENT)
               for n in range(WORKERS)]
    try:
        for worker in workers:
            assert worker.stdout is not None and worker.stdout.readline().strip() == "ready", worker.stderr.read()
        # Go once the access token has expired (not only entered the refresh margin).
        time.sleep(max(0.0, signed_in_at + ACCESS_TOKEN_SECONDS + 0.5 - time.monotonic()))
        go.touch()
        outcomes = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            outcomes.append(out.strip())
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
        for namespace in namespaces:
            namespace.close()

    assert all(outcome.startswith("ok True ") for outcome in outcomes), outcomes
    assert len({outcome.split()[2] for outcome in outcomes}) == 1, outcomes  # one access token for all
    assert gateway.refresh_tokens == [first_refresh_token] and gateway.statuses == [200], gateway.statuses
    assert refresh_tokens_issued(provider) == (issued[0] + 2, issued[1] + 1)  # the sign-in's, rotated once


def test_a_process_killed_in_its_refresh_frees_the_grant_for_the_next(postgres, provider, gateway, tmp_path):
    """A process is killed while its refresh is out (held at the gateway, never reaching the provider),
    holding the record's exclusive lock: the lock is free at once, and the next process's refresh goes
    through with the same refresh token, which the provider then sees once; nobody is signed out."""
    first_refresh_token, _ = sign_in(provider, postgres, "bob")
    go = tmp_path / "go"
    go.touch()
    gateway.hold = True
    killed = subprocess.Popen(worker_command(provider, gateway, postgres, "bob", go, call="refresh"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=WORKER_ENVIRONMENT)
    try:
        assert gateway.held.wait(60), "the refresh never reached the gateway"
        with PostgresStore(postgres["conninfo"]) as store:
            assert store.lock("bob", 0.2) is False  # the refresh holds it across its round trip
            killed.send_signal(signal.SIGKILL)
            killed.wait()
            started = time.monotonic()
            assert store.lock("bob", 5.0), "the killed process's lock was never released"
            assert time.monotonic() - started < 5
            store.unlock("bob")
    finally:
        killed.kill()
        killed.wait()
        gateway.release.set()
    following = subprocess.run(worker_command(provider, gateway, postgres, "bob", go, call="refresh"),
                               capture_output=True, text=True, env=WORKER_ENVIRONMENT, timeout=120)
    assert following.returncode == 0, following.stderr
    assert following.stdout.splitlines()[1].startswith("ok True "), following.stdout
    assert gateway.refresh_tokens == [first_refresh_token, first_refresh_token] and gateway.statuses == [200]
