"""telenorid.postgres_store.PostgresStore against a real PostgreSQL server (Debian's, started by
Tests/support/postgres_server.py on 127.0.0.1): records round-trip, a lock held elsewhere costs the timeout
and no more, and a killed holder's lock is free again at once."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")

from postgres_server import start_postgres  # noqa: E402
from telenorid.postgres_store import PostgresStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


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
    store.remove("alice")
    store.remove("alice")  # absent: fine
    assert store.load("alice") is None


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
