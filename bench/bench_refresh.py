"""Benchmark, not a test: refresh-token round trips from Python against a local token endpoint
(bench/token_server.sh: nginx answering every POST with the same refresh response), through the telenorid
binding beside requests, pycurl and Authlib doing the same refresh, in one run.

Usage: PYTHONPATH=bindings/python python3 bench/bench_refresh.py <token endpoint URL> [round trips per round] [rounds]

Every client keeps one connection alive. What each does per round trip:
  telenorid  AuthState.refresh(): form, POST, JSON parsed and checked, tokens swapped atomically (in C)
  requests   Session.post(form) → .json() → new refresh token taken
  pycurl     one Curl handle reused: POSTFIELDS, perform into a buffer → json.loads → new refresh token
  Authlib    OAuth2Session.refresh_token(url, refresh_token=...) (requests underneath; parses and
             checks the token response)
Prints µs per round trip, wall clock and the calling thread's CPU time, best round of several with the
clients interleaved round by round, and each one's ratio to telenorid (> 1: telenorid is faster).
"""
from __future__ import annotations

import io
import json
import sys
import time
from typing import Callable, Dict
from urllib.parse import urlsplit

import telenorid

CLIENT_ID = "bench-client"
REFRESH_TOKEN = "rt-0123456789abcdefghijklmnopqrstuvwxyz"


def clients(endpoint: str) -> Dict[str, Callable[[], object]]:
    parts = urlsplit(endpoint)
    issuer = f"{parts.scheme}://{parts.netloc}"
    config = telenorid.Config.from_settings(issuer=issuer, client_id=CLIENT_ID, redirect_uri="com.example.app:/oauth2redirect",
                                            token_endpoint=endpoint)
    client = telenorid.Client(config)
    state = client.restore(json.dumps({"version": 1, "issuer": issuer, "client_id": CLIENT_ID, "access_token": "expired",
                                       "token_type": "Bearer", "expires_at": 1, "refresh_token": REFRESH_TOKEN}))
    form = {"grant_type": "refresh_token", "refresh_token": REFRESH_TOKEN, "client_id": CLIENT_ID}
    found = {}

    import requests
    session = requests.Session()

    def with_requests() -> object:
        response = session.post(endpoint, data=form)
        response.raise_for_status()
        found["requests"] = response.json()["refresh_token"]
        return found

    import pycurl
    from urllib.parse import urlencode
    curl = pycurl.Curl()
    curl.setopt(pycurl.URL, endpoint)
    curl.setopt(pycurl.POSTFIELDS, urlencode(form))

    def with_pycurl() -> object:
        buffer = io.BytesIO()
        curl.setopt(pycurl.WRITEDATA, buffer)
        curl.perform()
        if curl.getinfo(pycurl.RESPONSE_CODE) != 200:
            raise RuntimeError("pycurl: not 200")
        found["pycurl"] = json.loads(buffer.getvalue())["refresh_token"]
        return found

    from authlib.integrations.requests_client import OAuth2Session
    authlib = OAuth2Session(client_id=CLIENT_ID, token_endpoint_auth_method="none")

    def with_authlib() -> object:
        return authlib.refresh_token(endpoint, refresh_token=REFRESH_TOKEN)

    return {"telenorid AuthState.refresh()": state.refresh, "requests Session.post + .json()": with_requests,
            "pycurl reused handle + json.loads": with_pycurl, "Authlib OAuth2Session.refresh_token": with_authlib}


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    endpoint = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    table = clients(endpoint)
    best = {name: [float("inf"), float("inf")] for name in table}
    for function in table.values():  # connections opened, imports and caches warm
        for _ in range(50):
            function()
    for _ in range(rounds):
        for name, function in table.items():
            wall, cpu = time.perf_counter(), time.thread_time()
            for _ in range(n):
                function()
            best[name][0] = min(best[name][0], (time.perf_counter() - wall) / n * 1e6)
            best[name][1] = min(best[name][1], (time.thread_time() - cpu) / n * 1e6)
    ours = best["telenorid AuthState.refresh()"]
    print(f"refresh round trip from Python, µs/op (best of {rounds} rounds of {n}; loopback nginx token endpoint)")
    print(f"  {'':40} {'wall':>9} {'client CPU':>11} {'wall ratio':>11} {'CPU ratio':>10}")
    for name, (wall, cpu) in best.items():
        print(f"  {name:40} {wall:9.1f} {cpu:11.1f} {wall / ours[0]:11.2f} {cpu / ours[1]:10.2f}")
    print("  (ratio: that client's time / telenorid's; > 1 means telenorid is faster)")


if __name__ == "__main__":
    main()
