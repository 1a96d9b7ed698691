#!/usr/bin/env python3
"""The provider of test_secrets.c, in a process of its own so that none of its copies of the secrets is in
the memory the test scans: the fault provider (Tests/support/fault_provider.py) as a strict confidential-
client provider with long random secrets, so that no copy can hide in a Swift small string.

    secrets_provider.py                 serves; prints {"issuer", "client_id", "client_secret"} on one line,
                                        then serves until killed or its parent goes away
    secrets_provider.py authorize URL   plays the browser: prints where the authorization URL redirects

The token endpoint takes the client's secret by client_secret_basic or client_secret_post (RFC 6749
§2.3.1) and nothing else, checks the PKCE verifier (RFC 7636 §4.6), issues a fresh access and refresh
token for every grant and rotates the refresh token (RFC 6749 §6), as DPoP-bound tokens (token_type DPoP,
RFC 9449 §5) when the request carried a proof, which must verify, and by the key the authorization request
named in dpop_jkt (§10) when it named one; userinfo wants the current access
token as a bearer (RFC 6750 §2.1); revocation (RFC 7009) wants the client's secret too.

A code exchange whose authorization request asked for the device_sso scope also brings a device secret
(OpenID Connect Native SSO 1.0 §3.4), long and random, with its ds_hash in the ID token, made by
Tests/support/native_sso_provider.py's issue_device_secret. TEST DOUBLE for that part, as that module is:
none of the real providers of the tests (idpyoidc, django-oauth-toolkit, glewlwyd, LemonLDAP::NG) issues
device secrets.

Access tokens are JWTs (RFC 9068: typ at+jwt, signed with the provider's key of its jwks_uri, for the
resource server <issuer>/api, with a random jti, so no two are alike), which a resource server verifies
locally; a DPoP-bound one carries its key's thumbprint (RFC 9449 §6.1)."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import sys
import time
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "support"))
from fault_provider import FaultProvider, Response, b64, jwk_thumbprint  # noqa: E402
from native_sso_provider import authorize, half_hash, issue_device_secret  # noqa: E402

CLIENT_ID = "secrets-client"


def serve() -> None:
    secret = secrets.token_urlsafe(36)
    pending: dict[str, dict] = {}  # code → the authorization request's query
    issued = {"access": set(), "refresh": set()}

    with FaultProvider() as provider:
        def authenticated(form: dict) -> bool:
            header = provider.last_authorization
            if header:
                scheme, _, credentials = header.partition(" ")
                client, _, password = base64.b64decode(credentials).decode().partition(":")
                return scheme.lower() == "basic" and "client_secret" not in form and \
                    (unquote(client), unquote(password)) == (CLIENT_ID, secret)
            return (form.get("client_id"), form.get("client_secret")) == (CLIENT_ID, secret)

        def access_token() -> str:
            now = int(time.time())
            claims = {"iss": provider.issuer, "sub": "alice", "aud": provider.issuer + "/api", "client_id": CLIENT_ID,
                      "iat": now, "exp": now + 300, "jti": secrets.token_urlsafe(40)}
            proof = provider.seen[-1].proof
            if proof is not None:
                claims["cnf"] = {"jkt": jwk_thumbprint(proof[0]["jwk"])}
            return provider.keys[0].sign(claims, {"typ": "at+jwt"})

        def fresh_tokens(nonce, device_sso=False) -> Response:
            access, refresh = access_token(), "rt-" + secrets.token_urlsafe(40)
            issued["access"].add(access)
            issued["refresh"].add(refresh)
            token_type = "DPoP" if provider.seen[-1].dpop is not None else "Bearer"
            body = {"access_token": access, "token_type": token_type, "expires_in": 300, "refresh_token": refresh}
            if nonce is not None:
                claims = {"at_hash": half_hash(access)}
                if device_sso:
                    issue_device_secret(body, claims)
                body["id_token"] = provider.id_token(CLIENT_ID, nonce, **claims)
            return Response(body=body)

        def token(form: dict) -> Response:
            if not authenticated(form):
                return Response(401, {"error": "invalid_client"})
            if provider.seen[-1].dpop is not None and provider.seen[-1].proof is None:
                return Response(400, {"error": "invalid_dpop_proof"})
            if form.get("grant_type") == "authorization_code":
                request = pending.pop(form.get("code", ""), None)
                verifier = form.get("code_verifier", "")
                if request is None or b64(hashlib.sha256(verifier.encode()).digest()) != request["code_challenge"]:
                    return Response(400, {"error": "invalid_grant"})
                proof = provider.seen[-1].proof
                if "dpop_jkt" in request and (proof is None or jwk_thumbprint(proof[0]["jwk"]) != request["dpop_jkt"]):
                    return Response(400, {"error": "invalid_dpop_proof"})
                return fresh_tokens(request.get("nonce"), "device_sso" in request.get("scope", "").split())
            if form.get("grant_type") == "refresh_token":
                if form.get("refresh_token") not in issued["refresh"]:
                    return Response(400, {"error": "invalid_grant"})
                issued["refresh"].discard(form["refresh_token"])
                return fresh_tokens(None)
            return Response(400, {"error": "unsupported_grant_type"})

        def authorize(query: dict) -> Response:
            code = secrets.token_urlsafe(16)
            pending[code] = query
            return Response(302, headers={"Location": f"{query['redirect_uri']}?code={code}&state={query['state']}"})

        def userinfo() -> Response:
            scheme, _, access = (provider.last_authorization or "").partition(" ")
            if scheme != "Bearer" or access not in issued["access"]:
                return Response(401, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
            return Response(body={"sub": "alice"})

        def revoke(form: dict) -> Response:
            if not authenticated(form):
                return Response(401, {"error": "invalid_client"})
            issued["refresh"].discard(form.get("token"))
            issued["access"].discard(form.get("token"))
            return Response(200)

        provider.token_behaviour = token
        provider.authorize_behaviour = authorize
        provider.userinfo_behaviour = userinfo
        provider.revocation_behaviour = revoke
        print(json.dumps({"issuer": provider.issuer, "client_id": CLIENT_ID, "client_secret": secret}), flush=True)
        parent = os.getppid()
        while os.getppid() == parent:
            time.sleep(0.2)


if __name__ == "__main__":
    if sys.argv[1:2] == ["authorize"]:
        print(authorize(sys.argv[2]), flush=True)
    else:
        serve()
