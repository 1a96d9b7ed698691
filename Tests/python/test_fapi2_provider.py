"""A sign-in in FAPI 2.0 mode (security_profile="fapi2") through the ctypes binding against idpyoidc's OpenID
provider (PyPI, written by someone else), started on 127.0.0.1 by Tests/support/fapi_provider.py: PAR
(RFC 9126), private_key_jwt addressed to the issuer (RFC 7523, FAPI 2.0 §5.3.2.1), DPoP with a key the library
makes (RFC 9449), PKCE S256 (RFC 7636), iss in the authorization response (RFC 9207), then refresh and userinfo
with the bound token. Each step is also checked on the provider's side, from what it received."""
import hashlib
import json
import base64
import urllib.parse

import pytest

import telenorid

pytest.importorskip("idpyoidc", reason="idpyoidc is not installed (scripts/setup.sh installs it)")
from fapi_provider import start_fapi_provider  # noqa: E402

# idpyoidc warns that its password login form is for tests only, as it is used here.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the \"UserPassJinja2\"")


@pytest.fixture(scope="module")
def provider():
    with start_fapi_provider() as running:
        yield running


def b64url_sha256(text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


def fapi2_client(provider, **extra):
    settings = dict(issuer=provider.issuer, client_id=provider.client_id, redirect_uri=provider.redirect_uri,
                    scope="openid profile email offline_access", security_profile="fapi2",
                    token_endpoint_auth_method="private_key_jwt", client_private_key=json.dumps(provider.client_private_jwk),
                    dpop_signing_alg="ES256")
    settings.update(extra)
    client = telenorid.Client(telenorid.Config.from_settings(**settings))
    client.discover()
    return client


def test_fapi2_sign_in_refresh_and_userinfo(provider):
    client = fapi2_client(provider)
    # offline_access for a refresh token, with the consent OpenID Connect Core §11 asks for it.
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config(), prompt="consent"))

    # Pushed (RFC 9126 §4): the browser carries client_id and request_uri only; the provider stored the
    # request, with PKCE S256, and the push was authenticated by an assertion addressed to the issuer.
    front = urllib.parse.parse_qs(urllib.parse.urlsplit(pending.url).query)
    assert sorted(front) == ["client_id", "request_uri"]
    pushed = provider.pushed[front["request_uri"][0]]
    assert pushed["code_challenge_method"] == "S256" and len(pushed["code_challenge"]) == 43
    assert pushed["state"] and pushed["nonce"] == pending.nonce
    (push,) = provider.at("par")
    assert push["status"] == 201 and 0 < push["response"]["expires_in"] < 600
    assert push["form"]["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    header, assertion = push["assertion"]
    assert assertion["aud"] == provider.issuer, "FAPI 2.0 §5.3.2.1: the issuer, as a string"
    assert assertion["iss"] == assertion["sub"] == provider.client_id
    assert header["alg"] == "ES256" and header["kid"] == provider.client_private_jwk["kid"]

    # RFC 9207: the callback names the issuer, and the library takes it.
    callback = provider.login(pending.url)
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(callback).query)["iss"] == [provider.issuer]
    state = client.exchange_code(pending.handle_callback(callback))
    assert state.signed_in
    assert state.id_token_claims["iss"] == provider.issuer and state.id_token_claims["nonce"] == pending.nonce

    # The code exchange: assertion to the issuer, a DPoP proof for /token, PKCE verifier; a DPoP-bound token.
    (exchange,) = provider.at("token")
    assert exchange["status"] == 200 and exchange["form"]["grant_type"] == "authorization_code"
    assert exchange["assertion"][1]["aud"] == provider.issuer
    assert exchange["assertion"][1]["jti"] != assertion["jti"]
    assert b64url_sha256(exchange["form"]["code_verifier"]) == pushed["code_challenge"]
    proof = exchange["dpop"]
    assert proof["header"]["typ"] == "dpop+jwt" and proof["header"]["alg"] == "ES256"
    assert proof["payload"]["htm"] == "POST" and proof["payload"]["htu"] == provider.issuer + "/token"
    thumbprint = state.get("dpop_thumbprint")
    assert proof["jkt"] == thumbprint
    assert exchange["response"]["token_type"] == "DPoP" and state.get("token_type") == "DPoP"
    assert exchange["access_token_claims"]["cnf"] == {"jkt": thumbprint}

    # Userinfo with the bound token: Authorization DPoP, a proof by the same key with ath (RFC 9449 §7).
    assert state.userinfo()["email"] == provider.user["email"]
    (userinfo,) = provider.at("userinfo")
    assert userinfo["status"] == 200
    token = state.fresh_access_token()
    assert userinfo["headers"]["authorization"] == "DPoP " + token
    assert userinfo["dpop"]["jkt"] == thumbprint
    assert userinfo["dpop"]["payload"]["ath"] == b64url_sha256(token)
    assert userinfo["dpop"]["payload"]["htm"] == "GET"

    # Refresh: assertion to the issuer again, a proof by the sign-in's key, a new token bound to it.
    state.refresh()
    refresh = provider.at("token")[-1]
    assert refresh["status"] == 200 and refresh["form"]["grant_type"] == "refresh_token"
    assert refresh["assertion"][1]["aud"] == provider.issuer
    assert refresh["dpop"]["jkt"] == thumbprint
    assert refresh["access_token_claims"]["cnf"] == {"jkt": thumbprint}
    assert state.get("token_type") == "DPoP" and state.fresh_access_token() != token
    assert state.userinfo()["sub"] == state.id_token_claims["sub"]
    assert provider.at("userinfo")[-1]["dpop"]["payload"]["ath"] == b64url_sha256(state.fresh_access_token())


def test_the_provider_refuses_an_assertion_addressed_to_the_endpoint():
    """The harness's provider holds the issuer as the assertion's one audience (FAPI 2.0 §5.3.2.1): outside
    FAPI 2.0 mode, an assertion addressed to the push endpoint's URL is refused there."""
    with start_fapi_provider() as provider:
        client = fapi2_client(provider, security_profile=None, client_assertion_audience="endpoint",
                              push_authorization_requests=True)
        with pytest.raises(telenorid.TelenoridError):
            client.build_authorization(telenorid.AuthorizationRequest(client.config()))
        (refused,) = provider.at("par")
        assert refused["assertion"][1]["aud"] == provider.issuer + "/par"
        assert refused["status"] == 401 and refused["response"]["error"] == "invalid_client"
