"""The whole sign-in against a real OpenID provider someone else wrote (django-oauth-toolkit, started on
127.0.0.1), through the C ABI via the ctypes binding: discovery → PKCE → authorize → login → callback →
code exchange → ID token validation → userinfo → refresh (rotation) → revoke → refresh refused."""
import threading
from urllib.parse import parse_qs, urlsplit

import base64
import json

import pytest
import requests

import telenorid

from browser import complete_login, deny_login  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"


def make_client(provider, **extra):
    settings = dict(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                    redirect_uri=REDIRECT, scope="openid profile email",
                    revocation_endpoint=provider["issuer"] + "/revoke_token/")
    settings.update(extra)
    return telenorid.Client(telenorid.Config.from_settings(**settings))


def sign_in(provider, client, **request_settings):
    request = telenorid.AuthorizationRequest(client.config())
    for name, value in request_settings.items():
        request.set(name, value)
    pending = request.build()
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    return pending, redirect


def test_full_login_refresh_revoke(provider):
    client = make_client(provider)
    client.discover()
    pending, redirect = sign_in(provider, client, max_age="600")
    assert redirect.startswith(REDIRECT + "?")
    callback = pending.handle_callback(redirect)
    state = client.exchange_code(callback)
    assert state.signed_in
    claims = state.id_token_claims
    assert claims["iss"] == provider["issuer"]
    assert claims["aud"] == "native-app"
    assert claims["nonce"] == pending.nonce
    assert claims["sub"]
    userinfo = state.userinfo()
    assert userinfo["sub"] == claims["sub"]
    assert userinfo["given_name"] == "Alice" and userinfo["email"] == "alice@example.com"

    # The ID token verifies again later with the provider's keys; a wrong nonce or a changed claim does not.
    id_token = state.get("id_token")
    verified = client.verify_id_token(id_token, nonce=pending.nonce)
    assert verified["claims"] == claims and verified["header"]["alg"] == "RS256"
    assert client.verify_id_token(id_token)["claims"]["sub"] == claims["sub"]
    with pytest.raises(telenorid.TokenInvalid):
        client.verify_id_token(id_token, nonce="another")
    header, payload, signature = id_token.split(".")
    forged = base64.urlsafe_b64encode(json.dumps(dict(claims, sub="mallory")).encode()).rstrip(b"=").decode()
    with pytest.raises(telenorid.TokenInvalid):
        client.verify_id_token(f"{header}.{forged}.{signature}")

    # The access token works at the provider's own protected resource.
    access = state.fresh_access_token()
    assert requests.get(provider["issuer"] + "/userinfo/", headers={"Authorization": f"Bearer {access}"},
                        timeout=10).status_code == 200

    changes = []
    state.on_change(lambda: changes.append(state.serialize()))
    first_refresh = state.get("refresh_token")
    state.refresh()
    assert state.get("refresh_token") != first_refresh, "the provider rotates refresh tokens"
    assert state.fresh_access_token() != access
    assert changes and '"refresh_token"' in changes[-1]

    # Persist and restore: the restored state refreshes on its own.
    restored = client.restore(state.serialize())
    restored.refresh()
    assert restored.get("refresh_token") != state.get("refresh_token")

    restored.revoke()
    assert not restored.signed_in
    with pytest.raises(telenorid.NotSignedIn):
        restored.fresh_access_token()


def test_a_refused_refresh_token_signs_out(provider):
    client = make_client(provider)
    pending, redirect = sign_in(provider, client)
    state = client.exchange_code(pending.handle_callback(redirect))
    stale = client.restore(state.serialize())
    state.refresh()  # rotation: the copy's refresh token is now spent
    with pytest.raises(telenorid.AuthorizationLost) as caught:
        stale.refresh()
    assert caught.value.oauth_error == "invalid_grant"
    assert caught.value.http_status == 400
    assert not stale.signed_in
    assert state.signed_in


def test_code_is_exchanged_once_and_tampering_is_caught(provider):
    client = make_client(provider)
    pending, redirect = sign_in(provider, client)
    callback = pending.handle_callback(redirect)
    client.exchange_code(callback)
    with pytest.raises(telenorid.Consumed):
        client.exchange_code(callback)
    with pytest.raises(telenorid.Consumed):
        pending.handle_callback(redirect)


def test_denied_consent_is_a_typed_error(provider):
    client = make_client(provider)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    redirect = deny_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_callback(redirect)
    assert caught.value.oauth_error == "access_denied"


def test_confidential_client_with_secret(provider):
    confidential = provider["clients"]["confidential"]
    for method in ("client_secret_basic", "client_secret_post"):
        client = make_client(provider, client_id=confidential["client_id"], client_secret=confidential["client_secret"],
                             token_endpoint_auth_method=method)
        pending, redirect = sign_in(provider, client)
        state = client.exchange_code(pending.handle_callback(redirect))
        assert state.id_token_claims["aud"] == confidential["client_id"]
        state.refresh()
    wrong = make_client(provider, client_id=confidential["client_id"], client_secret="not-the-secret")
    pending, redirect = sign_in(provider, wrong)
    with pytest.raises(telenorid.AuthorizationError) as caught:
        wrong.exchange_code(pending.handle_callback(redirect))
    assert caught.value.oauth_error == "invalid_client"


def test_many_threads_get_one_refresh(provider):
    client = make_client(provider)
    pending, redirect = sign_in(provider, client)
    state = client.exchange_code(pending.handle_callback(redirect))
    before = state.get("refresh_token")
    tokens, errors = [], []

    def ask():
        try:
            state.refresh()
            tokens.append(state.fresh_access_token())
        except telenorid.TelenoridError as error:
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Every thread succeeded and the state is still signed in: no rotation was lost to a race (with
    # rotation on, two refreshes of the same token would sign the state out).
    assert not errors and state.signed_in
    assert state.get("refresh_token") != before


def test_end_session_url(provider):
    client = make_client(provider, end_session_endpoint=provider["issuer"] + "/logout/")
    pending, redirect = sign_in(provider, client)
    state = client.exchange_code(pending.handle_callback(redirect))
    url = state.end_session_url("http://127.0.0.1:53682/logged-out", "bye")
    query = parse_qs(urlsplit(url).query)
    assert query["id_token_hint"] == [state.get("id_token")]
    assert query["post_logout_redirect_uri"] == ["http://127.0.0.1:53682/logged-out"]
    assert query["state"] == ["bye"] and query["client_id"] == ["native-app"]


def test_a_saved_state_is_refused_by_another_client(provider):
    client = make_client(provider)
    pending, redirect = sign_in(provider, client)
    saved = client.exchange_code(pending.handle_callback(redirect)).serialize()
    other = make_client(provider, client_id=provider["clients"]["confidential"]["client_id"],
                        client_secret=provider["clients"]["confidential"]["client_secret"])
    with pytest.raises(telenorid.ConfigurationError):
        other.restore(saved)


def test_issuer_mismatch_in_discovery(provider):
    client = make_client(provider, issuer=provider["issuer"] + "/")
    with pytest.raises(telenorid.IssuerMismatch):
        client.discover()
