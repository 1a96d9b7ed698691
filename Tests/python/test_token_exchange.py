"""Token exchange (RFC 8693) through the ctypes binding and the `telenorid token --exchange` command, against
idpyoidc's OpenID provider (PyPI, written by someone else) in the FAPI 2.0 harness
(Tests/support/fapi_provider.py, with token_exchange=True: idpyoidc's own TokenExchangeHelper and default policy).
The user signs in there (PAR, private_key_jwt, DPoP, PKCE), and the library exchanges the access token; each
exchange is also checked on the provider's side, from what it received. What idpyoidc never answers (a
response without issued_token_type, an access token with a refresh token) comes from the test double
Tests/support/fault_provider.py, a programmable stand-in, labelled as such below."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import telenorid

pytest.importorskip("idpyoidc", reason="idpyoidc is not installed (scripts/setup.sh installs it)")
from fapi_provider import TOKEN_EXCHANGE_AUDIENCES, TOKEN_EXCHANGE_RESOURCES, start_fapi_provider  # noqa: E402
from fault_provider import FaultProvider, Response  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Do not use the \"UserPassJinja2\"")
ROOT = Path(__file__).resolve().parents[2]
EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"


@pytest.fixture(scope="module")
def provider():
    with start_fapi_provider(token_exchange=True) as running:
        yield running


def settings(provider):
    return dict(issuer=provider.issuer, client_id=provider.client_id, redirect_uri=provider.redirect_uri,
                scope="openid profile email offline_access", security_profile="fapi2",
                token_endpoint_auth_method="private_key_jwt", client_private_key=json.dumps(provider.client_private_jwk),
                dpop_signing_alg="ES256")


@pytest.fixture(scope="module")
def signed_in(provider):
    """The client and the user's access token from a FAPI 2.0 sign-in (offline_access, with consent)."""
    client = telenorid.Client(telenorid.Config.from_settings(**settings(provider)))
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config(), prompt="consent"))
    state = client.exchange_code(pending.handle_callback(provider.login(pending.url)))
    return client, state.fresh_access_token()


def test_an_access_token_for_an_audience(provider, signed_in):
    client, subject = signed_in
    exchange = telenorid.TokenExchange(subject, telenorid.TokenType.ACCESS_TOKEN,
                                       audiences=TOKEN_EXCHANGE_AUDIENCES, scope="openid profile")
    issued = exchange.exchange(client)
    assert issued.issued_token_type == telenorid.TokenType.ACCESS_TOKEN
    assert issued.token and issued.token != subject
    assert issued.token_type == "DPoP" and issued.refresh_token is None
    assert set(issued.scope.split()) == {"openid", "profile"}, "narrowed as asked"
    assert issued.token not in repr(issued)

    # The provider's side (RFC 8693 §2.1): the grant, the subject token with its type, the audience, the
    # client's assertion addressed to the issuer, a DPoP proof whose key the issued token is bound to.
    seen = provider.at("token")[-1]
    assert seen["status"] == 200
    form = seen["form"]
    assert form["grant_type"] == EXCHANGE and form["subject_token"] == subject
    assert form["subject_token_type"] == telenorid.TokenType.ACCESS_TOKEN
    assert form["audience"] == TOKEN_EXCHANGE_AUDIENCES[0] and form["scope"] == "openid profile"
    assert "actor_token" not in form and "requested_token_type" not in form and "resource" not in form
    assert seen["assertion"][1]["aud"] == provider.issuer
    # idpyoidc 5.0.0 binds the exchanged token to the key of the sign-in's tokens (its session's), not to the
    # key of the exchange's proof, which RFC 9449 §5 would have it bound to: recorded here as what it does.
    sign_in = provider.at("token")[0]
    assert sign_in["form"]["grant_type"] == "authorization_code"
    assert seen["access_token_claims"]["cnf"] == {"jkt": sign_in["dpop"]["jkt"]} != {"jkt": seen["dpop"]["jkt"]}
    assert seen["dpop"]["payload"]["htu"] == provider.issuer + "/token"
    # idpyoidc copies the subject token's expiry, which its JWT access tokens keep in the token alone: no expires_in.
    assert ("expires_in" in seen["response"]) == (issued.expires_at is not None)

    # No refresh token came with it: it can't become an auth state.
    with pytest.raises(telenorid.InvalidArgumentError, match="refresh token"):
        issued.auth_state()


def test_a_refresh_token_and_a_known_resource(provider, signed_in):
    client, subject = signed_in
    issued = telenorid.TokenExchange(subject, telenorid.TokenType.ACCESS_TOKEN, resources=TOKEN_EXCHANGE_RESOURCES,
                                     requested_token_type=telenorid.TokenType.REFRESH_TOKEN).exchange(client)
    assert issued.issued_token_type == telenorid.TokenType.REFRESH_TOKEN and issued.token
    form = provider.at("token")[-1]["form"]
    assert form["requested_token_type"] == telenorid.TokenType.REFRESH_TOKEN
    assert form["resource"] == TOKEN_EXCHANGE_RESOURCES[0]
    with pytest.raises(telenorid.InvalidArgumentError, match="not an access token"):
        issued.auth_state()


@pytest.mark.parametrize("change, oauth_error", [
    (dict(resources=["https://elsewhere.example/"]), "invalid_target"),  # not in the policy's resources
    (dict(audiences=["https://elsewhere.example/"]), "invalid_target"),
    (dict(actor_token="actor", actor_token_type=telenorid.TokenType.ACCESS_TOKEN), "invalid_request"),  # no actors
    (dict(subject_token="not-one-of-theirs"), "invalid_request"),
])
def test_the_providers_refusals(provider, signed_in, change, oauth_error):
    client, subject = signed_in
    arguments = dict(subject_token=subject, subject_token_type=telenorid.TokenType.ACCESS_TOKEN) | change
    exchange = telenorid.TokenExchange(arguments.pop("subject_token"), arguments.pop("subject_token_type"),
                                       **arguments)
    with pytest.raises(telenorid.AuthorizationError) as raised:
        exchange.exchange(client)
    assert raised.value.oauth_error == oauth_error and raised.value.http_status == 400
    assert subject not in str(raised.value)


def test_bad_arguments_are_refused_before_any_request():
    with pytest.raises(TypeError):
        telenorid.TokenExchange(b"token", telenorid.TokenType.ACCESS_TOKEN)
    with pytest.raises(TypeError):
        telenorid.TokenExchange("token", telenorid.TokenType.ACCESS_TOKEN, resources="https://api.example/")
    with pytest.raises(telenorid.InvalidArgumentError, match="RFC 8693"):
        telenorid.TokenExchange("token", "access_token")
    with pytest.raises(telenorid.InvalidArgumentError, match="together"):
        telenorid.TokenExchange("token", telenorid.TokenType.ACCESS_TOKEN, actor_token="actor")
    with pytest.raises(telenorid.InvalidArgumentError, match="fragment"):
        telenorid.TokenExchange("token", telenorid.TokenType.ACCESS_TOKEN, resources=["https://api.example/#f"])
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.TokenExchange("token", telenorid.TokenType.ACCESS_TOKEN, scope="")


def double_client(double):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=double.issuer, client_id="app", client_secret="app-secret",
        token_endpoint_auth_method="client_secret_post"))


def test_a_response_without_issued_token_type_is_refused():
    """Test double (Tests/support/fault_provider.py): idpyoidc always sends issued_token_type."""
    with FaultProvider() as double:
        double.token_behaviour = lambda form: Response(200, {"access_token": "x", "token_type": "Bearer"})
        with pytest.raises(telenorid.InvalidResponseError, match="issued_token_type"):
            telenorid.TokenExchange("subject", telenorid.TokenType.ACCESS_TOKEN).exchange(double_client(double))


def test_an_access_token_with_a_refresh_token_becomes_an_auth_state():
    """Test double (Tests/support/fault_provider.py): idpyoidc issues an exchanged token alone, never with a
    refresh token (RFC 8693 §2.2.1 allows one)."""
    with FaultProvider() as double:
        answers = {EXCHANGE: {"access_token": "exchanged", "token_type": "Bearer", "expires_in": 300,
                              "issued_token_type": telenorid.TokenType.ACCESS_TOKEN, "refresh_token": "rt-x"},
                   "refresh_token": {"access_token": "refreshed", "token_type": "Bearer", "expires_in": 300}}
        double.token_behaviour = lambda form: Response(200, answers[form["grant_type"]])
        client = double_client(double)
        issued = telenorid.TokenExchange("subject", telenorid.TokenType.ACCESS_TOKEN).exchange(client)
        assert issued.refresh_token == "rt-x"
        state = issued.auth_state()
        with pytest.raises(telenorid.ConsumedError):
            issued.auth_state()
        assert state.signed_in and state.fresh_access_token() == "exchanged"
        state.refresh()
        assert state.fresh_access_token() == "refreshed" and state.get("refresh_token") == "rt-x"


def telenorid_cli(*args, stdin=None):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file")
    environment.pop("TELENORID_CLIENT_SECRET", None)
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=environment, input=stdin)


def test_the_command(provider, signed_in, tmp_path):
    _, subject = signed_in
    config = tmp_path / "client.json"
    config.write_text(json.dumps({key: value for key, value in settings(provider).items()}))
    state = tmp_path / "state.json"
    common = ("--config", str(config), "--state-file", str(state))
    run = telenorid_cli("token", "--exchange", "--subject-token", "-", "--audience", TOKEN_EXCHANGE_AUDIENCES[0],
                        "--scope", "openid", "--json", *common, stdin=subject + "\n")
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert document["issued_token_type"] == telenorid.TokenType.ACCESS_TOKEN and document["token_type"] == "DPoP"
    assert document["token"] and document["scope"] == "openid" and document["refresh_token"] is None
    assert document["expires_in"] is None and document["expires_at"] is None  # idpyoidc sends no expires_in
    assert subject not in run.stderr
    assert provider.at("token")[-1]["form"]["subject_token"] == subject

    # Without --json: the token alone on standard output; the short name of a type.
    plain = telenorid_cli("token", "--exchange", "--subject-token", subject, "--requested-token-type",
                          "refresh_token", *common)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.count("\n") == 1 and plain.stdout.strip()
    assert telenorid.TokenType.REFRESH_TOKEN in plain.stderr
    assert not state.exists(), "nothing is kept"

    refused = telenorid_cli("token", "--exchange", "--subject-token", subject, "--resource",
                            "https://elsewhere.example/", *common)
    assert refused.returncode != 0 and "invalid_target" in refused.stderr
    for wrong in (("--subject-token", subject), ("--exchange",),
                  ("--exchange", "--subject-token", subject, "--actor-token", "a"),
                  ("--exchange", "--client-credentials", "--subject-token", subject)):
        misused = telenorid_cli("token", *wrong, *common)
        assert misused.returncode == 2, (wrong, misused.stderr)
