"""Sign-in, refresh and revocation through the ctypes binding against glewlwyd 2.7.5 (the Debian package,
an OpenID provider written by someone else), started on 127.0.0.1 by Tests/support/glewlwyd_provider.py."""
import base64
import os
import urllib.error
import urllib.parse
import urllib.request

import pytest

import telenorid

from glewlwyd_provider import BINARY, USER, start_glewlwyd  # noqa: E402

if not os.access(BINARY, os.X_OK):
    pytest.skip("glewlwyd is not installed (scripts/setup.sh installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def glewlwyd():
    with start_glewlwyd() as provider:
        yield provider


def sign_in(glewlwyd, **client_settings):
    settings = dict(issuer=glewlwyd.issuer, client_id=glewlwyd.client_id, redirect_uri=glewlwyd.redirect_uri,
                    scope="openid")
    settings.update(client_settings)
    client = telenorid.Client(telenorid.Config.from_settings(**settings))
    client.discover()
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    redirect = glewlwyd.login(pending.url)
    return client, pending, client.exchange_code(pending.handle_callback(redirect))


def raw_refresh(glewlwyd, refresh_token):
    """The token endpoint's answer to a refresh (RFC 6749 §6) by the confidential client, without the library."""
    body = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": refresh_token}).encode()
    credentials = base64.b64encode(
        f"{glewlwyd.confidential_client_id}:{glewlwyd.confidential_client_secret}".encode()).decode()
    request = urllib.request.Request(glewlwyd.issuer + "/token", data=body, method="POST",
                                     headers={"Authorization": "Basic " + credentials})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_sign_in_and_refresh(glewlwyd):
    client, pending, state = sign_in(glewlwyd)
    assert state.signed_in
    claims = state.id_token_claims
    assert claims["iss"] == glewlwyd.issuer
    assert claims["aud"] == glewlwyd.client_id
    assert claims["nonce"] == pending.nonce
    assert claims["sub"]
    assert claims["email"] == USER["email"] and claims["name"] == USER["name"]
    assert client.verify_id_token(state.get("id_token"), nonce=pending.nonce)["header"]["alg"] == "RS256"

    access, refresh = state.fresh_access_token(), state.get("refresh_token")
    state.refresh()
    assert state.signed_in
    assert state.fresh_access_token() != access
    assert state.get("refresh_token") != refresh, "the plugin is configured to rotate refresh tokens"


def test_refresh_after_revocation_elsewhere_signs_out(glewlwyd):
    # The confidential client: glewlwyd refuses RFC 7009 revocation from a public one (see glewlwyd_provider).
    client, _, first = sign_in(glewlwyd, client_id=glewlwyd.confidential_client_id,
                               client_secret=glewlwyd.confidential_client_secret,
                               token_endpoint_auth_method="client_secret_basic")
    second = client.restore(first.serialize())  # the same sign-in, kept by a second process or device
    refresh_token = first.get("refresh_token")
    first.revoke()  # RFC 7009, from the first copy
    assert not first.signed_in

    # Glewlwyd 2.7.5 answers a revoked refresh token with a bare "400 Bad Request": headers Date,
    # Access-Control-Allow-Origin: *, Access-Control-Allow-Credentials: true, Cache-Control: no-store,
    # Pragma: no-cache, X-Frame-Options: deny, Referrer-Policy: no-referrer, Content-Length: 0; no
    # Content-Type and an empty body, so no RFC 6749 §5.2 "invalid_grant" for the client to read.
    status, headers, body = raw_refresh(glewlwyd, refresh_token)
    assert status == 400
    assert body == b"", f"glewlwyd answered {headers} {body!r}"

    with pytest.raises(telenorid.AuthorizationLost) as caught:
        second.refresh()
    assert caught.value.http_status == 400
    assert not second.signed_in


def test_pushed_authorization_request(glewlwyd):
    """RFC 9126 against a real provider: the request goes to glewlwyd's /par, the browser carries only
    client_id and request_uri, and the sign-in completes with the pushed request's state, nonce and PKCE."""
    client, pending, state = sign_in(glewlwyd, push_authorization_requests=True)
    front = urllib.parse.parse_qs(urllib.parse.urlsplit(pending.url).query)
    assert sorted(front) == ["client_id", "request_uri"]
    assert front["request_uri"][0].startswith("urn:ietf:params:oauth:request_uri:")
    assert state.signed_in
    assert state.id_token_claims["nonce"] == pending.nonce
    state.refresh()
    assert state.signed_in


def test_discovery_advertises_pushed_authorization(glewlwyd):
    with urllib.request.urlopen(glewlwyd.issuer + "/.well-known/openid-configuration", timeout=10) as response:
        import json
        metadata = json.load(response)
    assert metadata["pushed_authorization_request_endpoint"] == glewlwyd.issuer + "/par"


def fapi_settings(glewlwyd, **extra):
    """The FAPI 2.0 client glewlwyd_provider registers: private_key_jwt with an EC key, DPoP, pushed and
    signed requests. Glewlwyd 2.7.5 wants each assertion's aud to be the URL it is sent to."""
    settings = dict(client_id=glewlwyd.fapi_client_id, client_private_key=glewlwyd.fapi_private_key_pem,
                    token_endpoint_auth_method="private_key_jwt", client_assertion_audience="endpoint",
                    dpop_signing_alg="ES256", push_authorization_requests=True)
    settings.update(extra)
    return settings


def jwt_payload(token):
    import json
    return json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))


def test_dpop_bound_sign_in_with_pushed_signed_request_and_private_key_jwt(glewlwyd):
    """PAR + PKCE + DPoP + private_key_jwt + a signed request object (RFC 9126, 7636, 9449, 7523, 9101):
    the tokens are bound to the sign-in's key, and every later call proves possession of it."""
    client, pending, state = sign_in(glewlwyd, **fapi_settings(glewlwyd, sign_authorization_requests=True))
    front = urllib.parse.parse_qs(urllib.parse.urlsplit(pending.url).query)
    assert sorted(front) == ["client_id", "request_uri"]
    assert state.get("token_type") == "DPoP"
    thumbprint = state.get("dpop_thumbprint")
    assert thumbprint and jwt_payload(state.fresh_access_token())["cnf"]["jkt"] == thumbprint

    assert state.userinfo()["sub"] == state.id_token_claims["sub"]  # DPoP <token> + a proof with ath
    authorization, proof = state.request_headers("GET", glewlwyd.issuer + "/userinfo")
    assert authorization.startswith("DPoP ") and jwt_payload(proof)["htu"] == glewlwyd.issuer + "/userinfo"
    request = urllib.request.Request(glewlwyd.issuer + "/userinfo", headers={"Authorization": authorization, "DPoP": proof})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200  # the host's own call with the headers the library made

    restored = client.restore(state.serialize())  # the key is saved with the state
    access = state.fresh_access_token()
    restored.refresh()
    assert restored.get("token_type") == "DPoP" and restored.get("dpop_thumbprint") == thumbprint
    assert restored.fresh_access_token() != access
    restored.revoke()
    assert not restored.signed_in


def test_a_pem_key_is_named_by_its_thumbprint_or_by_client_key_id(glewlwyd):
    """private_key_jwt with PEM keys at a client whose keys glewlwyd picks from a JWK Set by kid: a PEM key
    carries none, so the library names it by its RFC 7638 thumbprint, or by client_key_id when the
    registration gave it another name. Both sign in and refresh (the refresh is where glewlwyd checks the
    assertion against the set)."""
    for key, extra in ((glewlwyd.jwks_thumbprint_key_pem, {}),
                       (glewlwyd.jwks_named_key_pem, {"client_key_id": glewlwyd.jwks_key_id})):
        _, _, state = sign_in(glewlwyd, client_id=glewlwyd.jwks_client_id, client_private_key=key,
                              token_endpoint_auth_method="private_key_jwt", client_assertion_audience="endpoint",
                              **extra)
        access = state.fresh_access_token()
        state.refresh()
        assert state.fresh_access_token() != access, extra
    # The key registered by name is not found under its thumbprint: the provider refuses its assertion
    # (glewlwyd 2.7.5 with a bodyless 403 at the code exchange).
    with pytest.raises(telenorid.HTTPStatusError):
        _, _, state = sign_in(glewlwyd, client_id=glewlwyd.jwks_client_id, client_private_key=glewlwyd.jwks_named_key_pem,
                              token_endpoint_auth_method="private_key_jwt", client_assertion_audience="endpoint")
        state.refresh()


def test_dpop_nonces_are_asked_for_and_answered(tmp_path):
    """A provider that demands DPoP nonces (RFC 9449 §8, §9): the library retries once with each nonce
    it is given and keeps the latest for the next request."""
    with start_glewlwyd(dpop_nonce_required=True) as provider:
        # The push goes without a proof here: glewlwyd refuses a proof at /par without the nonce and does
        # not say what the nonce is; dpop_jkt binds the code instead (RFC 9449 §10).
        client = telenorid.Client(telenorid.Config.from_settings(
            issuer=provider.issuer, redirect_uri=provider.redirect_uri, scope="openid",
            **fapi_settings(provider, push_authorization_requests=False, dpop_bind_authorization_code=True)))
        client.discover()
        pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
        state = client.exchange_code(pending.handle_callback(provider.login(pending.url)))
        assert state.get("token_type") == "DPoP"
        for _ in range(4):  # glewlwyd replaces its nonce every few proofs, in a DPoP-Nonce header
            assert state.userinfo()["sub"]
            state.refresh()
        assert state.signed_in


def test_the_client_key_held_by_the_host_signs_assertions_and_request_objects(glewlwyd):
    """The client's registered key kept outside the library (an HSM, a keystore: here `cryptography`
    plays it) signs the private_key_jwt assertions (RFC 7523) and the request object (RFC 9101) through
    Client.set_client_signer; the configuration names no client_private_key."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    key = serialization.load_pem_private_key(glewlwyd.fapi_private_key_pem.encode(), password=None)
    numbers = key.public_key().public_numbers()
    coordinate = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()  # noqa: E731
    public_jwk = {"kty": "EC", "crv": "P-256", "x": coordinate(numbers.x), "y": coordinate(numbers.y)}
    signed = []

    def sign(signing_input: bytes) -> bytes:
        signed.append(jwt_payload(signing_input.decode() + ".")["aud"])
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")  # JWS's r||s (RFC 7518 §3.4), not DER

    settings = fapi_settings(glewlwyd, sign_authorization_requests=True)
    del settings["client_private_key"]
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=glewlwyd.issuer, redirect_uri=glewlwyd.redirect_uri, scope="openid", **settings))
    with pytest.raises(telenorid.ConfigurationError):
        client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    client.set_client_signer("ES256", public_jwk, sign)
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    state = client.exchange_code(pending.handle_callback(glewlwyd.login(pending.url)))
    assert state.get("token_type") == "DPoP"
    state.refresh()
    # The request object (aud: the issuer), then the assertions at /par, /token (twice); each verified there.
    assert signed == [glewlwyd.issuer, glewlwyd.issuer + "/par", glewlwyd.issuer + "/token", glewlwyd.issuer + "/token"]
