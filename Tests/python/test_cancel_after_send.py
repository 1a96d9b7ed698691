"""A cancel that comes after a token request left, at a provider that rotates refresh tokens: the refresh (or
code exchange) is finished, its answer kept (and saved), then CancelledError is raised; and a state whose store
refused a refresh's tokens writes them when the host calls save(). Against the fault provider, whose token
endpoint answers late here.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import threading
import time

import pytest

import telenorid

from background_call import run_in_thread  # noqa: E402
from fault_provider import Response  # noqa: E402

CLIENT = "fault-client"
REDIRECT = "http://127.0.0.1:53682/callback"


pytestmark = pytest.mark.provider("fault")


@pytest.fixture
def client(provider):
    config = telenorid.Config.from_settings(issuer=provider.issuer, client_id=CLIENT, redirect_uri=REDIRECT,
                                            timeout_ms="10000")
    with telenorid.Client(config) as client:
        yield client


class DictStore(telenorid.Store):
    """A host's store in memory that refuses writes while `fail` is set."""

    def __init__(self):
        self.records = {}
        self.locks = {}
        self.guard = threading.Lock()
        self.fail = False

    def load(self, key):
        return self.records.get(key)

    def store(self, key, data):
        if self.fail:
            raise OSError("disk full")
        self.records[key] = bytes(data)

    def lock(self, name, timeout_s):
        with self.guard:
            lock = self.locks.setdefault(name, threading.Lock())
        return lock.acquire(timeout=timeout_s)

    def unlock(self, name):
        self.locks[name].release()


def signed_in(client, provider):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    provider.token_behaviour = lambda form: Response(body=provider.token_body(CLIENT, pending.nonce))
    return client.exchange_code(callback)


def rotating_late(provider, seconds, refresh_token="rt-2", before_answer=None):
    """The token endpoint answers a refresh after `seconds` with a rotated refresh token; `arrived` is set
    when the request has been read."""
    arrived = threading.Event()

    def answer(form):
        arrived.set()
        time.sleep(seconds)
        if before_answer:
            before_answer()
        return Response(body=provider.token_body(CLIENT, None, access_token="at-2", refresh_token=refresh_token,
                                                 id_token=None))
    provider.token_behaviour = answer
    return arrived


def test_a_refresh_cancelled_after_its_request_left_keeps_and_saves_the_rotated_token(client, provider, tmp_path):
    store = telenorid.DirectoryStore(str(tmp_path))
    state = signed_in(client, provider)
    state.bind_store(store, "alice")
    arrived = rotating_late(provider, 0.8)
    join = run_in_thread(state.refresh)
    assert arrived.wait(5)
    cancelled = time.monotonic()
    client.cancel()
    error, ended = join()
    assert isinstance(error, telenorid.CancelledError), error
    assert "kept" in error.message
    assert ended - cancelled > 0.4, "the answer was awaited"
    assert state.get("refresh_token") == "rt-2" and state.get("access_token") == "at-2"
    # Saved: another process opening the record carries on with the rotated token.
    with telenorid.Client(telenorid.Config.from_settings(issuer=provider.issuer, client_id=CLIENT,
                                                         redirect_uri=REDIRECT)) as other:
        assert other.open_store(store, "alice").get("refresh_token") == "rt-2"


def test_a_code_exchange_cancelled_after_the_code_left_keeps_its_state_for_the_callback(client, provider):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    arrived = threading.Event()

    def answer(form):
        arrived.set()
        time.sleep(0.8)
        return Response(body=provider.token_body(CLIENT, pending.nonce))
    provider.token_behaviour = answer
    sent_before = sum(1 for method, path in provider.requests if path == "/token")
    join = run_in_thread(lambda: client.exchange_code(callback))
    assert arrived.wait(5)
    client.cancel()
    error, _ = join()
    assert isinstance(error, telenorid.CancelledError), error
    provider.token_behaviour = lambda form: Response(400, {"error": "invalid_grant"})
    state = client.exchange_code(callback)  # the kept state, no second request
    assert state.signed_in and state.get("refresh_token") == "rt-1"
    assert sum(1 for method, path in provider.requests if path == "/token") == sent_before + 1
    with pytest.raises(telenorid.ConsumedError):
        client.exchange_code(callback)


def test_a_failing_store_then_save_writes_the_kept_tokens(client, provider):
    store = DictStore()
    state = signed_in(client, provider)
    state.bind_store(store, "alice")

    def store_fails():
        store.fail = True
    rotating_late(provider, 0.0, before_answer=store_fails)
    with pytest.raises(telenorid.StoreFailedError):
        state.refresh()
    assert state.get("refresh_token") == "rt-2"
    assert b"refresh_started_at" in store.records["alice"]
    with pytest.raises(telenorid.StoreFailedError, match="disk full"):
        state.save()
    store.fail = False
    state.save()
    assert b"rt-2" in store.records["alice"] and b"refresh_started_at" not in store.records["alice"]


def test_save_needs_a_bound_state(client, provider):
    state = signed_in(client, provider)
    with pytest.raises(telenorid.InvalidArgumentError, match="bound to no store"):
        state.save()
