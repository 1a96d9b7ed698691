"""The Vipps/MobilePay app-to-app sequence (Vipps Login app-to-app) against the local real provider (DOT), split as Vipps' documentation
draws it: the merchant backend (a confidential client holding the secret) builds the request and keeps the
pending request; the merchant app restores it from the serialized form, opens the URL, is called back by
the provider's app at app_callback_uri (played here with every callback Vipps' documentation shows), and passes the
final redirect (code + state) back to the backend, which checks it and exchanges the code.

DOT has no Vipps app: it ignores requested_flow and app_callback_uri, so its part ends at the normal
redirect; the app-callback checks run on the library's side exactly as a phone would drive them."""
from urllib.parse import quote, urljoin, urlsplit

import pytest
import requests

import telenorid

from browser import _fields, complete_login  # noqa: E402

REDIRECT = "merchantapp://redirect-uri"  # registered exactly so in oidc_provider.py
APP_CALLBACK = "merchantapp://app-callback"


def backend_client(provider, redirect=REDIRECT):
    confidential = provider["clients"]["confidential"]
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=confidential["client_id"], client_secret=confidential["client_secret"],
        redirect_uri=redirect, scope="openid profile email"))


def app_config(provider):
    """What the app knows: the client id and redirect URI, never the secret."""
    return telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["confidential"]["client_id"],
        redirect_uri=REDIRECT, scope="openid profile email")


def backend_starts(provider):
    client = backend_client(provider)
    request = telenorid.AuthorizationRequest(client.config()).set_app_to_app(APP_CALLBACK)
    return client, request.build()


def test_the_whole_sequence(provider):
    # 1: the backend builds the authorize request and hands the app the serialized pending request.
    backend, pending = backend_starts(provider)
    shipped = pending.serialize()
    assert "backend-secret" not in shipped
    app_pending = telenorid.PendingAuthorization.restore(app_config(provider), shipped)
    query = dict(p.split("=", 1) for p in urlsplit(app_pending.url).query.split("&"))
    assert query["requested_flow"] == "app_to_app" and query["app_callback_uri"] == quote(APP_CALLBACK, safe="")

    # 2-3: the app opens the URL; the user signs in (DOT's page stands in for the Vipps app's screens).
    redirect = complete_login(app_pending.url, provider["user"]["username"], provider["user"]["password"])

    # 4: the provider's app opens app_callback_uri with state and resume_uri (Vipps' documented examples, with this
    # request's state and the provider's host). 5: the app reopens resume_uri in the same browser.
    state = app_pending.state
    host = urlsplit(provider["issuer"]).hostname
    resume = f"https://{host}/vipps-login-idp/index.html?tabId=7607f7f0-7ae2-49b7-9cb5-102143dac4ea"
    for url in (f"{APP_CALLBACK}?state={state}&resume_uri={quote(resume, safe='')}",
                f"{APP_CALLBACK}/?state={state}&resume_uri={quote(resume, safe='')}"):
        assert app_pending.handle_app_callback(url).resume_uri == resume
    assert app_pending.handle_app_callback(f"{APP_CALLBACK}?state={state}").resume_uri is None

    # 6-7: the browser lands on redirect_uri with code and state; the app passes it to the backend.
    assert redirect.startswith(REDIRECT + "?")
    callback = pending.handle_callback(redirect)
    # 8: the backend exchanges the code with its secret, validates the ID token and fetches userinfo.
    tokens = backend.exchange_code(callback)
    claims = tokens.id_token_claims
    assert claims["aud"] == provider["clients"]["confidential"]["client_id"] and claims["nonce"] == pending.nonce
    assert tokens.userinfo()["sub"] == claims["sub"]


def test_error_callbacks_from_the_providers_app(provider):
    _, pending = backend_starts(provider)
    state = pending.state
    # Vipps' documented error examples read "state=...?error=unknown_error"; the well-formed "&error=" too.
    for url in (f"{APP_CALLBACK}?state={state}?error=unknown_error", f"{APP_CALLBACK}?state={state}&error=unknown_error"):
        with pytest.raises(telenorid.AuthorizationError) as caught:
            pending.handle_app_callback(url)
        assert caught.value.oauth_error == "unknown_error"
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_app_callback(f"{APP_CALLBACK}?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https%3A%2F%2F127.0.0.1%2F")
    with pytest.raises(telenorid.RedirectMismatch):
        pending.handle_app_callback(f"otherapp://app-callback?state={state}")
    for resume in ("http://127.0.0.1/vipps-login-idp/", "https://evil.example/vipps-login-idp/",
                   "https://user@127.0.0.1/x"):
        with pytest.raises(telenorid.Insecure):
            pending.handle_app_callback(f"{APP_CALLBACK}?state={state}&resume_uri={quote(resume, safe='')}")
    # A refused app callback consumes nothing: the redirect still completes the login.
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    assert pending.handle_callback(redirect).code


def test_builder_keeps_requested_flow_and_app_callback_together(provider):
    request = telenorid.AuthorizationRequest(backend_client(provider).config())
    for name in ("requested_flow", "app_callback_uri"):
        with pytest.raises(telenorid.ParameterConflict):
            request.add_parameter(name, "app_to_app")
    assert "requested_flow" not in request.build().url
    with pytest.raises(telenorid.Insecure):
        request.set_app_to_app("http://example.com/app-callback")


def test_redirect_uri_must_match_exactly(provider):
    # A trailing "/" makes another URI: the provider refuses to send the code there...
    client = backend_client(provider, redirect=REDIRECT + "/")
    pending = telenorid.AuthorizationRequest(client.config()).set_app_to_app(APP_CALLBACK).build()
    session = requests.Session()
    response = session.get(pending.url, allow_redirects=False, timeout=30)
    login = urljoin(pending.url, response.headers["Location"])
    form = _fields(session.get(login, timeout=30).text)
    form.update(username=provider["user"]["username"], password=provider["user"]["password"])
    response = session.post(login, data=form, headers={"Referer": login}, allow_redirects=False, timeout=30)
    response = session.get(urljoin(login, response.headers["Location"]), allow_redirects=False, timeout=30)
    assert response.status_code == 400, "no redirect at all to an unregistered URI"
    assert "Mismatching redirect URI" in response.text
    # ...and a redirect that arrives with the slash dropped (or added) is not this request's.
    _, good = backend_starts(provider)
    redirect = complete_login(good.url, provider["user"]["username"], provider["user"]["password"])
    with pytest.raises(telenorid.RedirectMismatch):
        good.handle_callback(redirect.replace(REDIRECT, REDIRECT + "/", 1))
    with pytest.raises(telenorid.ConfigurationError):
        telenorid.PendingAuthorization.restore(backend_client(provider, redirect=REDIRECT + "/").config(), good.serialize())
