"""DPoP (RFC 9449) and pushed authorization requests (RFC 9126) when the provider misbehaves, through real
HTTP on 127.0.0.1 from Tests/support/fault_provider.py, which also checks every proof the library sends
the way RFC 9449 §4.3 asks of a server. Each failure gives its typed error after the number of requests the
RFC allows, and an existing auth state stays as it was."""
import hashlib
import json
import os
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

import telenorid

from fault_provider import Response, b64, jwk_thumbprint, verify_proof  # noqa: E402

CLIENT = "dpop-client"
REDIRECT = "http://127.0.0.1:53682/callback"
USE_NONCE = {"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof"}


pytestmark = pytest.mark.provider("fault")


@pytest.fixture(autouse=True)
def clean(provider):
    provider.seen.clear()
    provider.userinfo_behaviour = lambda: Response(body={"sub": "alice"})
    provider.par_behaviour = lambda form: Response(201, {"request_uri": "urn:ietf:params:oauth:request_uri:r-1",
                                                         "expires_in": 60})


def make_client(provider, **settings):
    """A client of the fault provider, DPoP with ES256 unless `settings` say otherwise (None: no DPoP). A new
    client per test: the DPoP nonces a client remembers (RFC 9449 §8) are its own."""
    timeout = os.environ.get("TELENORID_TEST_TIMEOUT_MS", "1500")
    settings = {"dpop_signing_alg": "ES256", **settings}
    config = telenorid.Config.from_settings(issuer=provider.issuer, client_id=CLIENT, redirect_uri=REDIRECT,
                                            timeout_ms=timeout, connect_timeout_ms=timeout, **settings)
    return telenorid.Client(config)


@pytest.fixture
def client(provider):
    with make_client(provider) as client:
        yield client


def answering(*first, then):
    """An endpoint behaviour answering the responses `first` in turn, and `then()` after them."""
    queue = list(first)
    return lambda *request: queue.pop(0) if queue else then()


def sign_in(client, provider, *first, token_type="DPoP"):
    """Builds an authorization with `client`, takes the browser's part as done (a callback with the pending
    request's state) and exchanges the code; the token endpoint answers `first`, then tokens of `token_type`."""
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    provider.token_behaviour = answering(*first, then=lambda: Response(
        body=provider.token_body(CLIENT, pending.nonce, token_type=token_type)))
    return client.exchange_code(callback)


def refresh_with(provider, *first):
    """The token endpoint's answers to a refresh: `first`, then at-2 bound to the proof's key."""
    provider.token_behaviour = answering(*first, then=lambda: Response(
        body=provider.token_body(CLIENT, None, token_type="DPoP", access_token="at-2")))


def at(provider, path):
    return [seen for seen in provider.seen if seen.path.partition("?")[0] == path]


def nonce_challenge(nonce="as-nonce-1"):
    return Response(400, USE_NONCE, headers={"DPoP-Nonce": nonce})


# 1. A server asking for a nonce again after the retry with the one it gave is an error, not a loop (§8).

def test_a_nonce_asked_for_again_at_the_code_exchange_is_an_error_after_one_retry(client, provider):
    with pytest.raises(telenorid.AuthorizationError) as caught:
        sign_in(client, provider, *[nonce_challenge()] * 3)
    assert (caught.value.oauth_error, caught.value.http_status) == ("use_dpop_nonce", 400)
    first, second = at(provider, "/token")
    assert "nonce" not in first.claims and second.claims["nonce"] == "as-nonce-1"


def test_a_nonce_asked_for_again_at_refresh_is_an_error_and_keeps_the_state(client, provider):
    state = sign_in(client, provider)
    before = state.serialize()
    provider.seen.clear()
    refresh_with(provider, *[nonce_challenge()] * 3)
    with pytest.raises(telenorid.AuthorizationError) as caught:
        state.refresh()
    assert not isinstance(caught.value, telenorid.AuthorizationLost)
    assert (caught.value.oauth_error, caught.value.http_status) == ("use_dpop_nonce", 400)
    assert [seen.claims.get("nonce") for seen in at(provider, "/token")] == [None, "as-nonce-1"]
    assert state.signed_in and state.serialize() == before


def test_a_nonce_asked_for_without_one_given_is_not_retried(client, provider):
    with pytest.raises(telenorid.AuthorizationError) as caught:
        sign_in(client, provider, Response(400, USE_NONCE))
    assert caught.value.oauth_error == "use_dpop_nonce"
    assert len(at(provider, "/token")) == 1


# 2. One challenge: the retry carries the nonce in a new proof, and later requests send it from the start.

def test_one_nonce_challenge_is_answered_and_the_nonce_remembered(client, provider):
    state = sign_in(client, provider, nonce_challenge("as-nonce-2"))
    assert state.get("token_type") == "DPoP"
    first, second = at(provider, "/token")
    assert "nonce" not in first.claims and second.claims["nonce"] == "as-nonce-2"
    assert first.claims["jti"] != second.claims["jti"]
    refresh_with(provider)
    state.refresh()
    third, = at(provider, "/token")[2:]
    assert third.claims["nonce"] == "as-nonce-2", "the remembered nonce needs no second round trip"
    assert state.get("access_token") == "at-2"


# 3, 4. The token type must match whether a proof was sent (RFC 9449 §5).

def test_a_bearer_answer_to_a_proof_is_refused(client, provider):
    with pytest.raises(telenorid.InvalidResponse):
        sign_in(client, provider, token_type="Bearer")
    token, = at(provider, "/token")
    assert token.proof is not None


def test_a_bearer_answer_to_a_refresh_is_refused_and_keeps_the_state(client, provider):
    state = sign_in(client, provider)
    before = state.serialize()
    provider.token_behaviour = lambda form: Response(body=provider.token_body(CLIENT, None, token_type="Bearer"))
    with pytest.raises(telenorid.InvalidResponse):
        state.refresh()
    assert len(at(provider, "/token")) == 2
    assert state.signed_in and state.serialize() == before


def test_a_bearer_answer_to_a_proof_is_taken_when_the_downgrade_is_allowed(provider):
    with make_client(provider, allow_bearer_downgrade=True) as client:
        state = sign_in(client, provider, token_type="Bearer")
        assert state.request_headers("GET", provider.issuer + "/api") == ("Bearer at-1", None)
        assert state.userinfo()["sub"] == "alice"
        userinfo, = at(provider, "/userinfo")
        assert userinfo.authorization == "Bearer at-1" and userinfo.dpop is None


def test_a_dpop_token_without_a_dpop_key_is_refused(provider):
    with make_client(provider, dpop_signing_alg=None) as client:
        with pytest.raises(telenorid.InvalidResponse):
            sign_in(client, provider, token_type="DPoP")
    token, = at(provider, "/token")
    assert token.dpop is None


# 5. Pushed authorization responses (RFC 9126 §2.2, §2.3).

PAR_ANSWERS = [
    ("no request_uri", Response(201, {"expires_in": 60})),
    ("request_uri a number", Response(201, {"request_uri": 5, "expires_in": 60})),
    ("no expires_in", Response(201, {"request_uri": "urn:x"})),
    ("negative expires_in", Response(201, {"request_uri": "urn:x", "expires_in": -60})),
    ("zero expires_in", Response(201, {"request_uri": "urn:x", "expires_in": 0})),
    ("expires_in a string", Response(201, {"request_uri": "urn:x", "expires_in": "60"})),
    ("not json", Response(201, "request_uri=urn:x", content_type="text/plain")),
    ("broken json", Response(201, '{"request_uri": "urn:x", "expires_in": 60')),
]


@pytest.mark.parametrize("name,answer", PAR_ANSWERS, ids=[a[0] for a in PAR_ANSWERS])
def test_a_push_answer_without_a_usable_request_uri_is_refused(provider, name, answer):
    provider.par_behaviour = lambda form: answer
    with make_client(provider, push_authorization_requests=True) as client:
        with pytest.raises(telenorid.InvalidResponse):
            client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    assert len(at(provider, "/par")) == 1 and at(provider, "/authorize") == []


def test_the_providers_refusal_of_a_push_keeps_its_fields(provider):
    provider.par_behaviour = lambda form: Response(400, {"error": "invalid_request", "error_description": "bad scope"})
    with make_client(provider, push_authorization_requests=True) as client:
        with pytest.raises(telenorid.PushRefused) as caught:
            client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    # Its own class, told apart from an error redirect at the callback, and still an AuthorizationError.
    assert isinstance(caught.value, telenorid.AuthorizationError) and caught.value.code == 26
    assert (caught.value.oauth_error, caught.value.oauth_error_description, caught.value.http_status) == (
        "invalid_request", "bad scope", 400)
    assert len(at(provider, "/par")) == 1


def test_a_push_is_proven_by_the_key_the_exchange_proves(provider):
    with make_client(provider, push_authorization_requests=True) as client:
        pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
        assert parse_qsl(urlsplit(pending.url).query) == [("client_id", CLIENT),
                                                          ("request_uri", "urn:ietf:params:oauth:request_uri:r-1")]
        provider.token_behaviour = lambda form: Response(body=provider.token_body(CLIENT, pending.nonce, token_type="DPoP"))
        state = client.exchange_code(pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}"))
    push, = at(provider, "/par")
    assert push.claims["htm"] == "POST" and push.claims["htu"] == provider.issuer + "/par"
    assert push.form["state"] == pending.state and push.form["nonce"] == pending.nonce
    token, = at(provider, "/token")
    assert jwk_thumbprint(push.header["jwk"]) == jwk_thumbprint(token.header["jwk"]) == state.get("dpop_thumbprint")


def test_a_push_carries_the_authorization_details_and_the_exchange_only_those_set_for_it(provider):
    """RFC 9396: the pushed request names the details asked for (§3); the code exchange asks for a subset
    only when the host set one (§6.1), else the provider decides."""
    asked = [{"type": "payment_initiation", "actions": ["initiate", "status"]},
             {"type": "account_information", "actions": ["read_balances"]}]
    subset = [{"type": "payment_initiation", "actions": ["initiate"]}]
    with make_client(provider, push_authorization_requests=True) as client:
        def sign_in_with(request):
            provider.seen.clear()
            pending = client.build_authorization(request)
            provider.token_behaviour = lambda form: Response(body=provider.token_body(CLIENT, pending.nonce, token_type="DPoP"))
            client.exchange_code(pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}"))
            push, = at(provider, "/par")
            token, = at(provider, "/token")
            return json.loads(push.form["authorization_details"]), token.form.get("authorization_details")

        with telenorid.AuthorizationRequest(client.config()) as request:
            request.set_authorization_details(asked)
            assert sign_in_with(request) == (asked, None)
            request.set_token_authorization_details(subset)
            pushed, sent = sign_in_with(request)
            assert pushed == asked and json.loads(sent) == subset
            with pytest.raises(telenorid.InvalidArgument):
                request.set_token_authorization_details([{"actions": ["initiate"]}])
            assert json.loads(sign_in_with(request)[1]) == subset  # the refused value changed nothing
            request.set_token_authorization_details(None)
            assert sign_in_with(request) == (asked, None)


def test_a_nonce_challenge_at_the_push_is_answered_once(provider):
    provider.par_behaviour = answering(nonce_challenge("par-nonce"), then=lambda: Response(
        201, {"request_uri": "urn:ietf:params:oauth:request_uri:r-2", "expires_in": 60}))
    with make_client(provider, push_authorization_requests=True) as client:
        pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    assert dict(parse_qsl(urlsplit(pending.url).query))["request_uri"] == "urn:ietf:params:oauth:request_uri:r-2"
    first, second = at(provider, "/par")
    assert "nonce" not in first.claims and second.claims["nonce"] == "par-nonce"
    assert first.claims["jti"] != second.claims["jti"] and first.form["state"] == second.form["state"]


# 6. A proof the provider rejects is its verdict: no retry.

def test_a_rejected_proof_at_the_code_exchange_is_not_retried(client, provider):
    rejected = Response(400, {"error": "invalid_dpop_proof", "error_description": "htu does not match"})
    with pytest.raises(telenorid.AuthorizationError) as caught:
        sign_in(client, provider, *[rejected] * 2)
    assert (caught.value.oauth_error, caught.value.oauth_error_description, caught.value.http_status) == (
        "invalid_dpop_proof", "htu does not match", 400)
    assert len(at(provider, "/token")) == 1


def test_a_rejected_proof_at_refresh_keeps_the_state(client, provider):
    state = sign_in(client, provider)
    before = state.serialize()
    provider.seen.clear()
    refresh_with(provider, *[Response(400, {"error": "invalid_dpop_proof", "error_description": "stale iat"})] * 2)
    with pytest.raises(telenorid.AuthorizationError) as caught:
        state.refresh()
    assert not isinstance(caught.value, telenorid.AuthorizationLost)
    assert (caught.value.oauth_error, caught.value.oauth_error_description) == ("invalid_dpop_proof", "stale iat")
    assert len(at(provider, "/token")) == 1
    assert state.signed_in and state.serialize() == before


# 7. The proofs themselves, as a server checks them (RFC 9449 §4.2, §4.3, §7.1).

PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}


@pytest.mark.parametrize("alg", ["ES256", "EdDSA", "PS256"])
def test_every_proof_is_valid_and_by_the_sign_ins_key(provider, alg):
    with make_client(provider, dpop_signing_alg=alg) as client:
        state = sign_in(client, provider)
        refresh_with(provider)
        state.refresh()
        access_token = state.get("access_token")
        assert state.userinfo()["sub"] == "alice"
        authorization, host_proof = state.request_headers("POST", provider.issuer + "/api/pay?amount=5#receipt")
    assert authorization == "DPoP " + access_token
    exchange, refresh = at(provider, "/token")
    userinfo, = at(provider, "/userinfo")
    proofs = [(exchange, "POST", "/token"), (refresh, "POST", "/token"), (userinfo, "GET", "/userinfo")]
    for seen, method, path in proofs:
        assert seen.proof_error is None and seen.proof is not None, f"{path}: {seen.proof_error}"
        assert seen.header["typ"] == "dpop+jwt" and seen.header["alg"] == alg
        assert not PRIVATE_MEMBERS & set(seen.header["jwk"]), "a proof's jwk is the public key only"
        assert seen.claims["htm"] == method and seen.claims["htu"] == provider.issuer + path
        assert abs(seen.claims["iat"] - time.time()) < 120
    ath = b64(hashlib.sha256(access_token.encode()).digest())
    assert "ath" not in exchange.claims and "ath" not in refresh.claims
    assert userinfo.claims["ath"] == ath and userinfo.authorization == "DPoP " + access_token
    assert all(seen.header["jwk"] == exchange.header["jwk"] for seen, _, _ in proofs), "one key per sign-in"
    assert jwk_thumbprint(exchange.header["jwk"]) == state.get("dpop_thumbprint")

    header, claims = verify_proof(host_proof)
    assert header["jwk"] == exchange.header["jwk"] and claims["ath"] == ath
    assert (claims["htm"], claims["htu"]) == ("POST", provider.issuer + "/api/pay"), "htu has no query or fragment (§4.2)"
    jtis = [seen.claims["jti"] for seen, _, _ in proofs] + [claims["jti"]]
    assert len(set(jtis)) == len(jtis)


# 8. A resource's nonce challenge (§9): one retry with the nonce, then an error.

RESOURCE_CHALLENGE = Response(401, b"", headers={
    "WWW-Authenticate": 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"',
    "DPoP-Nonce": "rs-nonce-1"})


def test_a_resources_nonce_challenge_is_answered_once(client, provider):
    state = sign_in(client, provider)
    provider.userinfo_behaviour = answering(RESOURCE_CHALLENGE, then=lambda: Response(body={"sub": "alice"}))
    assert state.userinfo()["sub"] == "alice"
    first, second = at(provider, "/userinfo")
    assert "nonce" not in first.claims and second.claims["nonce"] == "rs-nonce-1"
    assert first.claims["jti"] != second.claims["jti"] and second.claims["ath"] == first.claims["ath"]


def test_a_resource_asking_for_a_nonce_again_is_an_error_and_keeps_the_state(client, provider):
    state = sign_in(client, provider)
    before = state.serialize()
    provider.seen.clear()
    provider.userinfo_behaviour = lambda: RESOURCE_CHALLENGE
    refresh_with(provider)
    with pytest.raises(telenorid.AuthorizationError) as caught:
        state.userinfo()
    assert (caught.value.oauth_error, caught.value.http_status) == ("use_dpop_nonce", 401)
    assert len(at(provider, "/userinfo")) == 2 and at(provider, "/token") == []
    assert state.signed_in and state.serialize() == before
