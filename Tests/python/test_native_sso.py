"""OpenID Connect Native SSO for Mobile Apps 1.0 through the ctypes binding: a first app signs in with the
device_sso scope and keeps the device secret (§3.4), and a second app of the vendor signs the same user in from
that app's ID token and device secret (§4, a token exchange).

TEST DOUBLE: no provider here implements Native SSO (idpyoidc, django-oauth-toolkit, glewlwyd and LemonLDAP::NG
issue no device secret), so the provider is Tests/support/fault_provider.py, the programmable stand-in, answering
as the spec says: its ID tokens (RS256) carry ds_hash, the base64url of the left half of the SHA-256 of the
device secret (§3.4), and its token endpoint checks the exchange's form (§4.2) before it answers (§4.4)."""
import base64
import hashlib
import json

import pytest

import telenorid
from fault_provider import FaultProvider, Response

APP_ONE, APP_TWO = "vendor-app-one", "vendor-app-two"
REDIRECT_ONE, REDIRECT_TWO = "com.example.one:/callback", "com.example.two:/callback"
DEVICE_SECRET = "ds-6f1c2b9e-device"
EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"


def ds_hash(secret: str) -> str:
    digest = hashlib.sha256(secret.encode()).digest()
    return base64.urlsafe_b64encode(digest[:len(digest) // 2]).rstrip(b"=").decode()


@pytest.fixture
def double():
    with FaultProvider() as provider:
        yield provider


def app(double, client_id, redirect, scope="openid device_sso"):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=double.issuer, client_id=client_id, redirect_uri=redirect, scope=scope))


def first_app_signs_in(double, secret=DEVICE_SECRET, **id_claims):
    """The first app's sign-in with device_sso: the double's token response carries the device secret and an
    ID token with its ds_hash and a sid (§3.4)."""
    client = app(double, APP_ONE, REDIRECT_ONE)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT_ONE}?code=one&state={pending.state}")
    claims = dict(ds_hash=ds_hash(secret), sid="device-session-1") | id_claims
    double.token_behaviour = lambda form: Response(200, double.token_body(
        APP_ONE, pending.nonce, device_secret=secret, id_token=double.id_token(APP_ONE, pending.nonce, **claims)))
    return client, client.exchange_code(callback)


def answer_exchange(double, seen, **overrides):
    """The double's Native SSO answer (§4.4) for the second app, after it kept the form it received."""
    def behaviour(form):
        seen.append(form)
        if form.get("grant_type") != EXCHANGE:
            return Response(400, {"error": "unsupported_grant_type"})
        body = {"access_token": "two-at", "token_type": "Bearer", "expires_in": 300, "refresh_token": "two-rt",
                "issued_token_type": telenorid.TokenType.ACCESS_TOKEN, "scope": "openid",
                "id_token": double.id_token(APP_TWO, None, ds_hash=ds_hash(DEVICE_SECRET), sid="device-session-1")}
        body.update(overrides)
        return Response(200, {k: v for k, v in body.items() if v is not None})
    double.token_behaviour = behaviour


def test_the_first_app_keeps_the_device_secret_and_the_second_signs_in(double, tmp_path):
    _, first = first_app_signs_in(double)
    assert first.get("device_secret") == DEVICE_SECRET
    assert first.id_token_claims["ds_hash"] == ds_hash(DEVICE_SECRET)
    # Kept with the tokens: serialized (and so in stores), restored, never in the state's repr.
    saved = first.serialize()
    assert json.loads(saved)["device_secret"] == DEVICE_SECRET
    assert DEVICE_SECRET not in repr(first)
    restored = app(double, APP_ONE, REDIRECT_ONE).restore(saved)
    assert restored.get("device_secret") == DEVICE_SECRET

    # The platform's shared storage is the host's: the second app reads the pair from it.
    id_token, secret = first.get("id_token"), first.get("device_secret")
    seen = []
    answer_exchange(double, seen)
    second_client = app(double, APP_TWO, REDIRECT_TWO)
    second = second_client.native_sso(id_token, secret)
    assert second.signed_in and second.fresh_access_token() == "two-at"
    assert second.get("refresh_token") == "two-rt"
    assert second.id_token_claims["aud"] == APP_TWO and second.id_token_claims["sub"] == "alice"
    assert second.get("device_secret") == DEVICE_SECRET, "the one in force, kept for the next app"
    # §4.2: what the second app sent.
    (form,) = seen
    assert form["grant_type"] == EXCHANGE and form["client_id"] == APP_TWO
    assert form["subject_token"] == id_token and form["subject_token_type"] == telenorid.TokenType.ID_TOKEN
    assert form["actor_token"] == secret and form["actor_token_type"] == telenorid.TokenType.DEVICE_SECRET
    assert form["actor_token_type"] == "urn:openid:params:token-type:device-secret"
    assert form["audience"] == double.issuer and form["scope"] == "openid device_sso"


def test_a_new_device_secret_in_the_answer_replaces_the_old(double):
    _, first = first_app_signs_in(double)
    seen = []
    answer_exchange(double, seen, device_secret="ds-rotated",
                    id_token=double.id_token(APP_TWO, None, ds_hash=ds_hash("ds-rotated")))
    second = app(double, APP_TWO, REDIRECT_TWO).native_sso(first.get("id_token"), DEVICE_SECRET, "openid")
    assert second.get("device_secret") == "ds-rotated"
    assert seen[0]["scope"] == "openid"


@pytest.mark.parametrize("change, error, message", [
    # The answer's ID token must carry the ds_hash of the device secret in force (§3.4)...
    (dict(id_token_claims=dict(ds_hash=ds_hash("another secret"))), telenorid.TokenInvalidError, "ds_hash"),
    (dict(id_token_claims=dict(ds_hash=None)), telenorid.TokenInvalidError, "ds_hash"),
    # ... and name the user whose ID token was exchanged.
    (dict(id_token_claims=dict(sub="mallory")), telenorid.TokenInvalidError, "another user"),
    # ... and be there, with an access token (§4.4).
    (dict(id_token=None), telenorid.InvalidResponseError, "id_token"),
    (dict(issued_token_type=telenorid.TokenType.REFRESH_TOKEN), telenorid.InvalidResponseError, "not an access"),
    (dict(issued_token_type=None), telenorid.InvalidResponseError, "issued_token_type"),
])
def test_what_the_second_app_refuses(double, change, error, message):
    _, first = first_app_signs_in(double)
    claims = change.pop("id_token_claims", None)
    if claims is not None:
        base = dict(ds_hash=ds_hash(DEVICE_SECRET), sid="device-session-1") | claims
        change["id_token"] = double.id_token(APP_TWO, None, **{k: v for k, v in base.items() if v is not None})
    answer_exchange(double, [], **change)
    with pytest.raises(error, match=message):
        app(double, APP_TWO, REDIRECT_TWO).native_sso(first.get("id_token"), DEVICE_SECRET)


def test_a_mismatched_pair_never_leaves_the_device(double):
    _, first = first_app_signs_in(double)
    seen = []
    answer_exchange(double, seen)
    second = app(double, APP_TWO, REDIRECT_TWO)
    with pytest.raises(telenorid.InvalidArgumentError, match="ds_hash"):
        second.native_sso(first.get("id_token"), "not the device secret")
    with pytest.raises(telenorid.InvalidArgumentError, match="not a JWS"):
        second.native_sso("not-a-jwt", DEVICE_SECRET)
    with pytest.raises(telenorid.InvalidArgumentError, match="openid"):
        second.native_sso(first.get("id_token"), DEVICE_SECRET, "profile")
    with pytest.raises(TypeError):
        second.native_sso(first.get("id_token"), None)
    with FaultProvider() as elsewhere:  # an ID token of another issuer
        with pytest.raises(telenorid.InvalidArgumentError, match="issuer"):
            app(elsewhere, APP_TWO, REDIRECT_TWO).native_sso(first.get("id_token"), DEVICE_SECRET)
    assert seen == [], "no request left"


def test_the_provider_refusing_the_exchange(double):
    _, first = first_app_signs_in(double)
    double.token_behaviour = lambda form: Response(400, {"error": "invalid_grant",
                                                         "error_description": "device secret expired"})
    with pytest.raises(telenorid.AuthorizationError) as raised:
        app(double, APP_TWO, REDIRECT_TWO).native_sso(first.get("id_token"), DEVICE_SECRET)
    assert raised.value.oauth_error == "invalid_grant"
    assert DEVICE_SECRET not in str(raised.value)


def test_a_first_sign_in_whose_id_token_does_not_bind_the_device_secret_is_refused(double):
    """§3.4: with a device secret, the ID token carries its ds_hash; one for another secret is refused."""
    with pytest.raises(telenorid.TokenInvalidError, match="ds_hash"):
        first_app_signs_in(double, ds_hash=ds_hash("another secret"))
