"""SecretServiceStore against a real gnome-keyring-daemon, on a private D-Bus session bus these tests start,
with its keyring in a temporary HOME. The code under test runs in subprocesses given that bus's address (and
the temporary HOME and runtime directory): libsecret and GLib bind a process to one session bus for good, and
nothing here touches the bus of the user running the tests.

Needs the Debian packages dbus-daemon, gnome-keyring and libsecret-1-0 (scripts/setup.sh installs them): a
machine without them fails here, naming what to install."""
import ctypes.util
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = "dbus-daemon gnome-keyring libsecret-1-0"
KEYRING_PASSWORD = "keyring-password-for-tests"


def require_packages():
    missing = [name for name, found in (("dbus-daemon", shutil.which("dbus-daemon")),
                                        ("gnome-keyring-daemon", shutil.which("gnome-keyring-daemon")),
                                        ("libsecret-1.so.0", ctypes.util.find_library("secret-1")))
               if not found]
    if missing:
        pytest.fail(f"{', '.join(missing)} not found: install the Debian packages {PACKAGES} "
                    f"(`apt-get install {PACKAGES}`, or scripts/setup.sh)", pytrace=False)


class Session:
    """A D-Bus session bus and, when asked, a gnome-keyring-daemon unlocked on it, all under `root`."""

    def __init__(self, root: Path):
        self.root = root
        self.home = root / "home"
        self.runtime = root / "run"
        self.home.mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        self.processes = []
        bus = subprocess.Popen(["dbus-daemon", "--session", f"--address=unix:path={root / 'bus'}", "--nofork",
                                "--print-address=1"], stdout=subprocess.PIPE, text=True, env=self.env(bus=False))
        self.processes.append(bus)
        self.address = bus.stdout.readline().strip()
        assert self.address.startswith("unix:"), "dbus-daemon printed no address"

    def env(self, bus=True, **extra):
        """The environment of a process of this session: the temporary HOME, XDG directories and bus."""
        environment = {key: value for key, value in os.environ.items()
                       if key not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_DATA_HOME",
                                      "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "DISPLAY",
                                      "WAYLAND_DISPLAY", "TELENORID_CLIENT_SECRET")}
        environment.update(HOME=str(self.home), XDG_RUNTIME_DIR=str(self.runtime),
                           PYTHONPATH=str(ROOT / "bindings" / "python"))
        if bus:
            environment["DBUS_SESSION_BUS_ADDRESS"] = self.address
        environment.update(extra)
        return environment

    def start_keyring(self):
        daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=self.env())
        self.processes.append(daemon)
        daemon.stdin.write(KEYRING_PASSWORD.encode())
        daemon.stdin.close()
        waited = python("""
import time
from telenorid.secret_service import SecretServiceStore
deadline = time.monotonic() + 15
while SecretServiceStore.unavailable_reason() and time.monotonic() < deadline:
    time.sleep(0.05)
print(SecretServiceStore.unavailable_reason())
""", self.env())
        assert waited.stdout.strip() == "None", f"the keyring did not come up: {waited.stdout}{waited.stderr}"

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def python(code, env, timeout=60, **options):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=timeout,
                          **options)


@pytest.fixture(scope="module")
def keyring(tmp_path_factory):
    require_packages()
    session = Session(tmp_path_factory.mktemp("keyring"))
    try:
        session.start_keyring()
        yield session
    finally:
        session.stop()


def files_holding(root: Path, needle: bytes):
    """Every regular file under `root` whose bytes contain `needle`."""
    return [path for path in root.rglob("*") if path.is_file() and not path.is_symlink()
            and needle in path.read_bytes()]


def test_store_load_remove_round_trip(keyring):
    done = python("""
from telenorid.secret_service import SecretServiceStore
store, other = SecretServiceStore(), SecretServiceStore(application="another-app")
assert store.load("round-trip") is None
record = bytes(range(256)) + b"\\x00 after a NUL"
store.store("round-trip", record)
assert store.load("round-trip") == record
assert other.load("round-trip") is None, "another application's store sees nothing of this one"
store.store("round-trip", b"replaced")
assert store.load("round-trip") == b"replaced"
store.store("empty", b"")
assert store.load("empty") == b""
store.remove("round-trip")
store.remove("round-trip")  # absent: not an error
assert store.load("round-trip") is None
assert SecretServiceStore().load("empty") == b"", "a new store object reads what another stored"
for bad in ("", "a/b", "x" * 161):
    try:
        store.load(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"{bad!r} was taken as a key")
print("ok")
""", keyring.env())
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_nothing_of_the_secret_is_on_disk_in_clear(keyring):
    secret = secrets.token_hex(24)
    done = python(f"""
from telenorid.secret_service import SecretServiceStore
store = SecretServiceStore()
store.store("on-disk", b'{{"refresh_token": "{secret}"}}')
assert store.lock("on-disk", 1)
print(store.load("on-disk").decode())
store.unlock("on-disk")
""", keyring.env())
    assert done.returncode == 0 and secret in done.stdout, done.stderr
    keyrings = keyring.home / ".local" / "share" / "keyrings"
    assert any(keyrings.iterdir()), "gnome-keyring keeps its keyring under the temporary HOME"
    # The keyring file is encrypted with the keyring's password: the secret is in no file in clear, that one
    # included, nor in the lock files.
    for needle in (secret.encode(), secret.encode("utf-16-le")):
        assert files_holding(keyring.root, needle) == []


LOCK_HOLDER = """
import sys
from telenorid.secret_service import SecretServiceStore
store = SecretServiceStore()
assert store.lock("shared", 5)
print("held", flush=True)
sys.stdin.read()  # until the test closes standard input
store.unlock("shared")
"""

LOCK_TAKER = """
import json, time
from telenorid.secret_service import SecretServiceStore
store = SecretServiceStore()
started = time.monotonic()
got = store.lock("shared", 0.4)
waited = time.monotonic() - started
other = store.lock("shared.update", 0.1)  # another name: another lock
store.unlock("shared.update")
print(json.dumps({"got": got, "waited": waited, "other": other}))
if got:
    store.unlock("shared")
"""


def test_locks_exclude_across_processes_within_the_timeout(keyring):
    import json
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=keyring.env())
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = python(LOCK_TAKER, keyring.env())
        assert refused.returncode == 0, refused.stderr
        outcome = json.loads(refused.stdout)
        assert outcome["got"] is False and 0.35 <= outcome["waited"] < 3, outcome
        assert outcome["other"] is True

        # Released while the other waits: it gets the lock then, not at its timeout.
        waiting = subprocess.Popen([sys.executable, "-c", LOCK_TAKER.replace("0.4", "20")], stdout=subprocess.PIPE,
                                   text=True, env=keyring.env())
        time.sleep(0.5)
        holder.stdin.close()
        assert holder.wait(10) == 0
        outcome = json.loads(waiting.communicate(timeout=30)[0])
        assert outcome["got"] is True and 0.4 <= outcome["waited"] < 10, outcome
    finally:
        holder.kill()
        holder.wait()
    lock_files = list((keyring.runtime / "telenorid").iterdir())
    assert lock_files and all(path.stat().st_size == 0 and path.stat().st_mode & 0o077 == 0 for path in lock_files)


def test_locks_exclude_threads_of_one_process(keyring):
    done = python("""
import threading
from telenorid.secret_service import SecretServiceStore
store = SecretServiceStore()
assert store.lock("threads", 1)
seen = []
thread = threading.Thread(target=lambda: seen.append(SecretServiceStore().lock("threads", 0.2)))
thread.start(); thread.join()
assert seen == [False], seen
store.unlock("threads")
assert store.lock("threads", 0.2)
store.unlock("threads")
print("ok")
""", keyring.env())
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


PROBE = """
import time
from telenorid.secret_service import SecretServiceStore
started = time.monotonic()
reason = SecretServiceStore.unavailable_reason()
print(SecretServiceStore.available(), round(time.monotonic() - started, 3), reason, sep="\\n")
"""


def probe(env):
    done = python(PROBE, env)
    assert done.returncode == 0, done.stderr
    available, took, reason = done.stdout.strip().split("\n", 2)
    return available == "True", float(took), reason


def test_available_only_where_a_secret_service_answers(keyring, tmp_path):
    assert probe(keyring.env()) == (True, pytest.approx(0, abs=2), "None")

    no_bus = keyring.env(bus=False, XDG_RUNTIME_DIR=str(tmp_path))  # no address, no $XDG_RUNTIME_DIR/bus
    available, took, reason = probe(no_bus)
    assert not available and took < 1 and "no D-Bus session bus" in reason

    dead = keyring.env(DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'nothing-listens-here'}")
    available, took, reason = probe(dead)
    assert not available and took < 2 and "does not answer" in reason

    # A bus with no Secret Service on it: the probe says so and starts none (no D-Bus activation), though
    # this bus could activate gnome-keyring from its service files.
    bare = Session(tmp_path / "bare")
    try:
        available, took, reason = probe(bare.env())
        assert not available and took < 2 and "no Secret Service answers" in reason
        assert "no Secret Service answers" in probe(bare.env())[2]
        assert not (bare.home / ".local" / "share" / "keyrings").exists()
    finally:
        bare.stop()
