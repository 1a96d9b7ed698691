"""Benchmark, not a test: memory. Each figure comes from a fresh interpreter (a subprocess), so nothing one
measurement loads or caches skews another; all run in the same invocation and print ratios.

  load      resident memory (VmRSS) added by loading a client: `import telenorid` plus loading
            libtelenorid.so (which brings libcurl and OpenSSL), against `import authlib` with its requests
            client (which brings requests, urllib3 and cryptography); and, for scale, loading libcurl alone
            through ctypes, since libtelenorid's own share is what is left over.
  pending   resident memory per sign-in in flight: 10,000 pending authorization requests kept alive (each
            with its state, nonce, PKCE verifier and URL), after one warm-up request, divided by 10,000.
            telenorid: AuthorizationRequest.build(); Authlib: OAuth2Session.create_authorization_url with a
            generated verifier and nonce, keeping (url, state, verifier, nonce) as a host must.

Usage: PYTHONPATH=bindings/python python3 bench/bench_memory.py [pending count]
"""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Dict

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 10000

# Runs in the child: the bare interpreter's VmRSS, then the code's, then the code's result.
_PRELUDE = """
import json, sys
def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
before = rss()
"""

_LOADS: Dict[str, str] = {
    "telenorid": "import telenorid\ntelenorid.library_version()",
    "authlib": "from authlib.integrations.requests_client import OAuth2Session",
    "libcurl alone": "import ctypes, ctypes.util\nctypes.CDLL(ctypes.util.find_library('curl'))",
}

_PENDING: Dict[str, str] = {
    "telenorid": """
import telenorid
config = telenorid.Config.from_settings(issuer="https://id.example.com", client_id="tnn-example",
    redirect_uri="telenorid-example://authcallback/", scope="openid profile offline_access",
    authorization_endpoint="https://id.example.com/authorize")
request = telenorid.AuthorizationRequest(config)
request.build().url
before = rss()
kept = [request.build() for _ in range(COUNT)]
""",
    "authlib": """
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
session = OAuth2Session("tnn-example", redirect_uri="telenorid-example://authcallback/",
    scope="openid profile offline_access", code_challenge_method="S256")
def pending():
    verifier, nonce = generate_token(64), generate_token(43)
    url, state = session.create_authorization_url("https://id.example.com/authorize", state=generate_token(43),
                                                  code_verifier=verifier, nonce=nonce)
    return url, state, verifier, nonce
pending()
before = rss()
kept = [pending() for _ in range(COUNT)]
""",
}


def _measure(code: str) -> int:
    """Bytes of VmRSS the code added in a fresh interpreter."""
    program = _PRELUDE + f"COUNT = {COUNT}\n" + code + "\nprint(json.dumps(rss() - before))\n"
    out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True, text=True).stdout
    return int(json.loads(out))


def main() -> None:
    print("memory, VmRSS added in a fresh interpreter (best of 3)")
    loads = {name: min(_measure(code) for _ in range(3)) for name, code in _LOADS.items()}
    print(f"  {'load':<44}{'MiB':>8}   ratio")
    for name, size in loads.items():
        print(f"  {name:<44}{size / 2**20:>8.1f}   {size / loads['telenorid']:.2f}")
    pending = {name: min(_measure(code) for _ in range(3)) / COUNT for name, code in _PENDING.items()}
    print(f"  {'per pending authorization, ' + str(COUNT) + ' kept':<44}{'bytes':>8}   ratio")
    for name, size in pending.items():
        print(f"  {name:<44}{size:>8.0f}   {size / pending['telenorid']:.2f}")
    print("  (ratio: that one's memory / telenorid's; > 1 means telenorid uses less)")


if __name__ == "__main__":
    main()
