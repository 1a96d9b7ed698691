"""Benchmark, not a test: ID token validation (OIDC Core §3.1.3.7: RS256 signature with the key the token's
kid picks from a 2-key set, iss, aud, exp, iat, nonce) through the telenorid binding beside joserfc and
Authlib validating the same token against the same key set, in one run.

Usage: PYTHONPATH=bindings/python python3 bench/bench_id_token.py <issuer> <fixture folder> <nonce>
       [validations per round] [rounds]

The fixture is bench/make_id_token.py's (token, jwks.json); telenorid fetches the key set once from
<issuer>/jwks (bench/token_server.sh) and caches it. What each does per validation:
  telenorid  Client.verify_id_token(token, nonce=...)
  joserfc    jwt.decode(token, KeySet) + JWTClaimsRegistry(iss, aud, exp, iat, nonce).validate, the key set
             imported once
  Authlib    OpenIDMixin.parse_id_token (authlib.integrations.base_client, what its framework clients call
             after a code exchange) with CodeIDToken claims; it imports the key set from the provider metadata
             on every call, as Authlib does
Prints µs per validation (thread CPU time), best round of several with the libraries interleaved round by
round, and each one's time / telenorid's (> 1: telenorid is faster).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Callable, Dict

import telenorid
from authlib.integrations.base_client.sync_openid import OpenIDMixin
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.jwk import KeySet

from bench_results import record

CLIENT_ID = "bench-client"


class AuthlibClient(OpenIDMixin):
    """The two things OpenIDMixin asks of the framework client it is mixed into: the client id and the
    provider metadata (here holding the key set, so nothing is fetched)."""

    def __init__(self, issuer: str, jwks: dict) -> None:
        self.client_id = CLIENT_ID
        self.server_metadata = {"issuer": issuer, "jwks": jwks, "id_token_signing_alg_values_supported": ["RS256"]}

    def load_server_metadata(self) -> dict:
        return self.server_metadata


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    issuer, folder, nonce = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    token = (folder / "token").read_text().strip()
    jwks = json.loads((folder / "jwks.json").read_text())

    config = telenorid.Config.from_settings(issuer=issuer, client_id=CLIENT_ID, redirect_uri="com.example.app:/oauth2redirect",
                                            jwks_uri=issuer + "/jwks", authorization_endpoint=issuer + "/authorize",
                                            token_endpoint=issuer + "/token")
    client = telenorid.Client(config)

    def with_telenorid() -> object:
        return client.verify_id_token(token, nonce=nonce)

    key_set = KeySet.import_key_set(jwks)
    registry = jwt.JWTClaimsRegistry(iss={"essential": True, "value": issuer}, aud={"essential": True, "value": CLIENT_ID},
                                     exp={"essential": True}, iat={"essential": True},
                                     nonce={"essential": True, "value": nonce})

    def with_joserfc() -> object:
        decoded = jwt.decode(token, key_set, algorithms=["RS256"])
        registry.validate(decoded.claims)
        return decoded

    authlib = AuthlibClient(issuer, jwks)

    def with_authlib() -> object:
        return authlib.parse_id_token({"id_token": token}, nonce, claims_cls=CodeIDToken)

    table: Dict[str, Callable[[], object]] = {
        "telenorid Client.verify_id_token": with_telenorid, "joserfc jwt.decode + JWTClaimsRegistry": with_joserfc,
        "Authlib OpenIDMixin.parse_id_token": with_authlib}
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
    print(f"ID token validation from Python (RS256, 2048-bit key, 2-key set), µs/op thread CPU time, best of {rounds} "
          f"rounds of {n}")
    print(f"  {'':40} {'µs/op':>8} {'ratio':>7}")
    for name, micros in best.items():
        print(f"  {name:40} {micros:8.1f} {micros / ours:7.2f}")
    print("  (ratio: that library's time / telenorid's; > 1 means telenorid is faster)")
    record("py_id_token_joserfc", ours, best["joserfc jwt.decode + JWTClaimsRegistry"])
    record("py_id_token_authlib", ours, best["Authlib OpenIDMixin.parse_id_token"])


if __name__ == "__main__":
    main()
