"""Runs bindings/c/examples/pg_store (the C store functions with libpq) against a real PostgreSQL server
(Tests/support/postgres_server.py) and the real provider (django-oauth-toolkit, which rotates refresh tokens):
a sign-in is put in the store through the Python binding's PostgresStore (the same table), its access token
is left to expire, then 4 pg_store processes ask for a fresh access token at once. Each prints the same
token, and the provider's database holds exactly one refresh. Then one more run under valgrind (when
installed; definite leaks and memory errors fail) gets a fresh token again (read from the store, or
refreshed once more when the first has come within the refresh margin meanwhile). Builds into
out/tests/. Exits non-zero on any failure."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

root = Path(__file__).resolve().parents[2]
for path in (root / "bindings" / "python", root / "Tests" / "support", root / "Tests" / "support" / "provider"):
    sys.path.insert(0, str(path))
lib = root / "out" / "lib"
os.environ.setdefault("TELENORID_LIBRARY", str(lib / "libtelenorid.so.0"))
import telenorid  # noqa: E402
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402
from postgres_server import start_postgres  # noqa: E402
from telenorid.postgres_store import PostgresStore  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"
ACCESS_TOKEN_SECONDS = 10  # the provider's access token lifetime: short, so the test waits it out
REFRESH_MARGIN_S = "3"  # below it, so a refreshed token is fresh for the 7 s after the one refresh
PROCESSES = 4
out = root / "out" / "tests"
cc = os.environ.get("CC", "gcc")
flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g", f"-I{root / 'include'}"]


def build() -> Path:
    out.mkdir(parents=True, exist_ok=True)
    libpq = subprocess.run(["pkg-config", "--cflags", "--libs", "libpq"], check=True, capture_output=True,
                           text=True).stdout.split()
    subprocess.run([cc, *flags, str(root / "bindings" / "c" / "examples" / "pg_store.c"), *libpq, f"-L{lib}",
                    "-ltelenorid", "-lpthread", f"-Wl,-rpath,{lib}", "-o", str(out / "pg_store")], check=True)
    return out / "pg_store"


def refreshes(provider_tmp: Path) -> int:
    """How many refreshes django-oauth-toolkit granted: each rotation revokes one refresh token."""
    (database,) = provider_tmp.glob("telenorid-provider-*/db.sqlite3")
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(revoked) FROM oauth2_provider_refreshtoken").fetchone()[0]


def main() -> int:
    program = build()
    provider_tmp = Path(tempfile.mkdtemp(prefix="telenorid-pg-store-"))
    os.environ["TMPDIR"] = str(provider_tmp)  # the provider keeps its database there, for counting refreshes
    try:
        with start_provider(access_token_seconds=ACCESS_TOKEN_SECONDS) as provider, start_postgres() as postgres:
            del os.environ["TMPDIR"]
            client_id = provider["clients"]["public"]["client_id"]
            config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=client_id,
                                                    redirect_uri=REDIRECT, scope="openid profile")
            with PostgresStore(postgres["conninfo"]) as store, telenorid.Client(config) as client:
                store.create_table()
                pending = telenorid.AuthorizationRequest(client.config()).build()
                redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
                state = client.exchange_code(pending.handle_callback(redirect))
                signed_in_at = time.monotonic()
                state.bind_store(store, "alice")
            time.sleep(max(0.0, signed_in_at + ACCESS_TOKEN_SECONDS + 0.5 - time.monotonic()))

            command = [str(program), postgres["conninfo"], provider["issuer"], client_id, "alice", REFRESH_MARGIN_S]
            workers = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                       for _ in range(PROCESSES)]
            outcomes = []
            for worker in workers:
                stdout, stderr = worker.communicate(timeout=120)
                assert worker.returncode == 0, f"pg_store: exit {worker.returncode}\n{stderr}"
                outcomes.append(stdout.strip())
            assert len(set(outcomes)) == 1 and outcomes[0].startswith("access token: "), outcomes
            assert refreshes(provider_tmp) == 1, f"{refreshes(provider_tmp)} refreshes, expected exactly one"
            print(f"ok: {PROCESSES} pg_store processes, one refresh, one access token")

            if shutil.which("valgrind"):
                command = ["valgrind", "--quiet", "--leak-check=full", "--errors-for-leak-kinds=definite",
                           "--show-leak-kinds=definite", "--error-exitcode=99",
                           f"--suppressions={root / 'Tests' / 'c' / 'valgrind.supp'}", *command]
            again = subprocess.run(command, capture_output=True, text=True, timeout=300)
            assert again.returncode == 0, f"pg_store: exit {again.returncode}\n{again.stderr}"
            assert again.stdout.startswith("access token: "), again.stdout
            print("ok: pg_store again" + (" under valgrind" if shutil.which("valgrind") else ""))
    finally:
        shutil.rmtree(provider_tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
