"""Benchmark, not a test: PKCE pair, authorization URL and callback check through the ctypes binding, beside
Authlib doing the same, in one run. Prints µs/op of the thread's CPU time (BENCH_CLOCK=wall: wall clock),
best round of several with the operations interleaved round by round so outside load hits all of them
alike, and the speed-up over Authlib.

Usage: PYTHONPATH=bindings/python python3 bench/bench_python.py [iterations per round] [rounds]

What each row measures:
  PKCE pair     binding: Pkce.new(43) → .verifier, .challenge → close
                one call: telenorid.pkce.generate(43), the same Authlib reference
                Authlib: generate_token(43) → create_s256_code_challenge
  auth URL      binding: request.build() → .url → close, on one AuthorizationRequest made up front with
                         prompt, ui_locales, acr_values and a claims request with purposes (OIDC Core §5.5;
                         OpenID Connect for Identity Assurance's `purpose`). Its PKCE verifier is 64
                         characters: building a request has no setting for the length.
                Authlib: generate_token(43) verifier, state and nonce →
                         OAuth2Session.create_authorization_url(..., code_verifier=..., nonce=..., claims=<the
                         same JSON>, prompt=..., ui_locales=..., acr_values=...)
  callback      binding: pending.handle_callback(url), the one call that parses and checks state, timed
                         alone: each needs a fresh pending request (single-use), so a batch of them is built
                         first, and the callbacks closed afterwards, untimed.
                Authlib (for scale; the goal is absolute): parse_authorization_code_response(url, state)
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Callable, Dict, Tuple
from urllib.parse import parse_qsl, urlsplit

import telenorid
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc6749.parameters import parse_authorization_code_response
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from bench_results import record

N = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
ISSUER = "https://id.example.com"
ENDPOINT = "https://id.example.com/authorize"
CLIENT_ID = "tnn-example"
REDIRECT = "telenorid-example://authcallback/"
SCOPE = "openid profile"
PARAMS = {"prompt": "login consent", "ui_locales": "nb en",
          "acr_values": "urn:telenor:loa:substantial urn:telenor:loa:high"}
ACR = ["urn:telenor:loa:substantial", "urn:telenor:loa:high"]
USERINFO = [("given_name", True, "To greet you by name"), ("family_name", True, "To address you"),
            ("email", False, "To send receipts")]
# The claims request as the library serializes the add_claim calls below, so both URLs carry the same.
CLAIMS = json.dumps({"id_token": {"acr": {"values": ACR}},
                     "userinfo": {name: {"essential": essential, "purpose": purpose}
                                  for name, essential, purpose in USERINFO}}, separators=(",", ":"))
CODE = "SplxlOBeZQQYbYS6WxSbIA"

config = telenorid.Config.from_settings(issuer=ISSUER, client_id=CLIENT_ID, redirect_uri=REDIRECT, scope=SCOPE,
                                        authorization_endpoint=ENDPOINT)
request = telenorid.AuthorizationRequest(config, **PARAMS)
for claim, essential, purpose in USERINFO:
    request.add_claim("userinfo", claim, essential=essential, purpose=purpose)
request.add_claim("id_token", "acr", values=ACR)
session = OAuth2Session(CLIENT_ID, redirect_uri=REDIRECT, scope=SCOPE, code_challenge_method="S256")


def binding_pkce() -> Tuple[str, str]:
    with telenorid.Pkce.new(43) as pkce:
        return pkce.verifier, pkce.challenge


def binding_pkce_generate() -> Tuple[str, str]:
    return telenorid.pkce.generate(43)


def authlib_pkce() -> Tuple[str, str]:
    verifier = generate_token(43)
    return verifier, create_s256_code_challenge(verifier)


def binding_url() -> str:
    with request.build() as pending:
        return pending.url


def authlib_url() -> str:
    url, _state = session.create_authorization_url(ENDPOINT, state=generate_token(43), code_verifier=generate_token(43),
                                                   nonce=generate_token(43), claims=CLAIMS, **PARAMS)
    return url


STATE = "kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg"
CALLBACK = f"{REDIRECT}?code={CODE}&state={STATE}&scope=openid"
# The thread's CPU time (user + system) by default, so other processes competing for the CPUs do not inflate
# the figures; BENCH_CLOCK=wall for wall-clock time.
WALL = os.environ.get("BENCH_CLOCK") == "wall"
clock_ns = time.perf_counter_ns if WALL else time.thread_time_ns


def binding_callback(n: int) -> float:
    """µs/op of handle_callback alone. Each needs a fresh pending request (single-use): a batch of n is built
    first, untimed, then the n calls are timed as one loop; the callbacks are checked and closed after."""
    batch = []
    for _ in range(n):
        pending = request.build()
        batch.append((pending, f"{REDIRECT}?code={CODE}&state={pending.state}&scope=openid"))
    callbacks = [None] * n
    start = clock_ns()
    for i, (pending, url) in enumerate(batch):
        callbacks[i] = pending.handle_callback(url)
    elapsed = clock_ns() - start
    for callback, (pending, _url) in zip(callbacks, batch):
        assert callback.code == CODE
        callback.close()
        pending.close()
    return elapsed / n / 1000


def authlib_callback() -> str:
    return parse_authorization_code_response(CALLBACK, state=STATE)["code"]


def loop(function: Callable[[], object]) -> Callable[[int], float]:
    def run(n: int) -> float:
        start = clock_ns()
        for _ in range(n):
            function()
        return (clock_ns() - start) / n / 1000
    return run


CASES: Dict[str, Callable[[int], float]] = {
    "pkce binding": loop(binding_pkce), "pkce authlib": loop(authlib_pkce),
    "pkce_generate binding": loop(binding_pkce_generate),
    "url binding": loop(binding_url), "url authlib": loop(authlib_url),
    "cb binding": binding_callback, "cb authlib": loop(authlib_callback),
}


def same_parameters() -> None:
    """Both URLs carry the same parameters; only the random values (state, nonce, challenge) differ."""
    ours, theirs = dict(parse_qsl(urlsplit(binding_url()).query)), dict(parse_qsl(urlsplit(authlib_url()).query))
    assert ours.keys() == theirs.keys(), (sorted(ours), sorted(theirs))
    random = {"state", "nonce", "code_challenge"}
    assert {k: v for k, v in ours.items() if k not in random} == {k: v for k, v in theirs.items() if k not in random}
    assert len(binding_pkce()[0]) == len(authlib_pkce()[0]) == len(binding_pkce_generate()[0]) == 43


def main() -> None:
    same_parameters()
    assert authlib_callback() == CODE
    best = {name: float("inf") for name in CASES}
    for run in CASES.values():  # warm-up
        run(max(1, N // 10))
    for _ in range(ROUNDS):
        for name, run in CASES.items():
            best[name] = min(best[name], run(N))
    print(f"{f'through Python, µs/op, best of {ROUNDS} rounds x {N}':60} {'binding':>9} {'Authlib':>9} {'speed-up':>9}")
    best["pkce_generate authlib"] = best["pkce authlib"]  # the one-call row shares the Authlib reference
    for label, key in (("PKCE pair (43-char verifier + S256)", "pkce"),
                       ("PKCE pair, one call (telenorid.pkce.generate)", "pkce_generate"),
                       ("authorization URL (claims, ui_locales, acr_values, prompt)", "url"),
                       ("callback: handle_callback alone (Authlib for scale)", "cb")):
        ours, theirs = best[f"{key} binding"], best[f"{key} authlib"]
        print(f"  {label:58} {ours:9.2f} {theirs:9.2f} {theirs / ours:8.1f}x")
        record(f"py_{key}", ours, theirs)
    print(f"  ({'wall clock' if WALL else 'thread CPU time, user + system'})")


if __name__ == "__main__":
    main()
