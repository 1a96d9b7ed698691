"""Back-channel logout (OpenID Connect Back-Channel Logout 1.0) through the ctypes binding, with logout tokens
made by a real provider: idpyoidc's OpenID provider (PyPI, written by someone else), started on 127.0.0.1 by
Tests/support/fapi_provider.py. The library signs in there (FAPI 2.0: PAR, private_key_jwt, DPoP, PKCE), and
the provider's own session code ends the session: idpyoidc.server.oidc.session.Session.logout_all_clients,
which signs the logout token for each client that registered a backchannel_logout_uri
(do_back_channel_logout: its `sid` is the ID token's, no `sub`, signed with the provider's key under the
client's id_token_signed_response_alg). The test hands that token to the library as the host's
backchannel_logout_uri would, checks the refusals the library adds (a replay, a token tampered with), and the
local sign-out of an account and of an auth state. Every rule of §2.6 refused once is in the Swift tests
(Tests/TelenoridCoreTests/BackchannelLogout), with tokens they sign."""
import base64
import json

import pytest

import telenorid

pytest.importorskip("idpyoidc", reason="idpyoidc is not installed (scripts/setup.sh installs it)")
from fapi_provider import start_fapi_provider  # noqa: E402

# idpyoidc warns that its password login form is for tests only, as it is used here.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the \"UserPassJinja2\"")


@pytest.fixture()
def provider():
    # One provider per test: idpyoidc's logout_all_clients signs a token for the first of the user's sessions
    # at the client, so a session an earlier test signed in would be the one named.
    with start_fapi_provider() as running:
        # The client's registration names where its logout tokens go (§2.2); idpyoidc signs one only then.
        running.server.context.cdb[running.client_id]["backchannel_logout_uri"] = "https://rp.example/logout"
        yield running


@pytest.fixture()
def client(provider):
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider.issuer, client_id=provider.client_id, redirect_uri=provider.redirect_uri,
        scope="openid profile email offline_access", security_profile="fapi2",
        token_endpoint_auth_method="private_key_jwt", client_private_key=json.dumps(provider.client_private_jwk),
        dpop_signing_alg="ES256"))
    client.discover()
    return client


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign_in(provider, client):
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config(), prompt="consent"))
    return client.exchange_code(pending.handle_callback(provider.login(pending.url)))


def provider_logs_out(provider, sid):
    """The provider ends the user's session `sid` at every client, as its end-session endpoint would, and gives
    the logout token it signed for this client."""
    from idpyoidc.server.oidc.session import Session

    ends = Session(provider.server.unit_get).logout_all_clients(sid)
    _uri, token = ends["blu"][provider.client_id]
    return token


def test_a_logout_token_of_the_provider_signs_out_the_account_of_its_session(provider, client, tmp_path):
    state = sign_in(provider, client)
    sid = state.id_token_claims["sid"]
    accounts = client.open_accounts(telenorid.DirectoryStore(tmp_path), "app")
    account_id = accounts.add(state)
    changes = []
    state.on_change(lambda: changes.append(state.signed_in))

    token = provider_logs_out(provider, sid)
    logout = telenorid.BackchannelLogout(client)
    validated = logout.validate(token)
    assert validated.sid == sid and validated.iss == provider.issuer and validated.jti
    assert validated.sub is None, "idpyoidc names the session only"
    claims = validated.to_dict()
    assert claims["aud"] in (provider.client_id, [provider.client_id])
    assert claims["events"] == {"http://schemas.openid.net/event/backchannel-logout": {}}

    # §2.6 step 8: delivered twice (a retry of the provider's POST, or an attacker's replay), refused.
    with pytest.raises(telenorid.TokenInvalidError, match="was received before"):
        logout.validate(token)
    # Tampered with: the provider's signature no longer holds.
    header, payload, signature = token.split(".")
    forged = json.loads(b64decode(payload))
    forged["jti"] = "another"
    with pytest.raises(telenorid.TokenInvalidError, match="signature"):
        logout.validate(".".join([header, b64encode(json.dumps(forged).encode()), signature]))

    # The local sign-out (§2.7): the account of that session is dropped and its record signed out; the state
    # bound to the record takes the sign-out up when it next reads it, and announces it.
    assert validated.sign_out(accounts) == [account_id]
    assert accounts.list() == []
    assert validated.sign_out(accounts) == []
    state.save()
    assert not state.signed_in and changes == [False]


def test_a_logout_token_names_one_session_and_the_plain_sign_out_revokes_nothing(provider, client):
    first, second = sign_in(provider, client), sign_in(provider, client)
    assert first.id_token_claims["sid"] != second.id_token_claims["sid"]
    # idpyoidc ends the client's first session with an ID token (logout_all_clients takes one per client).
    token = telenorid.BackchannelLogout(client).validate(provider_logs_out(provider, first.id_token_claims["sid"]))
    named = [state for state in (first, second) if state.id_token_claims["sid"] == token.sid]
    others = [state for state in (first, second) if state not in named]
    assert len(named) == 1 and len(others) == 1
    assert token.sign_out(others[0]) is False and others[0].signed_in
    assert token.sign_out(named[0]) is True and not named[0].signed_in
    with pytest.raises(TypeError):
        token.sign_out("not a state")

    # The plain local sign-out: no request reaches the provider (it has no revocation endpoint to reach).
    seen = len(provider.seen)
    changes = []
    others[0].on_change(lambda: changes.append(others[0].signed_in))
    others[0].sign_out()
    assert not others[0].signed_in and changes == [False]
    others[0].sign_out()
    assert changes == [False] and len(provider.seen) == seen


def test_the_window_is_the_hosts(client):
    logout = telenorid.BackchannelLogout(client, max_age_s=60)
    logout.set("max_age_s", None)
    for bad in (0, 86401, "soon"):
        with pytest.raises(telenorid.InvalidArgumentError):
            logout.set("max_age_s", bad)
    with pytest.raises(TypeError):
        logout.set("nonce", 1)
    with pytest.raises(telenorid.TokenInvalidError, match="is not a JWS"):
        logout.validate("not a token")

