#!/usr/bin/env python3
"""The provider of the Native SSO tests of every language (Tests/python/test_native_sso.py,
Tests/c/test_native_sso.c, bindings/jni's NativeSsoTest): OpenID Connect Native SSO for Mobile Apps 1.0
(draft 07, the sections Sources/TelenoridCore/Grants/NativeSSO.swift cites).

TEST DOUBLE: no provider installed here implements Native SSO (idpyoidc, django-oauth-toolkit, glewlwyd and
LemonLDAP::NG issue no device secret), so this is the fault provider (fault_provider.py) answering as the spec
says, for two public clients of one vendor (APPS) and one user, alice, who is signed in at the provider:

  - GET /authorize (the code flow with PKCE, RFC 7636) redirects at once to the client's redirect URI with a
    code; POST /token exchanges it once, for the client it was issued to, when the verifier fits the S256
    challenge (RFC 7636 §4.6), for an access and a refresh token and an ID token of a new session (sid). With
    device_sso in the scope (§3.1) the answer brings a device secret, long and random, bound to that
    session, and the ID token its ds_hash (§3.4);
  - POST /token with the token exchange grant (§4.2) is checked as §4.3 asks: the client is one of the
    vendor's, the audience this issuer, the subject token an ID token this provider issued, the actor token
    a device secret of the same session whose ds_hash that ID token carries, and the session still on; then
    (§4.4) an access token with an ID token for the asking client, of the same user and session, carrying
    the ds_hash of the device secret in force (a new one when `rotates`). Any other pair is invalid_grant;
  - POST /revoke (RFC 7009) of a refresh token, by the client it was issued to, ends the session it belongs
    to: the device secret of that session signs no other app in after (invalid_grant). Providers do this as
    "log out of all the vendor's apps"; here it is the double's policy, the way a test makes the provider
    refuse a well-formed exchange.

    native_sso_provider.py               serves; prints {"issuer": ..., "apps": {client id: redirect URI}} on
                                         one line, then answers each line "requests" on its standard input
                                         with {"requests": N}, how many HTTP requests it has received, until
                                         that input closes
    native_sso_provider.py authorize URL plays the browser: prints where the authorization URL redirects

In-process (`with NativeSsoProvider() as provider:`), a test can also make an answer wrong in one way
(sign_in_claims, answer_changes, answer_claims) and read the token exchanges it received (`exchanges`).

The device secrets and their ds_hash come from issue_device_secret(), which Tests/c/secrets_provider.py
uses too."""
from __future__ import annotations

import hashlib
import json
import secrets
import sys
import urllib.error
import urllib.request
from typing import Optional

from fault_provider import FaultProvider, Response, b64, unb64

APPS = {"vendor-app-one": "com.example.one:/callback", "vendor-app-two": "com.example.two:/callback"}
USER = "alice"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
DEVICE_SECRET_TYPE = "urn:openid:params:token-type:device-secret"  # §4.1


def half_hash(value: str) -> str:
    """OIDC Core §3.1.3.6's at_hash of `value` for RS256: the base64url of the left half of its SHA-256. Native
    SSO §3.4 makes ds_hash the same way, of the device secret."""
    return b64(hashlib.sha256(value.encode()).digest()[:16])


def issue_device_secret(body: dict, claims: dict) -> str:
    """§3.4: a new device secret, long and random, in the token response `body` and its ds_hash in the ID token's
    `claims`; returns the secret."""
    secret = "ds-" + secrets.token_urlsafe(40)
    body["device_secret"] = secret
    claims["ds_hash"] = half_hash(secret)
    return secret


def authorize(url: str) -> str:
    """The browser's part: where the authorization URL redirects (the Location of its answer)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(url)
    except urllib.error.HTTPError as answer:
        if answer.headers["Location"]:
            return answer.headers["Location"]
    raise RuntimeError("the authorization endpoint did not redirect")


def _refused(description: str) -> Response:
    return Response(400, {"error": "invalid_grant", "error_description": description})


class NativeSsoProvider(FaultProvider):
    def __init__(self) -> None:
        super().__init__()
        self.pending: dict[str, dict] = {}  # code → its authorization request's query
        self.device_secrets: dict[str, str] = {}  # device secret → the sid of its session
        self.refresh_tokens: dict[str, tuple[str, str]] = {}  # refresh token → (its client, the sid of its session)
        self.id_tokens: dict[str, str] = {}  # ID token issued → the sid of its session
        self.ended: set[str] = set()  # the sids of ended sessions
        self.exchanges: list[dict] = []  # the forms of the token exchanges received, in order
        self.rotates = False  # §4.4: the exchange's answer brings a new device secret
        # A provider wrong in one way, for in-process tests: claims added to or replaced in (None: left out of)
        # the code flow's ID token; members of the exchange's answer; claims of the exchange answer's ID token.
        self.sign_in_claims: dict = {}
        self.answer_changes: dict = {}
        self.answer_claims: dict = {}
        self.token_behaviour = self._token
        self.authorize_behaviour = self._authorize
        self.revocation_behaviour = self._revoke

    def _authorize(self, query: dict) -> Response:
        client = query.get("client_id")
        if APPS.get(client) != query.get("redirect_uri") or query.get("response_type") != "code" or \
                query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return Response(400, {"error": "invalid_request"})
        code = secrets.token_urlsafe(16)
        self.pending[code] = query
        return Response(302, headers={"Location": f"{query['redirect_uri']}?code={code}&state={query.get('state', '')}"})

    def _token(self, form: dict) -> Response:
        client = form.get("client_id")
        if client not in APPS:
            return Response(401, {"error": "invalid_client"})
        if form.get("grant_type") == "authorization_code":
            return self._code(client, form)
        if form.get("grant_type") == TOKEN_EXCHANGE:
            self.exchanges.append(form)
            return self._exchange(client, form)
        return Response(400, {"error": "unsupported_grant_type"})

    def _tokens(self, client: str, scope: str, sid: str, nonce: Optional[str], claims: dict) -> dict:
        """A token response for `client` in session `sid`, its ID token with `claims` (None leaves one out)."""
        access, refresh = "at-" + secrets.token_urlsafe(32), "rt-" + secrets.token_urlsafe(32)
        self.refresh_tokens[refresh] = (client, sid)
        body = {"access_token": access, "token_type": "Bearer", "expires_in": 300, "refresh_token": refresh,
                "scope": scope}
        claims = {"sid": sid, "at_hash": half_hash(access)} | claims
        body["id_token"] = self.id_token(client, nonce, **{"sub": USER} | claims)
        self.id_tokens[body["id_token"]] = sid
        return body

    def _code(self, client: str, form: dict) -> Response:
        request = self.pending.pop(form.get("code", ""), None)
        verifier = form.get("code_verifier", "")
        if request is None or request["client_id"] != client or request["redirect_uri"] != form.get("redirect_uri") \
                or b64(hashlib.sha256(verifier.encode()).digest()) != request["code_challenge"]:
            return _refused("the code is not one issued to this client, or the verifier does not fit it")
        scope, sid, claims, secret = request.get("scope", ""), "sid-" + secrets.token_urlsafe(12), {}, None
        extra: dict = {}
        if "device_sso" in scope.split():
            secret = issue_device_secret(extra, claims)
            self.device_secrets[secret] = sid
        body = self._tokens(client, scope, sid, request.get("nonce"), claims | self.sign_in_claims) | extra
        return Response(body=body)

    def _exchange(self, client: str, form: dict) -> Response:
        """§4.3's checks of the exchange, then §4.4's answer."""
        if form.get("audience") != self.issuer or form.get("subject_token_type") != ID_TOKEN_TYPE or \
                form.get("actor_token_type") != DEVICE_SECRET_TYPE or "openid" not in form.get("scope", "").split():
            return Response(400, {"error": "invalid_request"})
        id_token, secret = form.get("subject_token", ""), form.get("actor_token", "")
        sid = self.id_tokens.get(id_token)
        if sid is None or self.device_secrets.get(secret) != sid:
            return _refused("the ID token and the device secret are not of one device session")
        claims = json.loads(unb64(id_token.split(".")[1]))
        if claims.get("ds_hash") != half_hash(secret):
            return _refused("the ID token does not carry the device secret's ds_hash")
        if sid in self.ended:
            return _refused("the device session has ended")
        answer_claims: dict = {}
        extra: dict = {}
        if self.rotates:
            del self.device_secrets[secret]
            secret = issue_device_secret(extra, answer_claims)
            self.device_secrets[secret] = sid
        else:
            answer_claims["ds_hash"] = half_hash(secret)
        body = self._tokens(client, form["scope"], sid, None, answer_claims | self.answer_claims) | extra
        body["issued_token_type"] = ACCESS_TOKEN_TYPE
        body.update(self.answer_changes)
        return Response(body={name: value for name, value in body.items() if value is not None})

    def _revoke(self, form: dict) -> Response:
        """RFC 7009 §2.2: 200 whatever the token; a refresh token's revocation ends its session here."""
        client, sid = self.refresh_tokens.get(form.get("token", ""), (None, None))
        if sid is not None and client == form.get("client_id"):
            del self.refresh_tokens[form["token"]]
            self.ended.add(sid)
        return Response(200)


def serve() -> None:
    with NativeSsoProvider() as provider:
        print(json.dumps({"issuer": provider.issuer, "apps": APPS}), flush=True)
        for line in sys.stdin:
            if line.strip() == "requests":
                print(json.dumps({"requests": len(provider.requests)}), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["authorize"]:
        print(authorize(sys.argv[2]), flush=True)
    else:
        serve()
