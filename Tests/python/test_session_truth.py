"""The auth state's truth at the edges, through the C ABI: how each refusal of a refresh is judged, the one
transient rule, a 401 at userinfo, a token the host's own API refused, "is my grant alive?", a sign-out
racing a refresh, a code whose exchange never left, and token types the client can't use. Failures come
from the programmable stand-in (Tests/support/fault_provider.py); the happy paths of the same rules run
against real providers in test_glewlwyd.py and test_shared_state.py."""
import os
import threading
import time

import pytest

import telenorid
from telenorid import _constants

from fault_provider import Response  # noqa: E402

CLIENT = "truth-client"
REDIRECT = "http://127.0.0.1:53682/callback"


pytestmark = pytest.mark.provider("fault")


def make_client(provider, **extra):
    timeout = os.environ.get("TELENORID_TEST_TIMEOUT_MS", "3000")
    settings = dict(issuer=provider.issuer, client_id=CLIENT, redirect_uri=REDIRECT, timeout_ms=timeout,
                    connect_timeout_ms=timeout)
    settings.update(extra)
    return telenorid.Client(telenorid.Config.from_settings(**settings))


@pytest.fixture
def client(provider):
    with make_client(provider) as client:
        yield client


def tokens(provider, nonce, **overrides):
    return provider.token_body(CLIENT, nonce, **overrides)


def signed_in(client, provider):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    provider.token_behaviour = lambda form: Response(body=tokens(provider, pending.nonce))
    return client.exchange_code(callback)


def token_posts(provider):
    return sum(1 for request in provider.requests if request == ("POST", "/token"))


VERDICTS = [
    # name, the token endpoint's answer to the refresh, the exception, signed in afterwards
    ("bodyless 400", Response(400, b""), telenorid.AuthorizationLost, False),
    ("HTML 401", Response(401, "<html>no</html>", "text/html"), telenorid.AuthorizationLost, False),
    ("invalid_grant 400", Response(400, {"error": "invalid_grant"}), telenorid.AuthorizationLost, False),
    ("invalid_client 401", Response(401, {"error": "invalid_client"}), telenorid.ClientRejected, True),
    ("unauthorized_client 400", Response(400, {"error": "unauthorized_client"}), telenorid.ClientRejected, True),
    ("access_denied 400", Response(400, {"error": "access_denied"}), telenorid.AuthorizationError, True),
    ("invalid_grant 503", Response(503, {"error": "invalid_grant"}), telenorid.TemporarilyUnavailable, True),
    ("bodyless 429", Response(429, b""), telenorid.TemporarilyUnavailable, True),
    ("invalid_grant 302", Response(302, {"error": "invalid_grant"}, headers={"Location": "http://127.0.0.1:9/portal"}),
     telenorid.TemporarilyUnavailable, True),
    ("bodyless 404", Response(404, b""), telenorid.HTTPStatusError, True),
]


@pytest.mark.parametrize("name,answer,error,still_signed_in", VERDICTS, ids=[v[0] for v in VERDICTS])
def test_a_refused_refresh_is_judged_by_status_and_body(client, provider, name, answer, error, still_signed_in):
    state = signed_in(client, provider)
    before = state.serialize()
    changes = []
    state.on_change(lambda: changes.append(state.signed_in))
    provider.token_behaviour = lambda form: answer
    with pytest.raises(error) as caught:
        state.refresh()
    assert type(caught.value) is error
    assert state.signed_in is still_signed_in
    if still_signed_in:
        assert changes == [] and state.serialize() == before
    else:
        assert changes == [False]
        with pytest.raises(telenorid.NotSignedIn):
            state.fresh_access_token()


def test_a_client_whose_secret_is_fixed_carries_every_user_on(client, provider):
    state = signed_in(client, provider)
    provider.token_behaviour = lambda form: Response(401, {"error": "invalid_client"})
    with pytest.raises(telenorid.ClientRejected) as caught:
        state.refresh()
    assert isinstance(caught.value, telenorid.AuthorizationError)  # caught by the older, wider handler too
    assert not caught.value.transient
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-2", id_token=None))
    state.refresh()
    assert state.get("access_token") == "at-2"


def test_retry_after_and_the_one_transient_rule(client, provider):
    state = signed_in(client, provider)
    provider.token_behaviour = lambda form: Response(429, b"", headers={"Retry-After": "30"})
    with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
        state.refresh()
    assert caught.value.retry_after == 30 and caught.value.http_status == 429 and caught.value.transient
    provider.token_behaviour = lambda form: Response(503, {"error": "temporarily_unavailable"},
                                                     headers={"Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"})
    with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
        state.refresh()
    assert caught.value.retry_after == 0 and caught.value.oauth_error == "temporarily_unavailable"
    provider.token_behaviour = lambda form: Response(500, b"")
    with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
        state.refresh()
    assert caught.value.retry_after is None
    transient = {name for name, code in _constants.STATUS.items() if telenorid.status_is_transient(code)}
    assert transient == {"TIMEOUT", "NETWORK", "TLS", "TEMPORARILY_UNAVAILABLE"}
    assert not telenorid.status_is_transient(0) and not telenorid.status_is_transient(9999)


def test_userinfo_refreshes_once_after_a_401(client, provider):
    state = signed_in(client, provider)
    answers = [Response(401, b"", headers={"WWW-Authenticate": 'Bearer error="invalid_token"'}),
               Response(body={"sub": "alice", "name": "Alice"})]
    provider.userinfo_behaviour = lambda: answers.pop(0)
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-2", refresh_token="rt-2",
                                                                 id_token=None))
    posts = token_posts(provider)
    assert state.userinfo()["name"] == "Alice"
    assert token_posts(provider) == posts + 1 and state.get("access_token") == "at-2"


def test_userinfo_401_then_a_refused_refresh_signs_out(client, provider):
    state = signed_in(client, provider)
    provider.userinfo_behaviour = lambda: Response(401, b"")  # bodyless, no challenge at all
    provider.token_behaviour = lambda form: Response(400, b"")
    with pytest.raises(telenorid.AuthorizationLost):
        state.userinfo()
    assert not state.signed_in


def test_a_second_401_is_an_error_that_keeps_the_sign_in(client, provider):
    state = signed_in(client, provider)
    provider.userinfo_behaviour = lambda: Response(401, b"", headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-2", id_token=None))
    with pytest.raises(telenorid.AuthorizationError) as caught:
        state.userinfo()
    assert caught.value.http_status == 401 and caught.value.oauth_error == "invalid_token"
    assert state.signed_in and state.get("access_token") == "at-2"


def test_a_token_the_hosts_api_refused_is_refreshed_next_time(client, provider):
    state = signed_in(client, provider)
    first = state.fresh_access_token()
    posts = token_posts(provider)
    state.access_token_rejected("some-older-token")  # about a token the state no longer holds: nothing
    assert state.fresh_access_token() == first and token_posts(provider) == posts
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-2", id_token=None))
    state.access_token_rejected(first)
    assert state.fresh_access_token() == "at-2" and token_posts(provider) == posts + 1
    state.access_token_rejected(first)  # a late report about the replaced token
    assert state.fresh_access_token() == "at-2" and token_posts(provider) == posts + 1
    state.access_token_rejected()  # the current one
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-3", id_token=None))
    assert state.fresh_access_token() == "at-3"


def test_is_my_grant_alive(client, provider):
    state = signed_in(client, provider)
    provider.userinfo_behaviour = lambda: Response(body={"sub": "alice"})
    posts = token_posts(provider)
    state.check()  # alive, asked without rotating anything
    assert token_posts(provider) == posts
    provider.userinfo_behaviour = lambda: Response(403, b"", headers={"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
    provider.token_behaviour = lambda form: Response(body=tokens(provider, None, access_token="at-2", id_token=None))
    state.check()  # userinfo can't tell: a refresh can
    assert token_posts(provider) == posts + 1
    provider.userinfo_behaviour = lambda: Response(401, b"")
    provider.token_behaviour = lambda form: Response(400, {"error": "invalid_grant"})
    with pytest.raises(telenorid.AuthorizationLost):
        state.check()
    with pytest.raises(telenorid.NotSignedIn):
        state.check()


def test_a_sign_out_during_a_refresh_wins(client, provider):
    state = signed_in(client, provider)
    changes = []
    state.on_change(lambda: changes.append(state.signed_in))

    def slow(form):
        time.sleep(0.5)
        return Response(body=tokens(provider, None, access_token="at-2", refresh_token="rt-2", id_token=None))

    provider.token_behaviour = slow
    outcome = []

    def refresh():
        try:
            state.refresh()
            outcome.append(None)
        except telenorid.TelenoridError as error:
            outcome.append(error)

    revoked = []
    provider.revocation_behaviour = lambda form: (revoked.append(form.get("token")), Response(200, b""))[1]
    thread = threading.Thread(target=refresh)
    thread.start()
    time.sleep(0.15)
    state.revoke()
    assert not state.signed_in
    thread.join()
    assert isinstance(outcome[0], telenorid.NotSignedIn)
    assert not state.signed_in and state.get("access_token") is None
    assert changes == [False]  # the sign-out's; the discarded refresh announced nothing
    # The grant the user gave up, and the one the discarded refresh brought, are both revoked.
    assert revoked == ["rt-1", "rt-2"]


def test_a_failed_revocation_still_signs_out(client, provider):
    state = signed_in(client, provider)
    provider.revocation_behaviour = lambda form: Response(503, b"", headers={"Retry-After": "5"})
    with pytest.raises(telenorid.TemporarilyUnavailable) as caught:
        state.revoke()
    assert caught.value.retry_after == 5
    assert not state.signed_in  # the user asked to be signed out


def test_a_code_whose_request_never_left_can_be_exchanged_again(provider):
    closed = "http://127.0.0.1:9/token"  # the discard port: nothing listens
    with make_client(provider, token_endpoint=closed) as broken, make_client(provider) as working:
        pending = telenorid.AuthorizationRequest(working.config()).build()
        callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
        with pytest.raises(telenorid.NetworkError):
            broken.exchange_code(callback)
        provider.token_behaviour = lambda form: Response(500, b"")
        with pytest.raises(telenorid.TemporarilyUnavailable):
            working.exchange_code(callback)  # this one reached the provider: the code is spent
        provider.token_behaviour = lambda form: Response(body=tokens(provider, pending.nonce))
        with pytest.raises(telenorid.Consumed):
            working.exchange_code(callback)


@pytest.mark.parametrize("token_type", ["DPoP", "MAC", "pop"])
def test_token_types_the_client_cannot_use_are_refused(client, provider, token_type):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    provider.token_behaviour = lambda form: Response(body=tokens(provider, pending.nonce, token_type=token_type))
    with pytest.raises(telenorid.InvalidResponse) as caught:
        client.exchange_code(callback)
    assert token_type in caught.value.message


def test_a_token_holding_nul_is_refused(client, provider):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    callback = pending.handle_callback(f"{REDIRECT}?code=the-code&state={pending.state}")
    provider.token_behaviour = lambda form: Response(body=tokens(provider, pending.nonce, refresh_token="rt\u0000x"))
    with pytest.raises(telenorid.InvalidResponse):
        client.exchange_code(callback)
    pending = telenorid.AuthorizationRequest(client.config()).build()
    with pytest.raises(telenorid.Malformed):
        pending.handle_callback(f"{REDIRECT}?code=a%00b&state={pending.state}")
