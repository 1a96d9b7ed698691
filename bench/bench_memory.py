"""Benchmark, not a test: the memory one signed-in auth state takes. In a fresh interpreter (a subprocess, so
nothing another measurement loaded or cached counts), COUNT auth states holding an access token, a rotated
refresh token, an RS256 ID token and its validated claims (bench/make_id_token.py's, 16 claims) are restored
from the serialized form (telenorid_auth_state_restore, OIDC's state after a sign-in) and kept; the resident
memory (VmRSS) they add, after one warm-up restore, divided by COUNT, is the figure. The states are kept as
bare C pointers in an array of integers, so no Python object per state adds to it. Best of 3 interpreters.

Usage: PYTHONPATH=bindings/python python3 bench/bench_memory.py <fixture folder> [count]
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench_results import record

# Runs in the child, with FOLDER and COUNT set before it.
_PROGRAM = """
import array, ctypes, json
from pathlib import Path
import telenorid
from telenorid import _bindings, _ffi

def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024

claims = json.loads((FOLDER / "claims.json").read_text())
config = telenorid.Config.from_settings(issuer=claims["iss"], client_id=claims["aud"],
                                        redirect_uri="com.example.app:/oauth2redirect")
client = telenorid.Client(config)
saved = json.dumps({"version": 1, "issuer": claims["iss"], "client_id": claims["aud"],
                    "access_token": "at-0123456789abcdefghijklmnopqrstuvwxyz", "token_type": "Bearer",
                    "expires_at": claims["exp"], "refresh_token": "rt-0123456789abcdefghijklmnopqrstuvwxyz",
                    "id_token": (FOLDER / "token").read_text().strip(), "id_token_claims": claims,
                    "scope": "openid profile"}).encode()
restore, pointer = _ffi.lib.telenorid_auth_state_restore, client._pointer

def one():
    state = _bindings.AuthStateP()
    if restore(pointer, saved, state):
        raise RuntimeError("auth_state_restore failed")
    return ctypes.cast(state, ctypes.c_void_p).value

kept = array.array("Q", [one()])  # warm-up: the library's first-use allocations do not count
kept.extend(range(COUNT))         # the array's own memory, allocated before measuring
before = rss()
for i in range(COUNT):
    kept[i + 1] = one()
print(json.dumps(rss() - before))
"""


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1]).resolve()
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    program = f"FOLDER = __import__('pathlib').Path({str(folder)!r})\nCOUNT = {count}\n" + _PROGRAM
    added = min(int(json.loads(subprocess.run([sys.executable, "-c", program], check=True, capture_output=True,
                                              text=True).stdout)) for _ in range(3))
    per_state = added / count
    print(f"memory: one auth state with ID token and claims, {per_state:.0f} bytes "
          f"(VmRSS added by {count} kept, best of 3 fresh interpreters)")
    record("memory_auth_state", per_state)


if __name__ == "__main__":
    main()
