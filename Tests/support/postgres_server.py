"""A throwaway PostgreSQL server for the tests: the Debian server binaries (/usr/lib/postgresql/*/bin), a cluster
made by initdb in a temporary directory, listening on 127.0.0.1 at a free port and on a unix socket in that
directory, trust authentication (loopback and the socket only, for the test's own user), one database.
Stopped and removed at the end.

As a module, `start_postgres()` is a context manager yielding the server's information; as a program,
`python3 postgres_server.py serve` prints the same information as one JSON line when the server is ready
and keeps it running until killed (SIGTERM or SIGINT), for the C tests:

    {"host": "127.0.0.1", "port": 5xxxx, "socket_dir": "/tmp/...", "user": "...", "database": "telenorid",
     "conninfo": "host=127.0.0.1 port=5xxxx user=... dbname=telenorid"}
"""
from __future__ import annotations

import contextlib
import getpass
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

DATABASE = "telenorid"
SUPERUSER = "telenorid"


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if not found:
        raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql (Debian package postgresql)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_server_user() -> tuple[dict, str | None]:
    """PostgreSQL refuses to run as root: as root, the server runs as the Debian `postgres` account (the
    package creates it). Returns the Popen arguments that drop to it, and that account's name."""
    if os.getuid() != 0:
        return {}, None
    account = pwd.getpwnam("postgres")

    def drop() -> None:
        os.setgid(account.pw_gid)
        os.initgroups("postgres", account.pw_gid)
        os.setuid(account.pw_uid)

    return {"preexec_fn": drop}, "postgres"


@contextlib.contextmanager
def start_postgres() -> Iterator[dict]:
    """Runs a fresh server for the duration of a `with` block; yields its information (see the module's
    docstring)."""
    bin_dir = _binaries()
    workdir = Path(tempfile.mkdtemp(prefix="telenorid-postgres-"))
    drop, account = _as_server_user()
    if account is not None:
        info = pwd.getpwnam(account)
        os.chown(workdir, info.pw_uid, info.pw_gid)
    data, sockets, log = workdir / "data", workdir / "sockets", workdir / "server.log"
    port = _free_port()
    environment = dict(os.environ, LC_ALL="C")
    process = None
    try:
        subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
                        "--no-sync", "-E", "UTF8"], check=True, capture_output=True, env=environment, **drop)
        subprocess.run(["mkdir", str(sockets)], check=True, **drop)
        # fsync off and a small shared memory: a throwaway cluster that starts fast on a shared machine.
        process = subprocess.Popen(
            [str(bin_dir / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(port), "-k", str(sockets),
             "-c", "fsync=off", "-c", "shared_buffers=16MB", "-c", "max_connections=60"],
            stdout=subprocess.DEVNULL, stderr=open(log, "wb"), env=environment, start_new_session=True, **drop)
        deadline = time.monotonic() + 60
        while True:
            ready = subprocess.run([str(bin_dir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port)],
                                   env=environment)
            if ready.returncode == 0:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not start:\n" + log.read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        subprocess.run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", SUPERUSER, DATABASE],
                       check=True, env=environment)
        yield {"host": "127.0.0.1", "port": port, "socket_dir": str(sockets), "user": SUPERUSER,
               "database": DATABASE,
               "conninfo": f"host=127.0.0.1 port={port} user={SUPERUSER} dbname={DATABASE}"}
    finally:
        if process is not None:
            process.send_signal(signal.SIGINT)  # "fast" shutdown: ends the sessions, no checkpoint wait
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def serve() -> None:
    stop = {"now": False}

    def on_signal(signum: int, frame: object) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with start_postgres() as info:
        print(json.dumps(info), flush=True)
        deadline = time.monotonic() + 1800  # a safety net: never outlive a test run by long
        while not stop["now"] and time.monotonic() < deadline:
            time.sleep(0.2)


if __name__ == "__main__":
    if sys.argv[1:] != ["serve"]:
        sys.exit(f"usage: {sys.argv[0]} serve (as {getpass.getuser()})")
    serve()
