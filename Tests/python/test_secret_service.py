"""SecretServiceStore against a real gnome-keyring-daemon, on a private D-Bus session bus these tests start,
with its keyring in a temporary HOME. The code under test runs in subprocesses given that bus's address (and
the temporary HOME and runtime directory): libsecret and GLib bind a process to one session bus for good, and
nothing here touches the bus of the user running the tests.

Needs the Debian packages dbus-daemon, gnome-keyring and libsecret-1-0 (scripts/setup.sh installs them): a
machine without them fails here, naming what to install."""
import ctypes.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import follow_command

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
                                      "WAYLAND_DISPLAY", "TELENORID_CLIENT_SECRET", "TELENORID_STORE")}
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
print("waiting", flush=True)  # the test releases the lock only after this: a slow start is not a short wait
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
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=keyring.env())
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = python(LOCK_TAKER, keyring.env())
        assert refused.returncode == 0, refused.stderr
        outcome = json.loads(refused.stdout.splitlines()[-1])
        assert outcome["got"] is False and 0.35 <= outcome["waited"] < 3, outcome
        assert outcome["other"] is True

        # Released while the other waits: it gets the lock then, not at its timeout.
        waiting = subprocess.Popen([sys.executable, "-c", LOCK_TAKER.replace("0.4", "20")], stdout=subprocess.PIPE,
                                   text=True, env=keyring.env())
        assert waiting.stdout.readline().strip() == "waiting"
        time.sleep(0.5)
        holder.stdin.close()
        assert holder.wait(10) == 0
        outcome = json.loads(waiting.communicate(timeout=30)[0].splitlines()[-1])
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

        # A keyring daemon that was not unlocked, holding a copy of the test keyring: storing would need the
        # user to unlock it at a prompt, so the probe says no, at once, and asks nothing.
        shutil.copytree(keyring.home / ".local" / "share" / "keyrings", bare.home / ".local" / "share" / "keyrings")
        bare.processes.append(subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--components=secrets"],
                                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL, env=bare.env()))
        deadline = time.monotonic() + 15
        while "no Secret Service answers" in (reason := probe(bare.env())[2]) and time.monotonic() < deadline:
            time.sleep(0.1)
        available, took, reason = probe(bare.env())
        assert not available and took < 2 and reason == "the Secret Service's default collection is locked"
    finally:
        bare.stop()


# ---- the `telenorid` command ------------------------------------------------------------------------------



def telenorid(session, *args, **env):
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=session.env(**env))


def login_arguments(provider, client):
    user = provider["user"]
    return ["login", "--issuer", provider["issuer"], "--client-id", client["client_id"], "--scope", "openid profile",
            "--port", "53682", "--timeout", "60",
            "--browser-command", follow_command(user)]


def kept_record(session, key):
    """The record the Secret Service holds under `key` (None when it holds none)."""
    done = python(f"""
import sys
from telenorid.secret_service import SecretServiceStore
record = SecretServiceStore().load({key!r})
sys.stdout.write("" if record is None else record.decode())
""", session.env())
    assert done.returncode == 0, done.stderr
    return done.stdout or None


def test_cli_keeps_the_sign_in_and_the_client_secret_in_the_secret_service(keyring, provider, tmp_path):
    """By default `login` keeps the auth state and the client secret in the Secret Service: no plain file holds a
    token or the secret, and `token` later refreshes with the kept secret and no TELENORID_CLIENT_SECRET."""
    from telenorid.cli_store import record_key
    client = provider["clients"]["confidential"]
    secret = client["client_secret"]
    login = telenorid(keyring, *login_arguments(provider, client), "--client-secret", secret)
    assert login.returncode == 0, login.stderr
    assert "Secret Service" in login.stderr and "no Secret Service" not in login.stderr
    assert secret not in login.stderr and "need no TELENORID_CLIENT_SECRET" in login.stderr

    state_dir = keyring.home / ".local" / "state" / "telenorid"
    settings = json.loads((state_dir / "state.settings.json").read_text())
    assert settings["store"] == "secret-service" and "client_secret" not in settings
    assert not (state_dir / "state.json").exists()
    key = record_key(state_dir / "state.json")
    assert kept_record(keyring, key) is None, "the sign-in is an account, kept in its own record alone"
    assert kept_record(keyring, key + ".accounts") is not None, "the registry is in the Secret Service too"
    listed = telenorid(keyring, "accounts", "--json")
    assert listed.returncode == 0, listed.stderr
    [account] = json.loads(listed.stdout)
    account_key = f"{key}.{account['id']}"
    record = json.loads(kept_record(keyring, account_key))
    assert kept_record(keyring, key + ".client-secret") == secret
    kept = [secret, record["refresh_token"], record["access_token"], record["id_token"]]
    for value in kept:
        assert files_holding(keyring.root, value.encode()) == [], "a token or the secret in a plain file"

    # A refresh margin longer than the token's life makes `token` refresh, which the provider allows this
    # client only with its secret: the one kept in the Secret Service.
    always_refresh = tmp_path / "refresh.json"
    always_refresh.write_text(json.dumps({"refresh_margin_s": 3600}))
    token = telenorid(keyring, "token", "--config", str(always_refresh), "--json")
    assert token.returncode == 0, token.stderr
    refreshed = json.loads(kept_record(keyring, account_key))
    assert refreshed["refresh_token"] != record["refresh_token"], "the rotated refresh token is kept at once"
    assert json.loads(token.stdout)["access_token"] == refreshed["access_token"]
    for value in (refreshed["refresh_token"], refreshed["access_token"]):
        assert files_holding(keyring.root, value.encode()) == []
    status = telenorid(keyring, "status", "--json")
    assert status.returncode == 0 and json.loads(status.stdout)["signed_in"] is True, status.stderr

    # Without its Secret Service the sign-in is not silently taken as gone: the command fails saying why.
    no_bus = telenorid(keyring, "token", DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'no-bus'}")
    assert no_bus.returncode == 1 and "kept in the Secret Service" in no_bus.stderr, no_bus.stderr

    logout = telenorid(keyring, "logout")
    assert logout.returncode == 0 and f"account {account['id']} removed" in logout.stderr, logout.stderr
    assert kept_record(keyring, key + ".client-secret") is None and kept_record(keyring, key + ".accounts") is None
    assert kept_record(keyring, account_key) is None
    assert not (state_dir / "state.settings.json").exists()


def test_cli_store_file_keeps_the_state_file(keyring, provider, tmp_path):
    """`--store file` keeps the sign-in in the state file, the Secret Service running or not, without notice."""
    from telenorid.cli_store import record_key
    state_file = tmp_path / "state.json"
    login = telenorid(keyring, *login_arguments(provider, provider["clients"]["public"]), "--store", "file",
                      "--state-file", str(state_file))
    assert login.returncode == 0, login.stderr
    assert "no Secret Service" not in login.stderr and f"state saved to {tmp_path}/state." in login.stderr
    [record] = [path for path in tmp_path.glob("state.*.json")
                if path.name not in ("state.settings.json", "state.accounts.json")]
    assert json.loads(record.read_text())["refresh_token"]
    assert kept_record(keyring, record_key(state_file)) is None
    assert kept_record(keyring, record_key(state_file) + ".accounts") is None
    assert telenorid(keyring, "token", "--state-file", str(state_file)).returncode == 0


def test_cli_falls_back_to_files_where_no_secret_service_runs_and_says_so(keyring, provider, tmp_path):
    no_bus = {"DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": str(tmp_path)}
    state_file = tmp_path / "state.json"
    asked = telenorid(keyring, *login_arguments(provider, provider["clients"]["public"]), "--store", "secret-service",
                      "--state-file", str(state_file), **no_bus)
    assert asked.returncode == 1 and "--store secret-service: no D-Bus session bus" in asked.stderr, asked.stderr
    assert not state_file.exists() and not (tmp_path / "state.settings.json").exists()

    login = telenorid(keyring, *login_arguments(provider, provider["clients"]["public"]),
                      "--state-file", str(state_file), **no_bus)
    assert login.returncode == 0, login.stderr
    notices = [line for line in login.stderr.splitlines() if "no Secret Service" in line]
    assert len(notices) == 1 and str(state_file) in notices[0] and "--store file" in notices[0], login.stderr
    assert (tmp_path / "state.accounts.json").exists() and not state_file.exists()
    assert json.loads((tmp_path / "state.settings.json").read_text())["store"] == "file"
    later = telenorid(keyring, "token", "--state-file", str(state_file), **no_bus)
    assert later.returncode == 0 and "Secret Service" not in later.stderr, later.stderr
