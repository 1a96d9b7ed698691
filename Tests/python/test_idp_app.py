"""The identity-provider app flow (Salesforce Mobile SDK identity provider style), both roles in one test,
against the local real provider (DOT).

The service-provider (SP) app builds a request for the IdP app; the IdP app checks it against the caller's
redirect URIs, asks the provider for a code on the SP's behalf (the SP's client id, redirect URI, state,
nonce and S256 challenge), and hands back only the code; the SP checks the response and exchanges the code
with its own verifier. Once with URLs (iOS custom schemes), once with bundles (Android intents). Then the
IdP-initiated start: the IdP app launches the SP for a user it has signed in, and the SP loops its user_hint
back in that same request."""
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

import telenorid

from browser import complete_login, deny_login  # noqa: E402

SP_REDIRECT = "com.example.app:/oauth2redirect"  # registered for the public client in oidc_provider.py
IDP_APP_URI = "idpapp://authorize"


def sp_client(provider):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=SP_REDIRECT,
        scope="openid profile email"))


def authorization_endpoint(provider):
    """The IdP app knows the provider; here it learns the endpoint from discovery."""
    return requests.get(provider["issuer"] + "/.well-known/openid-configuration", timeout=10).json()[
        "authorization_endpoint"]


def login_host(provider):
    return urlsplit(provider["issuer"]).netloc


def idp_app_gets_code(provider, request, login_hint_expected=None):
    """The IdP app's half: build the provider request for the SP, let the user sign in, answer the SP."""
    endpoint = authorization_endpoint(provider)
    url = request.authorization_url(endpoint)
    query = parse_qs(urlsplit(url).query)
    assert query["redirect_uri"] == [SP_REDIRECT] and query["code_challenge_method"] == ["S256"]
    assert "code_verifier" not in query
    if login_hint_expected:
        assert query["login_hint"] == [login_hint_expected]
    redirect = complete_login(url, provider["user"]["username"], provider["user"]["password"])
    return request.respond(redirect, login_host(provider))


@pytest.mark.parametrize("form", ["url", "bundle"])
def test_sp_signs_in_through_the_idp_app(provider, form):
    client = sp_client(provider)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    sp_request = telenorid.IdPAppRequest.for_pending(pending, login_host=login_host(provider), user_hint="alice")

    if form == "url":
        idp_request = telenorid.IdPAppRequest.parse_url(sp_request.url(IDP_APP_URI), IDP_APP_URI, [SP_REDIRECT])
    else:
        bundle = sp_request.bundle()
        assert bundle["scopes"] == "openid,profile,email" and bundle["state"] == pending.state
        assert pending.code_verifier not in bundle.values()
        idp_request = telenorid.IdPAppRequest.parse_bundle(bundle, [SP_REDIRECT])

    response = idp_app_gets_code(provider, idp_request, login_hint_expected="alice")
    answer = response.url() if form == "url" else response.bundle()
    if form == "bundle":
        assert set(answer) == {"code", "login_host", "state"}, "only the code crosses, never a token"
    else:
        assert answer.startswith(SP_REDIRECT + "?")

    callback = pending.handle_idp_response(answer)
    state = client.exchange_code(callback)
    claims = state.id_token_claims
    assert claims["iss"] == provider["issuer"] and claims["nonce"] == pending.nonce
    assert state.userinfo()["sub"] == claims["sub"]
    with pytest.raises(telenorid.Consumed):
        pending.handle_idp_response(answer)


def test_hostile_requests_are_refused(provider):
    client = sp_client(provider)
    good = telenorid.IdPAppRequest.for_pending(telenorid.AuthorizationRequest(client.config()).build(),
                                               login_host=login_host(provider)).bundle()

    def parse(**changes):
        bundle = {k: v for k, v in {**good, **changes}.items() if v is not None}
        return telenorid.IdPAppRequest.parse_bundle(bundle, [SP_REDIRECT])

    with pytest.raises(telenorid.Malformed):
        parse(code_challenge="too-short")
    with pytest.raises(telenorid.Malformed):
        parse(code_challenge=good["code_challenge"][:-1] + "=")
    with pytest.raises(telenorid.RedirectMismatch):
        parse(oauth_redirect_uri="evil.app:/steal")
    with pytest.raises(telenorid.RedirectMismatch):
        parse(oauth_redirect_uri=SP_REDIRECT + "/")
    with pytest.raises(telenorid.Malformed):
        parse(oauth_redirect_uri="relative/path")
    with pytest.raises(telenorid.Malformed):
        parse(state=None)
    url = telenorid.IdPAppRequest.parse_bundle(good, [SP_REDIRECT]).url(IDP_APP_URI)
    with pytest.raises(telenorid.Malformed):
        telenorid.IdPAppRequest.parse_url(url + "&state=second", IDP_APP_URI, [SP_REDIRECT])
    with pytest.raises(telenorid.RedirectMismatch):
        telenorid.IdPAppRequest.parse_url(url, IDP_APP_URI, ["other.app:/cb"])


def test_hostile_responses_are_refused_and_leave_the_request_open(provider):
    client = sp_client(provider)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    idp_request = telenorid.IdPAppRequest.parse_bundle(
        telenorid.IdPAppRequest.for_pending(pending).bundle(), [SP_REDIRECT])
    bundle = idp_app_gets_code(provider, idp_request).bundle()

    with pytest.raises(telenorid.IssuerMismatch):
        pending.handle_idp_response({**bundle, "login_host": "evil.example"})
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_idp_response({**bundle, "state": "forged"})
    with pytest.raises(telenorid.Malformed):
        pending.handle_idp_response("&".join([SP_REDIRECT + "?state=" + pending.state] +
                                             [f"{k}={v}" for k, v in bundle.items()]))
    with pytest.raises(telenorid.RedirectMismatch):
        pending.handle_idp_response("evil.app:/cb?" + "&".join(f"{k}={v}" for k, v in bundle.items()))
    # Still open: the genuine response goes through; an unknown extra is ignored (RFC 6749 §3.1) and dropped.
    callback = pending.handle_idp_response({**bundle, "access_token": "smuggled"})
    assert callback.parameter("access_token") is None
    state = client.exchange_code(callback)
    assert state.signed_in


def test_provider_refusal_reaches_the_sp_as_an_oauth_error(provider):
    pending = telenorid.AuthorizationRequest(sp_client(provider).config()).build()
    idp_request = telenorid.IdPAppRequest.parse_url(
        telenorid.IdPAppRequest.for_pending(pending).url(IDP_APP_URI), IDP_APP_URI, [SP_REDIRECT])
    redirect = deny_login(idp_request.authorization_url(authorization_endpoint(provider)),
                          provider["user"]["username"], provider["user"]["password"])
    response = idp_request.respond(redirect, login_host(provider))
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_idp_response(response.url())
    assert caught.value.oauth_error == "access_denied"


def local_pending(redirect_uri=SP_REDIRECT):
    """An SP's pending authorization without discovery: these tests write the provider's redirect by hand."""
    return telenorid.AuthorizationRequest(telenorid.Config.from_settings(
        issuer="https://login.example.com", client_id="sp-app", redirect_uri=redirect_uri, scope="openid profile",
        authorization_endpoint="https://login.example.com/authorize")).build()


def test_unknown_parameters_are_ignored_and_never_forwarded():
    """RFC 6749 §3.1; the Salesforce Mobile SDK's own SP sends app_name."""
    pending = local_pending()
    sp_request = telenorid.IdPAppRequest.for_pending(pending)
    via_bundle = telenorid.IdPAppRequest.parse_bundle({**sp_request.bundle(), "app_name": "Example SP"}, [SP_REDIRECT])
    via_url = telenorid.IdPAppRequest.parse_url(sp_request.url(IDP_APP_URI) + "&app_name=x", IDP_APP_URI, [SP_REDIRECT])
    for request in (via_bundle, via_url):
        assert request.bundle() == sp_request.bundle()
        assert "app_name" not in request.authorization_url("https://login.example.com/authorize")
    response = via_url.respond(f"{SP_REDIRECT}?code=c&state={pending.state}&session_state=s", "login.example.com")
    assert set(response.bundle()) == {"code", "login_host", "state"}
    callback = pending.handle_idp_response(response.url() + "&app_name=x")
    assert callback.code == "c" and callback.parameter("app_name") is None


def test_redirect_uri_with_its_own_query():
    """RFC 6749 §3.1.2: the redirect URI's query is kept, and is part of the redirect URI, not the response."""
    redirect = "com.example.sp:/cb?app=x"
    pending = local_pending(redirect)
    idp_request = telenorid.IdPAppRequest.parse_url(
        telenorid.IdPAppRequest.for_pending(pending).url(IDP_APP_URI), IDP_APP_URI, [redirect])
    assert parse_qs(urlsplit(idp_request.authorization_url("https://login.example.com/authorize")).query)[
        "redirect_uri"] == [redirect]
    with pytest.raises(telenorid.RedirectMismatch):
        idp_request.respond(f"com.example.sp:/cb?code=c&state={pending.state}", "login.example.com")
    answer = idp_request.respond(f"{redirect}&code=c&state={pending.state}", "login.example.com").url()
    assert answer.startswith(redirect + "&code=c&")
    with pytest.raises(telenorid.RedirectMismatch):
        pending.handle_idp_response(answer.replace("app=x", "app=y"))
    callback = pending.handle_idp_response(answer)
    assert callback.code == "c" and callback.parameter("app") is None


SP_APP_URI = "com.example.app://idp-initiated"


@pytest.mark.parametrize("form", ["url", "bundle"])
def test_idp_initiated_sign_in(provider, form, tmp_path):
    """IdP-initiated: the IdP app launches the SP for a user chosen from its signed-in users (its accounts
    registry); the SP loops the user_hint back in its own request; the IdP app recognises the hint as one of its
    accounts and gets the code without asking which user; the SP exchanges it with its verifier."""
    # The IdP app's signed-in users are its accounts; the hint it gives the SP for one is the account's id.
    idp = sp_client(provider)  # the IdP app is a client of the provider too
    accounts = idp.open_accounts(telenorid.DirectoryStore(str(tmp_path)), "idp")
    idp_pending = telenorid.AuthorizationRequest(idp.config()).build()
    user = provider["user"]
    chosen = accounts.add(idp.exchange_code(idp_pending.handle_callback(
        complete_login(idp_pending.url, user["username"], user["password"]))))
    message = telenorid.IdPAppInitiation(chosen, login_host(provider))

    if form == "url":
        sent = message.url(SP_APP_URI)
        assert sent.startswith(SP_APP_URI + "?")
        initiation = telenorid.IdPAppInitiation.parse_url(sent, SP_APP_URI)
    else:
        assert message.bundle() == {"user_hint": chosen, "login_host": login_host(provider)}
        initiation = telenorid.IdPAppInitiation.parse_bundle(message.bundle())
    assert initiation == (chosen, login_host(provider))

    client = sp_client(provider)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    sp_request = telenorid.IdPAppRequest.for_pending(pending, login_host=initiation.login_host,
                                                     user_hint=initiation.user_hint)
    if form == "url":
        idp_request = telenorid.IdPAppRequest.parse_url(sp_request.url(IDP_APP_URI), IDP_APP_URI, [SP_REDIRECT])
    else:
        idp_request = telenorid.IdPAppRequest.parse_bundle(sp_request.bundle(), [SP_REDIRECT])
    looped_back = idp_request.bundle()
    assert looped_back["user_hint"] == chosen and looped_back["login_host"] == login_host(provider)
    # Recognised: the hint selects the account, so there is no login screen to choose a user.
    recognised = accounts.select(looped_back["user_hint"]).id_token_claims
    assert recognised is not None and recognised["preferred_username"] == user["username"]

    url = idp_request.authorization_url(authorization_endpoint(provider))
    assert parse_qs(urlsplit(url).query)["login_hint"] == [chosen]
    redirect = complete_login(url, user["username"], user["password"])
    response = idp_request.respond(redirect, looped_back["login_host"])
    callback = pending.handle_idp_response(response.url() if form == "url" else response.bundle())
    state = client.exchange_code(callback)
    claims = state.id_token_claims
    assert claims["iss"] == provider["issuer"] and claims["nonce"] == pending.nonce
    assert state.userinfo()["sub"] == claims["sub"] == recognised["sub"]


def test_hostile_initiations_are_refused():
    good = {"user_hint": "00D1:0051", "login_host": "login.example.com:8443"}
    read = telenorid.IdPAppInitiation.parse_bundle
    # Unknown members are ignored (RFC 6749 §3.1) and not kept.
    assert read({**good, "app_name": "x", "code": "smuggled"}) == ("00D1:0051", "login.example.com:8443")
    url = telenorid.IdPAppInitiation(*good.values()).url(SP_APP_URI)
    assert telenorid.IdPAppInitiation.parse_url(url + "&app_name=x", SP_APP_URI).user_hint == "00D1:0051"
    for bad in ({"user_hint": "a"}, {"login_host": "h"}, {**good, "user_hint": ""}, {**good, "user_hint": "a" * 256},
                {**good, "user_hint": "a\nb"}, {**good, "user_hint": "ålesund"},
                {**good, "login_host": "evil.example/path"}, {**good, "login_host": "u@evil.example"},
                {**good, "login_host": "evil.example?x=1"}, {**good, "login_host": ""}):
        with pytest.raises(telenorid.MalformedError):
            read(bad)
    assert read({**good, "user_hint": "a" * 255}).user_hint == "a" * 255
    for tail in ("&user_hint=second", "&login_host=evil.example", "%0A"):
        with pytest.raises(telenorid.MalformedError):
            telenorid.IdPAppInitiation.parse_url(url + tail, SP_APP_URI)
    with pytest.raises(telenorid.MalformedError):
        telenorid.IdPAppInitiation.parse_url(SP_APP_URI + "?user_hint=a%0D%0Ab&login_host=h", SP_APP_URI)
    with pytest.raises(telenorid.RedirectMismatchError):
        telenorid.IdPAppInitiation.parse_url(url.replace(SP_APP_URI, "evil.app://idp-initiated"), SP_APP_URI)
    # The IdP side refuses to make such a message: the caller's mistake, not outside input.
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.IdPAppInitiation("a\tb", "login.example.com").bundle()
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.IdPAppInitiation("a", "login.example.com/x").url(SP_APP_URI)
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.IdPAppInitiation("a", "login.example.com").url(SP_APP_URI + "?q=1")
    with pytest.raises(TypeError):
        telenorid.IdPAppInitiation(5, "login.example.com").bundle()  # type: ignore[arg-type]
