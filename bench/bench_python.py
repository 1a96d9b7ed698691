"""Benchmark, not a test: PKCE pair, authorization URL and callback parse through the ctypes binding,
beside Python's standard library and Authlib, in one run. Prints µs/op and ratios."""
import base64
import hashlib
import secrets
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import telenorid
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc6749.parameters import parse_authorization_code_response
from authlib.oauth2.rfc7636 import create_s256_code_challenge

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
ENDPOINT = "https://id.example.com/authorize"
REDIRECT = "telenorid-example://authcallback/"
SCOPE = "openid profile offline_access"


def timed(function, n=N):
    function()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            function()
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


config = telenorid.Config.from_settings(issuer="https://id.example.com", client_id="tnn-example",
                                        redirect_uri=REDIRECT, scope=SCOPE, authorization_endpoint=ENDPOINT)
request = telenorid.AuthorizationRequest(config)
session = OAuth2Session("tnn-example", redirect_uri=REDIRECT, scope=SCOPE, code_challenge_method="S256")


def ours_pkce():
    with telenorid.Pkce(64) as pkce:
        return pkce.verifier, pkce.challenge


def stdlib_pkce():
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def authlib_pkce():
    verifier = generate_token(64)
    return verifier, create_s256_code_challenge(verifier)


def ours_url():
    with request.build() as pending:
        return pending.url


def stdlib_url():
    verifier, challenge = stdlib_pkce()
    return ENDPOINT + "?" + urlencode({
        "response_type": "code", "client_id": "tnn-example", "redirect_uri": REDIRECT, "scope": SCOPE,
        "state": secrets.token_urlsafe(32), "nonce": secrets.token_urlsafe(32), "code_challenge": challenge,
        "code_challenge_method": "S256"})


def authlib_url():
    verifier = generate_token(64)
    url, _state = session.create_authorization_url(ENDPOINT, code_verifier=verifier, nonce=generate_token(32))
    return url


STATE = "kTqoLsHKpsKhr0IDw7-KlG-rDPsvsrS_PPMRQ2C4XFg"
CALLBACK = f"{REDIRECT}?code=SplxlOBeZQQYbYS6WxSbIA&state={STATE}&scope=openid"


def ours_build_and_callback():
    with request.build() as pending:
        with pending.handle_callback(f"{REDIRECT}?code=SplxlOBeZQQYbYS6WxSbIA&state={pending.state}&scope=openid") as cb:
            return cb.code


def ours_build_and_state():
    with request.build() as pending:
        return f"{REDIRECT}?code=SplxlOBeZQQYbYS6WxSbIA&state={pending.state}&scope=openid"


def stdlib_callback():
    params = parse_qs(urlsplit(CALLBACK).query)
    if not secrets.compare_digest(params["state"][0], STATE):
        raise ValueError("state")
    return params["code"][0]


def authlib_callback():
    return parse_authorization_code_response(CALLBACK, state=STATE)["code"]


def import_ms(module):
    best = float("inf")
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", f"import time; t=time.perf_counter(); import {module}; "
                              "print((time.perf_counter()-t)*1000)"], capture_output=True, text=True, check=True,
                             env={"PYTHONPATH": ":".join(sys.path)})
        best = min(best, float(out.stdout))
    return best


rows = [
    ("PKCE pair", timed(ours_pkce), timed(stdlib_pkce), timed(authlib_pkce)),
    ("authorization URL", timed(ours_url), timed(stdlib_url), timed(authlib_url)),
    ("callback parse+check (net of build)", timed(ours_build_and_callback) - timed(ours_build_and_state),
     timed(stdlib_callback), timed(authlib_callback)),
]
print(f"{'through ctypes (µs/op)':38} {'telenorid':>10} {'stdlib':>10} {'Authlib':>10} {'Authlib/ours':>13}")
for label, ours, stdlib, authlib in rows:
    print(f"{label:38} {ours:10.2f} {stdlib:10.2f} {authlib:10.2f} {authlib / ours:12.1f}x")
print(f"{'import time (ms, best of 5)':38} {import_ms('telenorid'):10.1f} {'':>10} "
      f"{import_ms('authlib.integrations.requests_client'):10.1f}")
