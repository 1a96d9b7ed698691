"""Benchmark, not a test: PKCE pair, authorization URL and callback check through the ctypes binding, beside
the same C calls made through ctypes directly (no binding objects), Python's standard library and Authlib,
in one run. Prints µs/op of the thread's CPU time (BENCH_CLOCK=wall: wall clock), best round of several with
the operations interleaved round by round so outside load hits all of them alike; the ratio Authlib / binding;
and import times (wall clock, fresh interpreters, best of 5).

Usage: PYTHONPATH=bindings/python python3 bench/bench_python.py [iterations per round] [rounds]

What each row measures:
  PKCE pair     binding: Pkce.new() → .verifier, .challenge → close (3 C calls + 2 string_free + free)
                raw ctypes: the same C calls through ctypes with no binding objects (no weakref.finalize,
                         no checks): what the binding's own Python costs is the difference
                stdlib:  secrets.token_urlsafe(48) (64 chars) → hashlib.sha256 → base64.urlsafe_b64encode
                Authlib: generate_token(64) → create_s256_code_challenge
  auth URL      binding: request.build() → .url → close (one AuthorizationRequest made up front)
                stdlib:  token_urlsafe state, nonce + the stdlib PKCE + urllib.parse.urlencode(quote_via=quote)
                Authlib: generate_token(64) verifier, generate_token(43) state and nonce →
                         OAuth2Session.create_authorization_url(..., code_verifier=..., nonce=...)
  callback      binding: pending.handle_callback(url) → .code → close, timed alone: each needs a fresh
                         pending request (single-use), so a batch of them is built first, untimed. The row
                         below it adds the build (request.build → .state → callback), as a login pays both.
                stdlib:  urlsplit → parse_qs → secrets.compare_digest(state) → code
                Authlib: authlib.oauth2.rfc6749.parameters.parse_authorization_code_response(url, state)
"""
from __future__ import annotations

import base64
import ctypes
import hashlib
import os
import secrets
import subprocess
import sys
import time
from typing import Callable, Dict, List, Tuple
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import telenorid
from telenorid import _ffi

from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc6749.parameters import parse_authorization_code_response
from authlib.oauth2.rfc7636 import create_s256_code_challenge

N = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
ISSUER = "https://id.example.com"
ENDPOINT = "https://id.example.com/authorize"
CLIENT_ID = "tnn-example"
REDIRECT = "telenorid-example://authcallback/"
SCOPE = "openid profile offline_access"
CODE = "SplxlOBeZQQYbYS6WxSbIA"

config = telenorid.Config.from_settings(issuer=ISSUER, client_id=CLIENT_ID, redirect_uri=REDIRECT, scope=SCOPE,
                                        authorization_endpoint=ENDPOINT)
request = telenorid.AuthorizationRequest(config)
session = OAuth2Session(CLIENT_ID, redirect_uri=REDIRECT, scope=SCOPE, code_challenge_method="S256")
lib = _ffi.lib
c_void_p = ctypes.c_void_p


# --- PKCE pair ----------------------------------------------------------------------------------------

def binding_pkce() -> Tuple[str, str]:
    with telenorid.Pkce.new() as pkce:
        return pkce.verifier, pkce.challenge


def raw_take(function: Callable[..., int], handle: object) -> str:
    out = c_void_p()
    if function(handle, out):  # passed as the binding does: ctypes applies byref itself
        raise RuntimeError(function.__name__)
    try:
        return ctypes.c_char_p.from_address(ctypes.addressof(out)).value.decode()  # type: ignore[union-attr]
    finally:
        lib.telenorid_string_free(out)


def raw_pkce() -> Tuple[str, str]:
    pkce = _ffi.PkceP()
    if lib.telenorid_pkce_new(0, pkce):
        raise RuntimeError("pkce_new")
    try:
        return raw_take(lib.telenorid_pkce_verifier, pkce), raw_take(lib.telenorid_pkce_challenge, pkce)
    finally:
        lib.telenorid_pkce_free(pkce)


def stdlib_pkce() -> Tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def authlib_pkce() -> Tuple[str, str]:
    verifier = generate_token(64)
    return verifier, create_s256_code_challenge(verifier)


# --- authorization URL --------------------------------------------------------------------------------

def binding_url() -> str:
    with request.build() as pending:
        return pending.url


raw_request = request._pointer


def raw_url() -> str:
    pending = _ffi.PendingAuthP()
    if lib.telenorid_auth_request_build(raw_request, pending):
        raise RuntimeError("build")
    try:
        return raw_take(lib.telenorid_pending_auth_url, pending)
    finally:
        lib.telenorid_pending_auth_free(pending)


def stdlib_url() -> str:
    _verifier, challenge = stdlib_pkce()
    return ENDPOINT + "?" + urlencode({
        "response_type": "code", "client_id": CLIENT_ID, "redirect_uri": REDIRECT, "scope": SCOPE,
        "state": secrets.token_urlsafe(32), "nonce": secrets.token_urlsafe(32), "code_challenge": challenge,
        "code_challenge_method": "S256"}, quote_via=quote)


def authlib_url() -> str:
    url, _state = session.create_authorization_url(ENDPOINT, state=generate_token(43),
                                                   code_verifier=generate_token(64), nonce=generate_token(43))
    return url


# --- callback -----------------------------------------------------------------------------------------

STATE = "kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg"
CALLBACK = f"{REDIRECT}?code={CODE}&state={STATE}&scope=openid"
# The thread's CPU time (user + system) by default, so other processes competing for the CPUs do not inflate
# the figures; BENCH_CLOCK=wall for wall-clock time.
WALL = os.environ.get("BENCH_CLOCK") == "wall"
clock_ns = time.perf_counter_ns if WALL else time.thread_time_ns


def binding_callback_alone(n: int) -> float:
    """µs/op of handle_callback + code + close only. Each needs a fresh pending request (single-use): a batch
    of n is built first, untimed, then the n callbacks are timed as one loop."""
    batch = []
    for _ in range(n):
        pending = request.build()
        batch.append((pending, f"{REDIRECT}?code={CODE}&state={pending.state}&scope=openid"))
    start = clock_ns()
    for pending, url in batch:
        with pending.handle_callback(url) as callback:
            callback.code
    elapsed = clock_ns() - start
    for pending, _url in batch:
        pending.close()
    return elapsed / n / 1000


def binding_build_and_callback() -> str:
    with request.build() as pending:
        with pending.handle_callback(f"{REDIRECT}?code={CODE}&state={pending.state}&scope=openid") as callback:
            return callback.code


def stdlib_callback() -> str:
    params = parse_qs(urlsplit(CALLBACK).query)
    if not secrets.compare_digest(params["state"][0], STATE):
        raise ValueError("state")
    return params["code"][0]


def authlib_callback() -> str:
    return parse_authorization_code_response(CALLBACK, state=STATE)["code"]


# --- measuring ----------------------------------------------------------------------------------------

def loop(function: Callable[[], object]) -> Callable[[int], float]:
    def run(n: int) -> float:
        start = clock_ns()
        for _ in range(n):
            function()
        return (clock_ns() - start) / n / 1000
    return run


CASES: Dict[str, Callable[[int], float]] = {
    "pkce binding": loop(binding_pkce), "pkce raw": loop(raw_pkce), "pkce stdlib": loop(stdlib_pkce),
    "pkce authlib": loop(authlib_pkce),
    "url binding": loop(binding_url), "url raw": loop(raw_url), "url stdlib": loop(stdlib_url),
    "url authlib": loop(authlib_url),
    "cb binding": binding_callback_alone, "cb build+binding": loop(binding_build_and_callback),
    "cb stdlib": loop(stdlib_callback), "cb authlib": loop(authlib_callback),
}


def measure() -> Dict[str, float]:
    # Sanity: every contender produces what the others do.
    assert len(binding_url()) == len(raw_url()) == len(stdlib_url()), (binding_url(), stdlib_url())
    assert binding_build_and_callback() == stdlib_callback() == authlib_callback() == CODE
    best = {name: float("inf") for name in CASES}
    for name, run in CASES.items():  # warm-up
        run(max(1, N // 10))
    for _ in range(ROUNDS):
        for name, run in CASES.items():
            best[name] = min(best[name], run(N))
    return best


def import_ms(module: str) -> float:
    """Best of 5 fresh interpreters: time.perf_counter around `import module`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    code = f"import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"
    return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    env=env).stdout) for _ in range(5))


def main() -> None:
    best = measure()
    header = (f"through Python, µs/op, best of {ROUNDS} rounds x {N}", "binding", "raw ctypes", "stdlib", "Authlib",
              "Authlib/binding")
    print(f"{header[0]:52} {header[1]:>9} {header[2]:>10} {header[3]:>8} {header[4]:>8} {header[5]:>16}")
    rows: List[Tuple[str, float, object, float, float, str]] = [
        ("PKCE pair (64-char verifier + S256)", best["pkce binding"], best["pkce raw"], best["pkce stdlib"],
         best["pkce authlib"], "target >= 15x"),
        ("authorization URL (state+nonce+PKCE+URL)", best["url binding"], best["url raw"], best["url stdlib"],
         best["url authlib"], "target >= 15x"),
        ("callback parse+check (timed alone, build excluded)", best["cb binding"], "", best["cb stdlib"],
         best["cb authlib"], ""),
        ("  build + callback, as a login pays both", best["cb build+binding"], "", best["cb stdlib"],
         best["cb authlib"], ""),
    ]
    for label, ours, raw, stdlib, authlib, note in rows:
        raw_text = f"{raw:10.2f}" if isinstance(raw, float) else f"{'':>10}"
        print(f"  {label:50} {ours:9.2f} {raw_text} {stdlib:8.2f} {authlib:8.2f} {authlib / ours:8.1f}x"
              f" {note}")
    print(f"  ({'wall clock' if WALL else 'thread CPU time, user + system'}; the timed-alone callback runs over a "
          "batch of pending requests built beforehand)")
    ours_import, authlib_import = import_ms("telenorid"), import_ms("authlib.integrations.requests_client")
    print(f"import, ms wall clock, best of 5 fresh interpreters: telenorid {ours_import:.1f} (includes loading "
          f"libtelenorid.so), authlib.integrations.requests_client {authlib_import:.1f}, "
          f"ratio {authlib_import / ours_import:.1f}x")


if __name__ == "__main__":
    main()
