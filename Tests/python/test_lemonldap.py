"""Sign-in, userinfo, refresh, ID token verification and logout through the ctypes binding against
LemonLDAP::NG 2.16 (the Debian package, an OpenID provider written by someone else), started on 127.0.0.1 by
Tests/support/lemonldap_provider.py; and LemonLDAP::NG's own ways, as it answers them, each in an assertion."""
import base64
import concurrent.futures
import json
import os
import urllib.parse

import pytest
import requests

import telenorid

from lemonldap_provider import (FASTCGI_SERVER, NGINX, REDIRECT_URI, SIGNED_USERINFO_CLIENT_ID, USER,  # noqa: E402
                                start_lemonldap)

if not (os.access(FASTCGI_SERVER, os.X_OK) and os.access(NGINX, os.X_OK)):
    pytest.skip("LemonLDAP::NG or nginx is not installed (scripts/setup.sh installs them)", allow_module_level=True)

SCOPE = "openid profile email"


@pytest.fixture(scope="module")
def lemonldap():
    with start_lemonldap() as provider:
        yield provider


def client_for(lemonldap, **settings):
    values = dict(issuer=lemonldap.issuer, client_id=lemonldap.client_id, redirect_uri=lemonldap.redirect_uri,
                  scope=SCOPE)
    values.update(settings)
    client = telenorid.Client(telenorid.Config.from_settings(**values))
    client.discover()
    return client


def sign_in(lemonldap, session=None, client_id=None, **params):
    client = client_for(lemonldap, client_id=client_id or lemonldap.client_id)
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config(), **params))
    redirect = lemonldap.login(pending.url, session=session)
    return client, pending, client.exchange_code(pending.handle_callback(redirect))


def jwt_payload(token):
    return json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))


def metadata(lemonldap):
    return requests.get(lemonldap.issuer + ".well-known/openid-configuration", timeout=10).json()


def test_code_flow_with_pkce_userinfo_and_verified_id_token(lemonldap):
    client, pending, state = sign_in(lemonldap)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(pending.url).query)
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"][0]
    assert state.signed_in and state.get("token_type") == "Bearer"

    claims = state.id_token_claims
    assert claims["iss"] == lemonldap.issuer
    assert claims["sub"] == USER["username"] and claims["nonce"] == pending.nonce
    # LemonLDAP::NG's aud is always an array, with azp naming the client (OIDC Core §2 allows both).
    assert claims["aud"] == [lemonldap.client_id] and claims["azp"] == lemonldap.client_id

    assert state.userinfo() == {"sub": USER["username"], "name": USER["name"], "email": USER["email"],
                                "preferred_username": USER["username"]}

    verified = client.verify_id_token(state.get("id_token"), nonce=pending.nonce)
    assert verified["header"] == {"typ": "JWT", "alg": "RS256", "kid": "test-key-1"}
    assert verified["claims"]["sub"] == USER["username"]
    # The token response names no scope (RFC 6749 §5.1: the one asked for), and the library invents none.
    assert state.get("scope") is None


def test_signed_userinfo(lemonldap):
    """A client registered for signed userinfo gets it as a JWT (application/jwt, OIDC Core §5.3.2), signed with
    the ID token's key; the library verifies it and returns its claims."""
    _, _, state = sign_in(lemonldap, client_id=SIGNED_USERINFO_CLIENT_ID)
    response = requests.get(metadata(lemonldap)["userinfo_endpoint"], timeout=10,
                            headers={"Authorization": "Bearer " + state.get("access_token")})
    assert response.headers["Content-Type"].startswith("application/jwt")
    assert jwt_payload(response.text)["sub"] == USER["username"]
    assert state.userinfo()["email"] == USER["email"]


def test_loopback_listener_at_the_registered_port(lemonldap):
    """The native app's path: the library listens on the registered loopback redirect URI, the browser follows
    LemonLDAP::NG's redirect to it."""
    listener = telenorid.LoopbackListener(port=urllib.parse.urlsplit(REDIRECT_URI).port, path="/callback")
    assert listener.redirect_uri == REDIRECT_URI
    client = client_for(lemonldap, redirect_uri=listener.redirect_uri)
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    redirect = lemonldap.login(pending.url)
    with concurrent.futures.ThreadPoolExecutor(1) as browser:
        followed = browser.submit(requests.get, redirect, timeout=30)
        received = listener.wait(timeout=30)
        assert followed.result().status_code == 200
    state = client.exchange_code(pending.handle_callback(received))
    assert state.signed_in and state.id_token_claims["sub"] == USER["username"]


def test_refresh_keeps_the_refresh_token_and_the_new_id_token_has_no_nonce(lemonldap):
    client, pending, state = sign_in(lemonldap)
    access, refresh, first_id_token = state.get("access_token"), state.get("refresh_token"), state.get("id_token")
    state.refresh()
    assert state.signed_in
    assert state.get("access_token") != access
    # LemonLDAP::NG does not rotate: its refresh answer carries no refresh_token, and the old one stays.
    assert state.get("refresh_token") == refresh
    state.refresh()
    assert state.signed_in and state.get("refresh_token") == refresh

    # Each refresh brings a new ID token for the same sign-in, without nonce (OIDC Core §12.2 does not ask for
    # one), which the library takes and verifies without one.
    id_token = state.get("id_token")
    assert id_token != first_id_token
    refreshed = jwt_payload(id_token)
    assert "nonce" not in refreshed and "nonce" in jwt_payload(first_id_token)
    assert refreshed["sub"] == USER["username"] and refreshed["auth_time"] == jwt_payload(first_id_token)["auth_time"]
    assert client.verify_id_token(id_token)["claims"]["iss"] == lemonldap.issuer
    assert state.id_token_claims["sub"] == USER["username"]


def test_issuer_is_the_portal_url_with_its_trailing_slash(lemonldap):
    document = metadata(lemonldap)
    assert lemonldap.issuer.endswith("/") and document["issuer"] == lemonldap.issuer
    for name in ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "end_session_endpoint"):
        assert document[name].startswith(lemonldap.issuer + "oauth2/"), name
    # No RFC 7009 revocation endpoint in 2.16, and "none" is not among the token endpoint's authentication
    # methods even though a public client authenticates with none.
    assert "revocation_endpoint" not in document
    assert "none" not in document["token_endpoint_auth_methods_supported"]
    assert document["code_challenge_methods_supported"] == ["plain", "S256"]

    # The issuer as people write it, without the slash, is not LemonLDAP::NG's: discovery is refused, naming both.
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=lemonldap.issuer.rstrip("/"), client_id=lemonldap.client_id, redirect_uri=lemonldap.redirect_uri))
    with pytest.raises(telenorid.IssuerMismatchError) as caught:
        client.discover()
    assert lemonldap.issuer in str(caught.value) and repr(lemonldap.issuer.rstrip("/")).strip("'") in str(caught.value)


def test_jwks_keys_carry_no_alg(lemonldap):
    keys = requests.get(metadata(lemonldap)["jwks_uri"], timeout=10).json()["keys"]
    assert len(keys) == 1
    assert sorted(keys[0]) == ["e", "kid", "kty", "n", "use"]  # no "alg" (RFC 7517 §4.4: optional)
    assert keys[0]["kty"] == "RSA" and keys[0]["use"] == "sig" and keys[0]["kid"] == "test-key-1"
    # The library picks the key by kid and the algorithm from the token's header.
    client, pending, state = sign_in(lemonldap)
    assert client.verify_id_token(state.get("id_token"), nonce=pending.nonce)["header"]["alg"] == "RS256"


def test_pkce_is_required(lemonldap):
    client = client_for(lemonldap)
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    parts = urllib.parse.urlsplit(pending.url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if not k.startswith("code_challenge")]
    redirect = lemonldap.login(urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query))))
    answer = urllib.parse.parse_qs(urllib.parse.urlsplit(redirect).query)
    assert answer["error"] == ["invalid_request"] and answer["error_description"] == ["Code challenge is required"]


def test_only_the_exact_registered_redirect_uri(lemonldap):
    """LemonLDAP::NG compares redirect URIs as whole strings: the loopback port is part of it (no RFC 8252 §7.3
    "any port"), and so is the path. It checks only after the user has signed in, and answers with an error page
    (HTTP 200, message 108, PE_UNAUTHORIZEDURL) instead of a redirect, so the client hears nothing."""
    for redirect_uri in ("http://127.0.0.1:53693/callback", REDIRECT_URI + "/", REDIRECT_URI.replace("127.0.0.1", "localhost")):
        client = client_for(lemonldap, redirect_uri=redirect_uri)
        pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
        answer = lemonldap.answer(pending.url)
        assert answer.status_code == 200 and "Location" not in answer.headers, redirect_uri
        assert '<span trmsg="108">' in answer.text, redirect_uri


def test_refused_consent_is_consent_required(lemonldap):
    """The user's refusal comes back as consent_required "consent not given" (OIDC Core §3.1.2.6 keeps that code
    for prompt=none; RFC 6749 §4.1.2.1 would say access_denied); the library raises it as AuthorizationError.
    LemonLDAP::NG remembers a user's consent per client (in the persistent session): prompt=consent asks again."""
    client = client_for(lemonldap)
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config(), prompt="consent"))
    redirect = lemonldap.refuse(pending.url)
    answer = urllib.parse.parse_qs(urllib.parse.urlsplit(redirect).query)
    assert answer["error"] == ["consent_required"] and answer["error_description"] == ["consent not given"]
    assert "iss" not in answer  # no RFC 9207 issuer identification
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_callback(redirect)
    assert caught.value.oauth_error == "consent_required"
    assert caught.value.oauth_error_description == "consent not given"
    assert str(caught.value).startswith("consent_required: consent not given")


def test_a_bad_token_at_userinfo(lemonldap):
    """A refused token gets 401 with a WWW-Authenticate that is not RFC 6750 §3's: no scheme, unquoted values,
    invalid_request rather than invalid_token. The library still takes the 401 as the token refused: it
    refreshes and asks again."""
    userinfo = metadata(lemonldap)["userinfo_endpoint"]
    response = requests.get(userinfo, headers={"Authorization": "Bearer not-a-token"}, timeout=10)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "error=invalid_request,error_description=Invalid request"
    response = requests.get(userinfo, timeout=10)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == \
        "error=invalid_request,error_description=Access token not found in request"

    client, _, state = sign_in(lemonldap)
    saved = json.loads(state.serialize())
    saved["access_token"] = "not-a-token"
    stale = client.restore(json.dumps(saved))
    assert stale.userinfo()["sub"] == USER["username"]
    assert stale.get("access_token") != "not-a-token"
    assert stale.resource_answered(userinfo, 401, "error=invalid_request,error_description=Invalid request", None,
                                   "Bearer " + stale.get("access_token"))


def test_an_unknown_refresh_token_is_invalid_request(lemonldap):
    """A refresh token LemonLDAP::NG does not know gets 400 {"error":"invalid_request"}, not RFC 6749 §5.2's
    invalid_grant; the library reports the provider's error and, not told the grant is gone, stays signed in.
    (A refresh token of a session that ended gets invalid_grant: test_logout_at_the_provider_ends_the_grant.)"""
    token_endpoint = metadata(lemonldap)["token_endpoint"]
    response = requests.post(token_endpoint, data={"grant_type": "refresh_token", "refresh_token": "not-a-token",
                                                   "client_id": lemonldap.client_id}, timeout=10)
    assert response.status_code == 400 and response.json() == {"error": "invalid_request"}

    client, _, state = sign_in(lemonldap)
    saved = json.loads(state.serialize())
    saved["refresh_token"] = "not-a-token"
    unknown = client.restore(json.dumps(saved))
    with pytest.raises(telenorid.AuthorizationError) as caught:
        unknown.refresh()
    assert caught.value.oauth_error == "invalid_request" and caught.value.http_status == 400
    assert unknown.signed_in


def test_logout_at_the_provider_ends_the_grant(lemonldap):
    browser = requests.Session()
    # prompt=consent: the consent page is shown whatever earlier tests left, which matters below.
    client, _, state = sign_in(lemonldap, session=browser, prompt="consent")
    url = state.end_session_url(lemonldap.post_logout_redirect_uri, "after-logout")
    parts = urllib.parse.urlsplit(url)
    assert urllib.parse.urlunsplit(parts._replace(query="")) == metadata(lemonldap)["end_session_endpoint"]
    query = urllib.parse.parse_qs(parts.query)
    assert query["id_token_hint"] == [state.get("id_token")] and query["client_id"] == [lemonldap.client_id]
    assert query["post_logout_redirect_uri"] == [lemonldap.post_logout_redirect_uri]
    assert query["state"] == ["after-logout"]
    assert state.signed_in  # building the URL signs nothing out

    # The browser that signed in opens it: LemonLDAP::NG asks the user to confirm and ends its session. A browser
    # that went through the consent page still holds the portal's lemonldappdata cookie naming {issuer}oauth2 as
    # the page to return to; the confirmation form carries it as "url", and LemonLDAP::NG 2.16 then sends the
    # browser there, to its own portal, instead of to the post_logout_redirect_uri.
    answer = lemonldap.end_session(url, browser)
    assert answer.status_code == 302 and answer.headers["Location"] == lemonldap.issuer + "oauth2"

    # The refresh token belonged to that session (no offline_access): now invalid_grant, and the library signs out.
    with pytest.raises(telenorid.AuthorizationLostError) as caught:
        state.refresh()
    assert caught.value.oauth_error == "invalid_grant"
    assert not state.signed_in

    # A browser without that cookie (or without a session at all) is sent to the post_logout_redirect_uri, with the
    # state, at once.
    answer = lemonldap.end_session(url, requests.Session())
    assert answer.status_code == 302
    assert answer.headers["Location"] == lemonldap.post_logout_redirect_uri + "?state=after-logout"


def test_revocation_is_not_offered(lemonldap):
    """LemonLDAP::NG 2.16 advertises no revocation endpoint: the library signs out here and says so."""
    _, _, state = sign_in(lemonldap)
    with pytest.raises(telenorid.ConfigurationError) as caught:
        state.revoke()
    assert "revocation_endpoint" in str(caught.value)
    assert not state.signed_in
