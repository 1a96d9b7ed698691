"""Auth states kept in a store (telenorid.Store, telenorid.DirectoryStore), against django-oauth-toolkit, which
rotates refresh tokens (ROTATE_REFRESH_TOKEN in Tests/support/provider/oidc_provider.py) and refuses a used
one: threads and processes sharing a record refresh once between them; a store that fails raises
StoreFailedError with nothing changed; a process killed after the provider answered a refresh leaves the next
one RotationPossiblyLostError instead of a plain AuthorizationLostError."""
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import telenorid

from browser import complete_login  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REDIRECT = "http://127.0.0.1:53682/callback"
PROCESSES = 4


class DictStore(telenorid.Store):
    """A host's store in memory: records in a dict, one threading lock per name."""

    def __init__(self):
        self.records = {}
        self.locks = {}
        self.guard = threading.Lock()
        self.fail = None

    def load(self, key):
        if self.fail == "load":
            raise OSError("the keychain is locked")
        return self.records.get(key)

    def store(self, key, data):
        if self.fail == "store":
            raise OSError("disk full")
        self.records[key] = bytes(data)

    def lock(self, name, timeout_s):
        with self.guard:
            lock = self.locks.setdefault(name, threading.Lock())
        return lock.acquire(timeout=timeout_s)

    def unlock(self, name):
        self.locks[name].release()


# A host's store in files, shared by processes: records as files, locks as flock()s. With TELENORID_KILL_AFTER
# set, the process kills itself (SIGKILL, no clean-up) at the first write of a record without the rotation
# journal's marker after the marker was written: the write of the provider's answer, which never happens.
FILE_STORE = r"""
import fcntl, os, signal, telenorid

class FileStore(telenorid.Store):
    def __init__(self, directory):
        self.directory = directory
        self.held = {}
        self.marked = False

    def load(self, key):
        try:
            with open(os.path.join(self.directory, key), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def store(self, key, data):
        if b"refresh_started_at" in data:
            self.marked = True
        elif self.marked and os.environ.get("TELENORID_KILL_AFTER"):
            os.kill(os.getpid(), signal.SIGKILL)
        path = os.path.join(self.directory, key)
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)

    def lock(self, name, timeout_s):
        f = open(os.path.join(self.directory, name + ".lock"), "a")
        fcntl.flock(f, fcntl.LOCK_EX)
        self.held[name] = f
        return True

    def unlock(self, name):
        self.held.pop(name).close()
"""

WORKER = FILE_STORE + r"""
import hashlib, sys, time
issuer, client_id, directory, go, kind = sys.argv[1:6]
# The directory workers take the access token as expired once it is 5 s old (the provider's last 300 s).
config = telenorid.Config.from_settings(issuer=issuer, client_id=client_id, redirect_uri="http://127.0.0.1:53682/callback",
                                        refresh_margin_s=295 if kind == "directory" else 60)
with telenorid.Client(config) as client:
    store = telenorid.DirectoryStore(directory) if kind == "directory" else FileStore(directory)
    state = client.open_store(store, "alice")
    while not os.path.exists(go):
        time.sleep(0.005)
    try:
        if kind == "directory":
            state.fresh_access_token()
        else:
            state.refresh()
        print("ok", hashlib.sha256(state.get("access_token").encode()).hexdigest())
    except telenorid.TelenoridError as error:
        print(type(error).__name__, error.message)
"""


def client_for(provider):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT,
        scope="openid profile"))


def signed_in_state(client, provider):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    return client.exchange_code(pending.handle_callback(redirect))


def run_workers(provider, directory, tmp_path, kind, count, go_at=0.0, **environment):
    """Starts `count` workers, lets them go together (at time.monotonic() `go_at`), and gives their outcomes."""
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), **environment)
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, provider["issuer"],
                                 provider["clients"]["public"]["client_id"], str(directory), str(go), kind],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
               for _ in range(count)]
    time.sleep(max(0.0, go_at - time.monotonic()))
    go.touch()
    outcomes = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        outcomes.append((worker.returncode, out.strip(), err))
    go.unlink()
    return outcomes


def test_threads_sharing_a_record_of_a_host_store_refresh_once(provider):
    with client_for(provider) as client:
        store = DictStore()
        state = signed_in_state(client, provider)
        original = state.serialize()
        state.bind_store(store, "alice")
        states = [client.open_store(store, "alice") for _ in range(8)]
        tokens, errors = [], []

        def refresh(each):
            try:
                each.refresh()
                tokens.append(each.get("access_token"))
            except telenorid.TelenoridError as error:
                errors.append(error)

        threads = [threading.Thread(target=refresh, args=(each,)) for each in states]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # One refresh: each refresh brings a new access token, and a second one would have had to redeem a
        # refresh token django rotated away (the copy below shows it refuses that).
        assert not errors and len(tokens) == 8 and len(set(tokens)) == 1
        assert tokens[0] != json.loads(original)["access_token"]
        record = json.loads(store.records["alice"])
        assert record["access_token"] == tokens[0] and "refresh_started_at" not in record
        with pytest.raises(telenorid.AuthorizationLostError):
            client.restore(original).refresh()


def test_processes_sharing_a_directory_store_refresh_one_expired_grant_once(provider, tmp_path):
    with client_for(provider) as client:
        state = signed_in_state(client, provider)
        signed_in_at = time.monotonic()
        original = state.serialize()
        state.bind_store(telenorid.DirectoryStore(tmp_path), "alice")
        assert (tmp_path / "alice.json").exists()
        # Expired for the workers when they go; the token they refresh to is not.
        outcomes = run_workers(provider, tmp_path, tmp_path, "directory", PROCESSES, go_at=signed_in_at + 5.5)
        assert all(code == 0 and out.startswith("ok ") for code, out, _ in outcomes), outcomes
        assert len({out for _, out, _ in outcomes}) == 1, outcomes  # one refresh, one new access token
        saved = json.loads((tmp_path / "alice.json").read_text())
        assert "ok " + hashlib.sha256(saved["access_token"].encode()).hexdigest() == outcomes[0][1]
        assert "refresh_started_at" not in saved
        # The provider rotated: the first refresh token is dead, so a second refresh with it would have failed.
        with pytest.raises(telenorid.AuthorizationLostError):
            client.restore(original).refresh()


def test_a_process_killed_after_the_provider_answered_leaves_the_next_one_rotation_possibly_lost(provider, tmp_path):
    with client_for(provider) as client:
        namespace = {}
        exec(FILE_STORE, namespace)  # the workers' store, in this process too
        store = namespace["FileStore"](str(tmp_path))
        signed_in_state(client, provider).bind_store(store, "alice")
        [(code, out, err)] = run_workers(provider, tmp_path, tmp_path, "file", 1, TELENORID_KILL_AFTER="1")
        assert code == -9, (code, out, err)  # killed in the store, after the provider had rotated
        record = json.loads((tmp_path / "alice").read_text())
        assert "refresh_started_at" in record and "refresh_token" in record
        [(code, out, err)] = run_workers(provider, tmp_path, tmp_path, "file", 1)
        assert code == 0, err
        assert out.startswith("RotationPossiblyLostError") and "probably rotated" in out, out
        record = json.loads((tmp_path / "alice").read_text())
        assert "refresh_started_at" not in record and "refresh_token" not in record  # signed out


OFFLINE_ISSUER = "http://127.0.0.1:9"


def offline_client():
    return telenorid.Client(telenorid.Config.from_settings(issuer=OFFLINE_ISSUER, client_id="store-test",
                                                           redirect_uri=REDIRECT, timeout_ms=300))


def test_a_failing_store_raises_store_failed_and_changes_nothing():
    store = DictStore()
    with offline_client() as client:
        state = client.open_store(store, "bob")
        assert not state.signed_in and json.loads(store.records["bob"])["version"] == 1
        before = dict(store.records)
        store.fail = "load"
        with pytest.raises(telenorid.StoreFailedError, match='load of "bob"') as caught:
            client.open_store(store, "bob")
        assert isinstance(caught.value.__cause__, OSError)
        store.fail = "store"
        with pytest.raises(telenorid.StoreFailedError, match='store of "carol"'):
            client.open_store(store, "carol")
        store.fail = None
        store.records["bob"] = b'{"version":1,"access_token":["secret-token"]'
        with pytest.raises(telenorid.StoreFailedError, match='record "bob" is not an auth state') as caught:
            client.open_store(store, "bob")
        assert "secret-token" not in caught.value.message
        store.records["bob"] = b"\x00" * 3
        with pytest.raises(telenorid.StoreFailedError):
            client.open_store(store, "bob")
        store.records["bob"] = "a string"
        with pytest.raises(telenorid.StoreFailedError) as caught:
            client.open_store(store, "bob")
        assert isinstance(caught.value.__cause__, TypeError)
        store.records.update(before)
        assert not client.open_store(store, "bob").signed_in


def test_a_lock_not_had_in_time_is_store_failed():
    store = DictStore()
    with offline_client() as client:
        client.open_store(store, "bob")
        store.locks["bob"].acquire()
        with pytest.raises(telenorid.StoreFailedError, match='lock of "bob" timed out after 300 ms'):
            client.open_store(store, "bob")
        store.locks["bob"].release()


def test_keys_and_stores_are_checked():
    with offline_client() as client:
        for key in ["", "a/b", "alice.update", "x" * 129]:
            with pytest.raises(telenorid.InvalidArgumentError):
                client.open_store(DictStore(), key)
        with pytest.raises(TypeError, match="lacks load, store, lock, unlock"):
            client.open_store(object(), "bob")
        with pytest.raises(TypeError):
            client.open_store(DictStore(), 7)


def test_a_host_method_cannot_call_back_into_the_library(tmp_path):
    class Reentrant(DictStore):
        def load(self, key):
            self.inner.serialize()
            return None

    with offline_client() as client:
        store = Reentrant()
        store.inner = client.open_store(telenorid.DirectoryStore(tmp_path), "inner")
        with pytest.raises(telenorid.StoreFailedError) as caught:
            client.open_store(store, "bob")
        assert isinstance(caught.value.__cause__, telenorid.InvalidArgumentError)
        assert "inside a host callback" in str(caught.value.__cause__)
