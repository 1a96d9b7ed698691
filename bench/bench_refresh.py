"""Benchmark, not a test: refresh-token round trips from Python against a local token endpoint
(bench/token_server.sh: one nginx process answering every POST with the same refresh response), through
the telenorid binding beside pycurl, in one run.

Usage: PYTHONPATH=bindings/python python3 bench/bench_refresh.py <token endpoint URL> <server pid>
       [round trips per round] [rounds]

Both keep one connection alive. What each does per round trip:
  telenorid  AuthState.refresh(): form, POST, JSON parsed and checked, tokens swapped atomically (in C)
  pycurl     one Curl handle reused: POSTFIELDS, perform into a buffer → json.loads → new refresh token
The figure is CPU time per round trip, this process's plus the server's (its schedstat run time), so
neither waiting on the loopback nor other load counts; wall clock is printed beside it. Best round of
several with the clients interleaved round by round.

The goal is about the work each client adds above its own libcurl: the two carry different ones (the
library the system's libcurl.so.4, pycurl's wheel a libcurl of its own), so each round also times the same
POST made from C by each of those two libcurls (bench/libcurl_floor.c, given the path this process loaded
it from), and the table compares (client - its libcurl's floor) for the two.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from typing import Callable, Dict
from urllib.parse import urlencode, urlsplit

import pycurl
import telenorid

from bench_results import record

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
    curl = pycurl.Curl()
    curl.setopt(pycurl.URL, endpoint)
    curl.setopt(pycurl.POSTFIELDS, urlencode({"grant_type": "refresh_token", "refresh_token": REFRESH_TOKEN,
                                              "client_id": CLIENT_ID}))
    found = {}

    def with_pycurl() -> object:
        buffer = io.BytesIO()
        curl.setopt(pycurl.WRITEDATA, buffer)
        curl.perform()
        if curl.getinfo(pycurl.RESPONSE_CODE) != 200:
            raise RuntimeError("pycurl: not 200")
        found["pycurl"] = json.loads(buffer.getvalue())["refresh_token"]
        return found

    return {"telenorid AuthState.refresh()": state.refresh, "pycurl reused handle + json.loads": with_pycurl}


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    endpoint, server_pid = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5

    def server_ns() -> int:
        # Nanoseconds the server has run: /proc/<pid>/schedstat's first field (stat's clock ticks are too coarse).
        with open(f"/proc/{server_pid}/schedstat") as schedstat:
            return int(schedstat.read().split()[0])

    table = clients(endpoint)
    floors = {name: float("inf") for name in ("telenorid", "pycurl")}
    libraries = loaded_libcurls()
    best = {name: [float("inf"), float("inf")] for name in table}
    for function in table.values():  # connections opened, imports and caches warm
        for _ in range(50):
            function()
    for _ in range(rounds):
        for name, function in table.items():
            wall, cpu = time.perf_counter_ns(), time.process_time_ns() + server_ns()
            for _ in range(n):
                function()
            best[name][0] = min(best[name][0], (time.perf_counter_ns() - wall) / n / 1000)
            best[name][1] = min(best[name][1], (time.process_time_ns() + server_ns() - cpu) / n / 1000)
        for name, path in libraries.items():
            floors[name] = min(floors[name], floor(path, endpoint, server_pid, n))
    ours = best["telenorid AuthState.refresh()"]
    print(f"refresh round trip from Python, µs/op (best of {rounds} rounds of {n}; loopback nginx token endpoint)")
    print(f"  {'':40} {'wall':>9} {'client+server CPU':>18} {'CPU ratio':>10}")
    for name, (wall, cpu) in best.items():
        print(f"  {name:40} {wall:9.1f} {cpu:18.1f} {cpu / ours[1]:10.2f}")
    print("  (ratio: that client's CPU time / telenorid's; > 1 means telenorid is faster)")
    theirs = best["pycurl reused handle + json.loads"]
    record("py_refresh", ours[1], theirs[1])
    print(f"  floors, the same POST from C by each one's libcurl: {floors['telenorid']:.1f} (libtelenorid's: "
          f"{libraries['telenorid']}), {floors['pycurl']:.1f} (pycurl's: {libraries['pycurl']})")
    above_ours, above_theirs = ours[1] - floors["telenorid"], theirs[1] - floors["pycurl"]
    print(f"  above their own libcurl: telenorid {above_ours:.1f}, pycurl + json.loads {above_theirs:.1f}"
          f" ({above_theirs / above_ours:.2f}x)")
    record("py_refresh_above_libcurl", above_ours, above_theirs)


def loaded_libcurls() -> Dict[str, str]:
    """The libcurl files this process has loaded, by who loaded them: pycurl's from its wheel's pycurl.libs,
    libtelenorid's the other one (/proc/self/maps). A pycurl built against the system's libcurl shares it."""
    found: Dict[str, str] = {}
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if "/libcurl" in path and ".so" in path:
                found["pycurl" if "pycurl" in path else "telenorid"] = path
    if "telenorid" not in found:
        raise SystemExit(f"bench_refresh: libtelenorid's libcurl is not among the loaded libraries: {found}")
    found.setdefault("pycurl", found["telenorid"])
    return found


def floor(library: str, endpoint: str, server_pid: int, n: int) -> float:
    """One round of bench/libcurl_floor (built by bench/run.sh next to this run's other programs): µs of
    client+server CPU per round trip made from C by the libcurl at ``library``."""
    program = os.path.join(os.environ.get("BENCH_OUT", "out/bench"), "libcurl_floor")
    output = subprocess.run([program, library, endpoint, str(server_pid), str(n), "1"], check=True,
                            capture_output=True, text=True).stdout
    return float(output)


if __name__ == "__main__":
    main()
