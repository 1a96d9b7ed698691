"""A store in PostgreSQL (psycopg 3), so that backend processes on several hosts share one sign-in and
refresh it once: a row per record, and the refresh's exclusive lock as a ``SELECT … FOR UPDATE`` bounded by
``lock_timeout``.

Install with ``pip install telenorid[postgres]``; make the tables once (``PostgresStore.create_table()``
runs this, for ``table="telenorid_records"``)::

    CREATE TABLE IF NOT EXISTS telenorid_records (
        key text PRIMARY KEY,                           -- the record key the library names
        data bytea NOT NULL,                            -- the serialized auth state: it holds the tokens
        updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS telenorid_records_locks (
        name text PRIMARY KEY                           -- a lock name: "<key>" or "<key>.update"
    );

Locks. The library holds the exclusive lock ``"<key>"`` across a refresh's round trip to the provider, and
the update lock ``"<key>.update"`` only while it reads and writes back the record; a sign-out takes only the
update lock, so it is recorded even while another process's refresh is out. Each held lock is a
transaction on a connection of its own that has ``SELECT name FROM <table>_locks WHERE name = … FOR UPDATE``
under a transaction-local ``lock_timeout`` (``NOWAIT`` for a zero timeout), kept open until ``unlock``
ends it.
The row locked is the lock's row, not the record's: a lock on the record row would block the sign-out's
write (and the refresher's own write through the data connection) until the refresh ends. Row locks rather
than advisory locks: the wait is bounded by ``lock_timeout`` as any lock wait is, and ``pg_locks`` shows
who holds which. The server's ``idle_in_transaction_session_timeout``, when set, must exceed the client's
HTTP timeout (``timeout_ms``): a lock transaction waits idle while the refresh request is out.

A killed holder releases its lock: PostgreSQL ends the transaction of a connection that closes, which is
what the kernel does to a killed process's sockets. A host that vanishes without closing its connections
(power loss, a cut network) holds its locks until the server notices the connection is dead: set the
server's ``tcp_keepalives_idle``, ``tcp_keepalives_interval`` and ``tcp_keepalives_count`` so that happens
within minutes. Records are read and written on one more connection, in autocommit.

Thread-safety: the library may call a store from several threads; each store object serializes its data
connection with a mutex and keeps one lock per name within the process (a thread waiting for a lock
another thread of this object holds waits at most the timeout, as for another process).
"""
from __future__ import annotations

import re
import threading
import time
from typing import Any, Optional

import psycopg
from psycopg import errors, sql

from .store import Store

__all__ = ["PostgresStore"]

_TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,50}\Z")


class PostgresStore(Store):
    """A :class:`telenorid.Store` on a PostgreSQL database: pass it to ``Client.open_store(store, key)`` or
    ``AuthState.bind_store(store, key)``.

    ``conninfo`` is a libpq connection string or URI (``"host=db.internal dbname=app user=app"``); ``table``
    names the records' table (letters, digits and ``_``), beside which ``<table>_locks`` holds the lock rows.
    Connections are opened on first use; :meth:`close` closes them.
    """

    def __init__(self, conninfo: str, table: str = "telenorid_records") -> None:
        if not isinstance(conninfo, str) or not isinstance(table, str):
            raise TypeError("conninfo and table must be str")
        if not _TABLE_NAME.match(table):
            raise ValueError("table must be letters, digits and '_' (at most 51), not starting with a digit")
        self._conninfo = conninfo
        self._records = sql.Identifier(table)
        self._locks = sql.Identifier(table + "_locks")
        self._mutex = threading.Lock()
        self._released = threading.Condition(self._mutex)
        self._data: Optional[psycopg.Connection] = None
        self._held: dict[str, psycopg.Connection] = {}  # lock name -> the connection whose transaction holds it
        self._claimed: set[str] = set()  # names a thread of this object holds or is taking
        self._idle: list[psycopg.Connection] = []  # lock connections between two locks

    # -- the tables --------------------------------------------------------------------------------------

    def create_table(self) -> None:
        """Creates the records' table and the lock table when they do not exist (see the module docstring)."""
        with psycopg.connect(self._conninfo, autocommit=True) as connection:
            connection.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (key text PRIMARY KEY, data bytea NOT NULL, "
                "updated_at timestamptz NOT NULL DEFAULT now())").format(self._records))
            connection.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {} (name text PRIMARY KEY)").format(self._locks))

    # -- records -----------------------------------------------------------------------------------------

    def _execute(self, query: sql.Composed, params: tuple[object, ...]) -> Optional[tuple[Any, ...]]:
        """Runs one statement on the data connection; its first row. A connection the server dropped (a
        restart, a failover) is replaced and the statement run once more on the new one: each statement
        here gives the same result run twice."""
        with self._mutex:
            try:
                return self._run(query, params)
            except psycopg.OperationalError:
                if self._data is None or not self._data.broken:
                    raise
            return self._run(query, params)

    def _run(self, query: sql.Composed, params: tuple[object, ...]) -> Optional[tuple[Any, ...]]:
        # Called holding the mutex.
        if self._data is None or self._data.broken or self._data.closed:
            self._data = psycopg.connect(self._conninfo, autocommit=True)
        cursor = self._data.execute(query, params)
        return cursor.fetchone() if cursor.description is not None else None

    def load(self, key: str) -> Optional[bytes]:
        row = self._execute(sql.SQL("SELECT data FROM {} WHERE key = %s").format(self._records), (key,))
        return None if row is None else bytes(row[0])

    def store(self, key: str, data: bytes) -> None:
        # One statement: a reader sees the old record or the new one, never a mix.
        self._execute(sql.SQL(
            "INSERT INTO {} (key, data, updated_at) VALUES (%s, %s, now()) "
            "ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at"
        ).format(self._records), (key, bytes(data)))

    # -- locks -------------------------------------------------------------------------------------------

    def lock(self, name: str, timeout_s: float) -> bool:
        """Takes the lock ``name``, waiting at most ``timeout_s`` seconds; False when it could not (another
        thread of this object, or another connection, holds it)."""
        deadline = time.monotonic() + max(0.0, timeout_s)
        with self._released:
            while name in self._claimed:  # another thread of this object holds it
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._released.wait(left)
            self._claimed.add(name)
            connection = self._idle.pop() if self._idle else None
        try:
            if connection is None or connection.broken or connection.closed:
                connection = psycopg.connect(self._conninfo, autocommit=True)
            taken = self._take(connection, name, deadline - time.monotonic())
        except BaseException:
            self._forget(name)
            if connection is not None:
                connection.close()
            raise
        with self._mutex:
            if taken:
                self._held[name] = connection
            else:
                self._idle.append(connection)
        if not taken:
            self._forget(name)
        return taken

    def _take(self, connection: psycopg.Connection, name: str, left_s: float) -> bool:
        # The row exists before the transaction that locks it (committed here, so every waiter sees it).
        connection.execute(sql.SQL("INSERT INTO {} (name) VALUES (%s) ON CONFLICT DO NOTHING").format(self._locks),
                           (name,))
        connection.execute("BEGIN")
        try:
            if left_s > 0:
                # lock_timeout 0 would mean "wait forever": at least one millisecond.
                connection.execute("SELECT set_config('lock_timeout', %s, true)", (f"{max(1, int(left_s * 1000))}ms",))
                query = "SELECT name FROM {} WHERE name = %s FOR UPDATE"
            else:
                query = "SELECT name FROM {} WHERE name = %s FOR UPDATE NOWAIT"
            connection.execute(sql.SQL(query).format(self._locks), (name,))
            return True
        except errors.LockNotAvailable:
            connection.execute("ROLLBACK")
            return False
        except BaseException:
            connection.close()
            raise

    def unlock(self, name: str) -> None:
        """Lets go of the lock ``name`` this store object holds (ends its transaction)."""
        with self._mutex:
            connection = self._held.pop(name, None)
        if connection is None:
            raise RuntimeError("unlock of a lock this store does not hold")
        try:
            connection.execute("ROLLBACK")  # the transaction wrote nothing
        except psycopg.OperationalError:
            # The connection died, and the server ended its transaction and the lock with it: released all
            # the same (a failed unlock would fail the library call whose work is done). A fresh connection
            # serves the next lock.
            connection.close()
        finally:
            self._forget(name)
        if not connection.closed:
            with self._mutex:
                self._idle.append(connection)

    def _forget(self, name: str) -> None:
        with self._released:
            self._claimed.discard(name)
            self._released.notify_all()

    def close(self) -> None:
        """Closes every connection; locks still held are released (their transactions end)."""
        with self._mutex:
            connections = [*self._held.values(), *self._idle] + ([self._data] if self._data is not None else [])
            self._held.clear()
            self._idle.clear()
            self._data = None
        for connection in connections:
            connection.close()

    def __enter__(self) -> "PostgresStore":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
