"""Benchmark, not a test: ID token validation (OIDC Core §3.1.3.7: RS256 signature, iss, aud, exp, iat,
nonce) through the telenorid binding beside PyJWT, joserfc and Authlib validating the same token with the
same key and the same checks, in one run.

Usage: PYTHONPATH=bindings/python python3 bench/bench_id_token.py [validations per round] [rounds]

The token is signed here with a fresh 2048-bit RSA key (pyca/cryptography); telenorid fetches the key
set once from a loopback HTTP server in this process and caches it, the others get the key object
directly. Prints µs per validation (thread CPU time), best round of several with the libraries
interleaved round by round, and each one's ratio to telenorid (> 1: telenorid is faster).
"""
from __future__ import annotations

import base64
import http.server
import json
import sys
import threading
import time
import warnings
from typing import Callable, Dict

import telenorid

CLIENT_ID = "bench-client"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    from cryptography.hazmat.primitives.asymmetric import rsa
    import jwt as pyjwt

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "RSA", "kid": "bench-1", "alg": "RS256", "use": "sig",
           "n": b64(numbers.n.to_bytes(256, "big")), "e": b64(numbers.e.to_bytes(3, "big"))}
    jwks = json.dumps({"keys": [jwk]}).encode()

    class KeySet(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(jwks)))
            self.end_headers()
            self.wfile.write(jwks)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), KeySet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    issuer = f"http://127.0.0.1:{server.server_address[1]}"
    now = int(time.time())
    nonce = "n-0S6_WzA2Mj"
    claims = {"iss": issuer, "sub": "248289761001", "aud": CLIENT_ID, "exp": now + 3600, "iat": now, "nonce": nonce,
              "auth_time": now, "name": "Jane Doe", "email": "janedoe@example.com"}
    token = pyjwt.encode(claims, key, algorithm="RS256", headers={"kid": "bench-1"})

    config = telenorid.Config.from_settings(issuer=issuer, client_id=CLIENT_ID, redirect_uri="com.example.app:/oauth2redirect",
                                            jwks_uri=issuer + "/jwks", authorization_endpoint=issuer + "/authorize",
                                            token_endpoint=issuer + "/token")
    client = telenorid.Client(config)

    def with_telenorid() -> object:
        return client.verify_id_token(token, nonce=nonce)

    public = key.public_key()

    def with_pyjwt() -> object:
        decoded = pyjwt.decode(token, public, algorithms=["RS256"], audience=CLIENT_ID, issuer=issuer,
                               options={"require": ["exp", "iat", "sub"]})
        if decoded.get("nonce") != nonce:
            raise ValueError("nonce")
        return decoded

    from joserfc import jwt as jose_jwt
    from joserfc.jwk import RSAKey
    jose_key = RSAKey.import_key(jwk)
    registry = jose_jwt.JWTClaimsRegistry(iss={"essential": True, "value": issuer}, aud={"essential": True, "value": CLIENT_ID},
                                          sub={"essential": True}, exp={"essential": True}, iat={"essential": True},
                                          nonce={"essential": True, "value": nonce})

    def with_joserfc() -> object:
        decoded = jose_jwt.decode(token, jose_key, algorithms=["RS256"])
        registry.validate(decoded.claims)
        return decoded

    # authlib.jose announces its own deprecation (in favour of joserfc) with a filter of its own: silenced here.
    shown, warnings.showwarning = warnings.showwarning, lambda *args, **kwargs: None
    from authlib.jose import JsonWebKey, jwt as authlib_jwt
    warnings.showwarning = shown
    authlib_key = JsonWebKey.import_key(jwk)
    options = {"iss": {"essential": True, "value": issuer}, "aud": {"essential": True, "value": CLIENT_ID},
               "sub": {"essential": True}, "exp": {"essential": True}, "iat": {"essential": True},
               "nonce": {"essential": True, "value": nonce}}

    def with_authlib() -> object:
        decoded = authlib_jwt.decode(token, authlib_key, claims_options=options)
        decoded.validate(now=int(time.time()))
        return decoded

    table: Dict[str, Callable[[], object]] = {
        "telenorid Client.verify_id_token": with_telenorid, "PyJWT jwt.decode (+ nonce)": with_pyjwt,
        "joserfc jwt.decode + JWTClaimsRegistry": with_joserfc, "Authlib jwt.decode + claims.validate": with_authlib}
    for function in table.values():  # key set fetched, caches warm; each must accept the token
        for _ in range(20):
            function()
    best = {name: float("inf") for name in table}
    for _ in range(rounds):
        for name, function in table.items():
            start = time.thread_time()
            for _ in range(n):
                function()
            best[name] = min(best[name], (time.thread_time() - start) / n * 1e6)
    ours = best["telenorid Client.verify_id_token"]
    print(f"ID token validation from Python (RS256, 2048-bit key), µs/op thread CPU time, best of {rounds} rounds of {n}")
    print(f"  {'':40} {'µs/op':>8} {'ratio':>7}")
    for name, micros in best.items():
        print(f"  {name:40} {micros:8.1f} {micros / ours:7.2f}")
    print("  (ratio: that library's time / telenorid's; > 1 means telenorid is faster)")
    server.shutdown()


if __name__ == "__main__":
    main()
