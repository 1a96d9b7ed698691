"""telenorid.RequestsAuth and telenorid.HttpxAuth (sync and async) against the protected endpoints of real
providers: django-oauth-toolkit's userinfo with Bearer tokens (revoked there through RFC 7009 to make it
answer 401 invalid_token), and glewlwyd's with DPoP (RFC 9449), nonces demanded or not; and a machine's own
DPoP-bound token from glewlwyd (the client credentials grant, RFC 6749 §4.4) at a resource server that checks it
with the library's own ResourceServer."""
import asyncio
import base64
import http.server
import json
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

import httpx
import pytest
import requests

import telenorid

from browser import complete_login  # noqa: E402
from glewlwyd_provider import start_glewlwyd  # noqa: E402
from machine_clients import glewlwyd_machine  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"
CLIENTS = ["requests", "httpx", "httpx-async"]


@dataclass
class Result:
    status: int
    history: List[int]  # the statuses before the last, the 401 a retry answered
    sent: List[Dict[str, str]] = field(default_factory=list)  # the headers of every request that went out
    body: bytes = b""


def lowered(headers) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def call(kind: str, state: Union[telenorid.AuthState, telenorid.ClientCredentials], url: str,
         sent: Optional[List[Dict[str, str]]] = None) -> Result:
    """GET url with the auth of the client `kind` over `state` (a user's or a machine's tokens), recording in
    `sent` every request that goes out (a retry included)."""
    sent = [] if sent is None else sent
    if kind == "requests":

        class Recording(requests.adapters.HTTPAdapter):
            def send(self, request, **kwargs):
                sent.append(lowered(request.headers))
                return super().send(request, **kwargs)

        with requests.Session() as session:
            session.mount("http://", Recording())
            response = session.get(url, auth=telenorid.RequestsAuth(state), timeout=10)
            return Result(response.status_code, [r.status_code for r in response.history], sent, response.content)
    if kind == "httpx":
        with httpx.Client(auth=telenorid.HttpxAuth(state), timeout=10,
                          event_hooks={"request": [lambda request: sent.append(lowered(request.headers))]}) as http:
            response = http.get(url)
            return Result(response.status_code, [r.status_code for r in response.history], sent, response.content)

    async def record(request):
        sent.append(lowered(request.headers))

    async def main():
        async with httpx.AsyncClient(auth=telenorid.HttpxAuth(state), timeout=10,
                                     event_hooks={"request": [record]}) as http:
            response = await http.get(url)
            return Result(response.status_code, [r.status_code for r in response.history], sent, response.content)

    return asyncio.run(main())


def jwt_payload(token):
    return json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))


# --- django-oauth-toolkit: Bearer -----------------------------------------------------------------------


def signed_in(provider):
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT,
        scope="openid profile email"))
    pending = telenorid.AuthorizationRequest(client.config()).build()
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    return client.exchange_code(pending.handle_callback(redirect))


def revoke_at_provider(provider, token, hint):
    """RFC 7009 by the public client, behind the state's back (as an admin or another device would)."""
    response = requests.post(provider["issuer"] + "/revoke_token/", timeout=10, data={
        "token": token, "token_type_hint": hint, "client_id": provider["clients"]["public"]["client_id"]})
    assert response.status_code == 200


@pytest.mark.parametrize("kind", CLIENTS)
def test_userinfo_with_a_bearer_token(provider, kind):
    state = signed_in(provider)
    result = call(kind, state, provider["issuer"] + "/userinfo/")
    assert result.status == 200 and result.history == []
    assert json.loads(result.body)["sub"] == state.id_token_claims["sub"]
    assert len(result.sent) == 1
    assert result.sent[0]["authorization"] == "Bearer " + state.fresh_access_token()
    assert "dpop" not in result.sent[0]


@pytest.mark.parametrize("kind", CLIENTS)
def test_a_refused_refresh_is_lost_authorization_without_a_second_retry(provider, kind):
    """Django-oauth-toolkit revokes a refresh token's access token with it: userinfo answers 401
    invalid_token, and the refresh that follows, invalid_grant."""
    state = signed_in(provider)
    revoke_at_provider(provider, state.get("refresh_token"), "refresh_token")
    sent = []
    with pytest.raises(telenorid.AuthorizationLostError):
        call(kind, state, provider["issuer"] + "/userinfo/", sent)
    assert len(sent) == 1  # the request the 401 answered; the refresh was refused, so no retry
    assert not state.signed_in
    with pytest.raises(telenorid.NotSignedIn):
        call(kind, state, provider["issuer"] + "/userinfo/")


def test_a_second_401_is_returned_not_retried(provider, refusing):
    """A resource that refuses every token: the first 401 gets its one retry (after a real refresh), the
    second goes back to the caller, and the state stays signed in."""
    state = signed_in(provider)
    refusing.challenge = 'Bearer error="invalid_token", error_description="the token is \\"refused\\""'
    for kind in CLIENTS:
        refresh_token = state.get("refresh_token")
        result = call(kind, state, refusing.url)
        assert result.status == 401 and result.history == [401] and len(result.sent) == 2, kind
        assert state.get("refresh_token") != refresh_token, kind
    assert state.signed_in


class Refusing(http.server.ThreadingHTTPServer):
    """A resource server answering every request 401 with `challenge` and a new DPoP-Nonce, keeping the
    bodies it is sent."""

    daemon_threads = True
    challenge = ""
    nonces = 0
    bodies: List[bytes] = []

    def __init__(self):
        super().__init__(("127.0.0.1", 0), RefusingHandler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}/api"
        threading.Thread(target=self.serve_forever, daemon=True).start()


class RefusingHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.nonces += 1
        self.send_response(401)
        self.send_header("WWW-Authenticate", self.server.challenge)
        self.send_header("DPoP-Nonce", f"nonce-{self.server.nonces}")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        if self.headers.get("Transfer-Encoding") == "chunked":
            body = b""
            while size := int(self.rfile.readline(), 16):
                body += self.rfile.read(size)
                self.rfile.readline()
            self.rfile.readline()
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.bodies.append(body)
        self.do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def refusing():
    server = Refusing()
    yield server
    server.shutdown()
    server.server_close()


def test_the_retry_sends_the_body_again(provider, refusing):
    """A body goes out again with the retry; requests cannot send a generator's twice, so that one is not retried."""
    state = signed_in(provider)
    refusing.challenge = 'Bearer error="invalid_token"'

    def chunks():
        yield b"pay"
        yield b"load"

    async def async_chunks():
        for chunk in chunks():
            yield chunk

    async def async_post():
        async with httpx.AsyncClient(auth=telenorid.HttpxAuth(state), timeout=10) as http:
            return await http.post(refusing.url, content=async_chunks())

    with httpx.Client(auth=telenorid.HttpxAuth(state), timeout=10) as http:
        posts = [lambda: requests.post(refusing.url, data=b"payload", auth=telenorid.RequestsAuth(state), timeout=10),
                 lambda: http.post(refusing.url, content=chunks()),
                 lambda: asyncio.run(async_post())]
        for post in posts:
            refusing.bodies = []
            response = post()
            assert response.status_code == 401 and len(response.history) == 1
            assert refusing.bodies == [b"payload", b"payload"]
    refusing.bodies = []
    response = requests.post(refusing.url, data=chunks(), auth=telenorid.RequestsAuth(state), timeout=10)
    assert response.status_code == 401 and response.history == [] and refusing.bodies == [b"payload"]


# --- glewlwyd: DPoP --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def glewlwyd():
    with start_glewlwyd() as provider:
        yield provider


@pytest.mark.parametrize("kind", CLIENTS)
def test_a_revoked_access_token_is_refreshed_once_and_the_call_retried(glewlwyd, kind):
    """Glewlwyd keeps the refresh token alive when the access token alone is revoked (RFC 7009), and answers
    the revoked one at userinfo with a bare 401."""
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=glewlwyd.issuer, redirect_uri=glewlwyd.redirect_uri, scope="openid",
        client_id=glewlwyd.confidential_client_id, client_secret=glewlwyd.confidential_client_secret,
        token_endpoint_auth_method="client_secret_basic"))
    client.discover()
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    state = client.exchange_code(pending.handle_callback(glewlwyd.login(pending.url)))
    refreshed_on = []
    state.on_change(lambda: refreshed_on.append(threading.get_ident()))
    revoked, refresh_token = state.fresh_access_token(), state.get("refresh_token")
    # RFC 7009 by the confidential client, behind the state's back (glewlwyd refuses a public one).
    response = requests.post(glewlwyd.issuer + "/revoke", data={"token": revoked, "token_type_hint": "access_token"},
                             auth=(glewlwyd.confidential_client_id, glewlwyd.confidential_client_secret), timeout=10)
    assert response.status_code == 200

    url = glewlwyd.issuer + "/userinfo"
    result = call(kind, state, url)
    assert result.status == 200 and result.history == [401]
    assert json.loads(result.body)["sub"] == state.id_token_claims["sub"]
    assert [headers["authorization"] for headers in result.sent] == ["Bearer " + revoked,
                                                                      "Bearer " + state.fresh_access_token()]
    assert state.get("refresh_token") != refresh_token, "one refresh (the plugin rotates refresh tokens)"
    # The refresh ran on a worker thread in the async flow, the event loop's thread free meanwhile.
    assert len(refreshed_on) == 1
    assert (refreshed_on[0] != threading.get_ident()) == (kind == "httpx-async")


def dpop_signed_in(glewlwyd):
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=glewlwyd.issuer, redirect_uri=glewlwyd.redirect_uri, scope="openid", client_id=glewlwyd.fapi_client_id,
        client_private_key=glewlwyd.fapi_private_key_pem, token_endpoint_auth_method="private_key_jwt",
        client_assertion_audience="endpoint", dpop_signing_alg="ES256", dpop_bind_authorization_code=True))
    client.discover()
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    state = client.exchange_code(pending.handle_callback(glewlwyd.login(pending.url)))
    assert state.get("token_type") == "DPoP"
    return state


@pytest.mark.parametrize("kind", CLIENTS)
def test_userinfo_with_a_dpop_token_and_proof(glewlwyd, kind):
    state = dpop_signed_in(glewlwyd)
    url = glewlwyd.issuer + "/userinfo"
    result = call(kind, state, url)
    assert result.status == 200 and result.history == [] and len(result.sent) == 1
    assert json.loads(result.body)["sub"] == state.id_token_claims["sub"]
    sent = result.sent[0]
    assert sent["authorization"] == "DPoP " + state.fresh_access_token()
    proof = jwt_payload(sent["dpop"])
    assert proof["htm"] == "GET" and proof["htu"] == url and proof["ath"]


def test_a_demanded_dpop_nonce_is_passed_in_exactly_one_retry(refusing):
    """Glewlwyd, demanding nonces at userinfo, replaces its nonce every few proofs and sends the next one in
    DPoP-Nonce on its answers, 200s included (RFC 9449 §8.2, §9): the library keeps each, so a rotation
    costs no 401; a 401 `DPoP error="use_dpop_nonce"` gets exactly one retry carrying the nonce it gave."""
    with start_glewlwyd(dpop_nonce_required=True) as glewlwyd:
        state = dpop_signed_in(glewlwyd)
        url = glewlwyd.issuer + "/userinfo"
        for kind in CLIENTS:
            nonces, retries = [], 0
            for _ in range(8):  # glewlwyd's nonce lasts five proofs
                result = call(kind, state, url)
                assert result.status == 200, kind
                assert result.history in ([], [401]) and len(result.sent) == len(result.history) + 1
                if result.history:  # only before the first nonce is known
                    retries += 1
                    first, second = (jwt_payload(headers["dpop"]).get("nonce") for headers in result.sent)
                    assert second and second != first, kind
                nonces.append(jwt_payload(result.sent[-1]["dpop"]).get("nonce"))
            assert all(nonces) and len(set(nonces)) > 1, f"{kind}: the rotated nonces were not followed: {nonces}"
            assert retries <= 1, f"{kind}: {retries} nonce retries; a 200's DPoP-Nonce was not kept"

        # A resource that wants a new nonce every time gets one retry, with the nonce it gave.
        refusing.challenge = 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce"'
        for kind in CLIENTS:
            result = call(kind, state, refusing.url)
            assert result.status == 401 and result.history == [401] and len(result.sent) == 2, kind
            assert jwt_payload(result.sent[1]["dpop"])["nonce"] == f"nonce-{refusing.nonces - 1}"


# --- a machine's own token: glewlwyd's machine client, the library's own resource server ----------------------


class MachineResource(http.server.ThreadingHTTPServer):
    """A resource server on loopback checking glewlwyd's machine tokens with telenorid.ResourceServer: by
    introspection (RFC 7662, so a token revoked at glewlwyd is seen), then the DPoP proof against the method and
    URL it received and the token's key (RFC 9449 §4.3, §7.1), a nonce demanded (§9). It answers 200 with the
    token's client_id, or 401 with the error its check gave, and its DPoP-Nonce on both."""

    daemon_threads = True

    def __init__(self, server: telenorid.ResourceServer):
        super().__init__(("127.0.0.1", 0), MachineResourceHandler)
        self.checks = server
        self.url = f"http://127.0.0.1:{self.server_address[1]}/jobs"
        threading.Thread(target=self.serve_forever, daemon=True).start()


class MachineResourceHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        server = self.server.checks
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        info = server.introspect(token)
        if scheme != "DPoP" or not info.active:
            self.answer(401, 'DPoP error="invalid_token"')
            return
        url = f"http://127.0.0.1:{self.server.server_address[1]}{self.path}"
        try:
            server.verify_dpop(self.headers.get("DPoP", ""), self.command, url, token,
                               jkt=server.verify_access_token(token).cnf_jkt)
        except telenorid.TokenInvalidError as refusal:
            self.answer(401, f'DPoP error="{refusal.oauth_error}"')
            return
        self.answer(200, None, json.dumps({"client_id": info.client_id}).encode())

    def answer(self, status, challenge, body=b""):
        self.send_response(status)
        if challenge:
            self.send_header("WWW-Authenticate", challenge)
        self.send_header("DPoP-Nonce", self.server.checks.dpop_nonce())
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def machine_resource(glewlwyd):
    with telenorid.Client(telenorid.Config.from_settings(**glewlwyd_machine(glewlwyd))) as client, \
            telenorid.ResourceServer(client, glewlwyd.machine_scope, introspection_cache_max_age_s=0,
                                     dpop_require_nonce=True) as server:
        resource = MachineResource(server)
        yield resource
        resource.shutdown()
        resource.server_close()


@pytest.mark.parametrize("kind", CLIENTS)
def test_a_machine_token_is_renewed_once_when_refused_and_a_demanded_nonce_sent(glewlwyd, machine_resource, kind):
    """A ClientCredentials with a DPoP key: its first call is refused use_dpop_nonce and sent once more with the
    resource's nonce, the token kept; the next goes through at once; once glewlwyd has revoked the token
    (RFC 7009), the resource refuses it invalid_token and the one retry carries a new token."""
    config = telenorid.Config.from_settings(**glewlwyd_machine(glewlwyd, dpop_signing_alg="ES256"))
    with telenorid.Client(config) as client, telenorid.ClientCredentials(client, glewlwyd.machine_scope) as machine:
        url = machine_resource.url
        result = call(kind, machine, url)
        assert result.status == 200 and result.history == [401] and len(result.sent) == 2
        assert json.loads(result.body)["client_id"] == glewlwyd.machine_client_id
        first, second = result.sent
        token = first["authorization"]
        assert token.startswith("DPoP ") and second["authorization"] == token, "a nonce retry keeps the token"
        proofs = [jwt_payload(headers["dpop"]) for headers in result.sent]
        assert "nonce" not in proofs[0] and proofs[1]["nonce"]
        assert all(proof["htm"] == "GET" and proof["htu"] == url for proof in proofs)

        result = call(kind, machine, url)
        assert result.status == 200 and result.history == [], "the nonce was kept"
        assert [headers["authorization"] for headers in result.sent] == [token]

        # RFC 7009 by the machine client itself, behind the handle's back.
        response = requests.post(glewlwyd.issuer + "/revoke", data={"token": token.split(" ", 1)[1]},
                                 auth=(glewlwyd.machine_client_id, glewlwyd.machine_client_secret), timeout=10)
        assert response.status_code == 200
        result = call(kind, machine, url)
        assert result.status == 200 and result.history == [401] and len(result.sent) == 2
        refused, renewed = (headers["authorization"] for headers in result.sent)
        assert refused == token and renewed.startswith("DPoP ") and renewed != token
        assert machine.request_headers("GET", url)[0] == renewed, "the new token is the one held"
        assert jwt_payload(result.sent[1]["dpop"])["nonce"], "the nonce went with the new token too"


def test_a_machine_tokens_second_401_is_returned_not_retried(glewlwyd, refusing):
    """A resource that refuses every token: the first 401 gets its one retry with a new machine token, the
    second goes back to the caller."""
    refusing.challenge = 'Bearer error="invalid_token"'
    with telenorid.Client(telenorid.Config.from_settings(**glewlwyd_machine(glewlwyd))) as client, \
            telenorid.ClientCredentials(client, glewlwyd.machine_scope) as machine:
        for kind in CLIENTS:
            result = call(kind, machine, refusing.url)
            assert result.status == 401 and result.history == [401] and len(result.sent) == 2, kind
            refused, renewed = (headers["authorization"] for headers in result.sent)
            assert refused.startswith("Bearer ") and renewed != refused, kind


# --- the parts without a provider ------------------------------------------------------------------------


def test_the_auths_take_an_auth_state_or_client_credentials_and_are_documented():
    for auth in (telenorid.RequestsAuth, telenorid.HttpxAuth):
        for wrong in ("a token", telenorid.Config.from_settings(issuer="https://id.example", client_id="c")):
            with pytest.raises(TypeError) as refused:
                auth(wrong)
            assert "telenorid.AuthState" in str(refused.value) and "telenorid.ClientCredentials" in str(refused.value)
        for holder in (telenorid.AuthState, telenorid.ClientCredentials):
            assert holder.__name__ in auth.__doc__ and holder.__name__ in auth.__init__.__doc__, auth.__name__
        assert auth.__doc__.strip() and auth.__module__.startswith("telenorid")
        for name, member in vars(auth).items():
            if not name.startswith("_") and callable(member):
                assert (member.__doc__ or "").strip(), f"{auth.__name__}.{name}"
        assert auth.__init__.__doc__.strip()


def test_the_package_imports_without_the_http_clients():
    program = """
import sys
sys.modules["requests"] = None  # as if not installed
sys.modules["httpx"] = None
import telenorid
assert telenorid.Config and telenorid.AuthState
for name, extra in (("RequestsAuth", "requests"), ("HttpxAuth", "httpx")):
    try:
        getattr(telenorid, name)
    except ImportError as error:
        assert f"telenorid[{extra}]" in str(error), error
    else:
        raise AssertionError(name)
"""
    subprocess.run([sys.executable, "-c", program], check=True, timeout=60)
