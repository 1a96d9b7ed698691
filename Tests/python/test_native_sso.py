"""OpenID Connect Native SSO for Mobile Apps 1.0 through the ctypes binding: a first app signs in with the
device_sso scope and keeps the device secret (§3.4), and a second app of the vendor signs the same user in from
that app's ID token and device secret (§4, a token exchange).

TEST DOUBLE: no provider here implements Native SSO (idpyoidc, django-oauth-toolkit, glewlwyd and LemonLDAP::NG
issue no device secret), so the provider is Tests/support/native_sso_provider.py, the one double the C and Java
tests start too, answering as the spec says (see there); here it runs in-process, so a test can also make one
answer wrong."""
import json

import pytest

import telenorid
from native_sso_provider import APPS, NativeSsoProvider, authorize, half_hash

APP_ONE, APP_TWO = APPS


@pytest.fixture
def double():
    with NativeSsoProvider() as provider:
        yield provider


def app(double, client_id, scope="openid device_sso"):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=double.issuer, client_id=client_id, redirect_uri=APPS[client_id], scope=scope))


def first_app_signs_in(double):
    """The first app's sign-in with device_sso, the code flow with PKCE: the double's token response carries the
    device secret and an ID token with its ds_hash and a sid (§3.4)."""
    client = app(double, APP_ONE)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    return client, client.exchange_code(pending.handle_callback(authorize(pending.url)))


def test_the_first_app_keeps_the_device_secret_and_the_second_signs_in(double, tmp_path):
    _, first = first_app_signs_in(double)
    secret = first.get("device_secret")
    assert secret.startswith("ds-") and first.id_token_claims["ds_hash"] == half_hash(secret)
    # Kept with the tokens: serialized (and so in stores), restored, never in the state's repr.
    saved = first.serialize()
    assert json.loads(saved)["device_secret"] == secret
    assert secret not in repr(first)
    restored = app(double, APP_ONE).restore(saved)
    assert restored.get("device_secret") == secret

    # The platform's shared storage is the host's: the second app reads the pair from it.
    id_token = first.get("id_token")
    second = app(double, APP_TWO).native_sso(id_token, secret)
    assert second.signed_in and second.fresh_access_token().startswith("at-")
    assert second.get("refresh_token").startswith("rt-")
    assert second.id_token_claims["aud"] == APP_TWO and second.id_token_claims["sub"] == "alice"
    assert second.id_token_claims["sid"] == first.id_token_claims["sid"]
    assert second.get("device_secret") == secret, "the one in force, kept for the next app"
    # §4.2: what the second app sent.
    (form,) = double.exchanges
    assert form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange" and form["client_id"] == APP_TWO
    assert form["subject_token"] == id_token and form["subject_token_type"] == telenorid.TokenType.ID_TOKEN
    assert form["actor_token"] == secret and form["actor_token_type"] == telenorid.TokenType.DEVICE_SECRET
    assert form["actor_token_type"] == "urn:openid:params:token-type:device-secret"
    assert form["audience"] == double.issuer and form["scope"] == "openid device_sso"


def test_a_new_device_secret_in_the_answer_replaces_the_old(double):
    _, first = first_app_signs_in(double)
    double.rotates = True
    second = app(double, APP_TWO).native_sso(first.get("id_token"), first.get("device_secret"), "openid")
    rotated = second.get("device_secret")
    assert rotated.startswith("ds-") and rotated != first.get("device_secret")
    assert second.id_token_claims["ds_hash"] == half_hash(rotated)
    assert double.exchanges[0]["scope"] == "openid"


@pytest.mark.parametrize("change, error, message", [
    # The answer's ID token must carry the ds_hash of the device secret in force (§3.4)...
    (dict(answer_claims=dict(ds_hash=half_hash("another secret"))), telenorid.TokenInvalidError, "ds_hash"),
    (dict(answer_claims=dict(ds_hash=None)), telenorid.TokenInvalidError, "ds_hash"),
    # ... and name the user whose ID token was exchanged.
    (dict(answer_claims=dict(sub="mallory")), telenorid.TokenInvalidError, "another user"),
    # ... and be there, with an access token (§4.4).
    (dict(answer_changes=dict(id_token=None)), telenorid.InvalidResponseError, "id_token"),
    (dict(answer_changes=dict(issued_token_type=telenorid.TokenType.REFRESH_TOKEN)), telenorid.InvalidResponseError,
     "not an access"),
    (dict(answer_changes=dict(issued_token_type=None)), telenorid.InvalidResponseError, "issued_token_type"),
])
def test_what_the_second_app_refuses(double, change, error, message):
    _, first = first_app_signs_in(double)
    for name, value in change.items():
        setattr(double, name, value)
    with pytest.raises(error, match=message):
        app(double, APP_TWO).native_sso(first.get("id_token"), first.get("device_secret"))


def test_a_mismatched_pair_never_leaves_the_device(double):
    _, first = first_app_signs_in(double)
    secret, received = first.get("device_secret"), len(double.requests)
    second = app(double, APP_TWO)
    with pytest.raises(telenorid.InvalidArgumentError, match="ds_hash"):
        second.native_sso(first.get("id_token"), "not the device secret")
    with pytest.raises(telenorid.InvalidArgumentError, match="not a JWS"):
        second.native_sso("not-a-jwt", secret)
    with pytest.raises(telenorid.InvalidArgumentError, match="openid"):
        second.native_sso(first.get("id_token"), secret, "profile")
    with pytest.raises(TypeError):
        second.native_sso(first.get("id_token"), None)
    with NativeSsoProvider() as elsewhere:  # an ID token of another issuer
        with pytest.raises(telenorid.InvalidArgumentError, match="issuer"):
            app(elsewhere, APP_TWO).native_sso(first.get("id_token"), secret)
        assert elsewhere.exchanges == []
    assert double.exchanges == [] and double.requests[received:] == [], "no request left"


def test_the_provider_refusing_the_exchange(double):
    """The double ends the device session when the first app revokes its grant (see native_sso_provider.py)."""
    _, first = first_app_signs_in(double)
    id_token, secret = first.get("id_token"), first.get("device_secret")
    first.revoke()
    with pytest.raises(telenorid.AuthorizationError) as raised:
        app(double, APP_TWO).native_sso(id_token, secret)
    assert raised.value.oauth_error == "invalid_grant"
    assert raised.value.oauth_error_description == "the device session has ended"
    assert raised.value.http_status == 400
    assert secret not in str(raised.value)


def test_a_first_sign_in_whose_id_token_does_not_bind_the_device_secret_is_refused(double):
    """§3.4: with a device secret, the ID token carries its ds_hash; one for another secret is refused."""
    double.sign_in_claims = dict(ds_hash=half_hash("another secret"))
    with pytest.raises(telenorid.TokenInvalidError, match="ds_hash"):
        first_app_signs_in(double)
