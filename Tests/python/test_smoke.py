"""The Python binding over the real libtelenorid: the whole local half of sign-in, and misuse."""
import gc
import json
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

import telenorid

VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


@pytest.fixture
def config():
    with telenorid.Config.from_settings(
        issuer="https://id.example.com", client_id="tnn-example", redirect_uri="telenorid-example://authcallback/",
        scope="openid profile", authorization_endpoint="https://api.vipps.no/oauth2/auth",
    ) as config:
        yield config


def query(url):
    params = parse_qs(urlsplit(url).query, keep_blank_values=True)
    assert all(len(values) == 1 for values in params.values())
    return {name: values[0] for name, values in params.items()}


def test_version():
    assert telenorid.library_version() == "0.1.0"


def test_rfc7636_appendix_b():
    with telenorid.Pkce.from_verifier(VERIFIER) as pkce:
        assert pkce.challenge == CHALLENGE
        assert pkce.verifier == VERIFIER


def test_generated_pkce():
    with telenorid.Pkce(128) as pkce:
        assert len(pkce.verifier) == 128
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce(42)


def test_authorization_url_with_claims_of_seed_001(config):
    with telenorid.AuthorizationRequest(config) as request:
        request.set("claims_purpose", "This is why RP is asking for your information")
        request.add_claim("id_token", "given_name", essential=True, purpose="This is why RP needs your name")
        request.add_claim("userinfo", "birthdate", essential=True)
        request.set("login_hint", "Åse 😀").set("aloha_token", "aloha-1")
        request.add_parameters({"resource": "https://api.example.com/"})
        pending = request.build()
    params = query(pending.url)
    assert params["response_type"] == "code"
    assert params["client_id"] == "tnn-example"
    assert params["redirect_uri"] == "telenorid-example://authcallback/"
    assert params["scope"] == "openid profile"
    assert params["state"] == pending.state and params["nonce"] == pending.nonce
    assert params["code_challenge_method"] == "S256"
    assert params["login_hint"] == "Åse 😀"
    assert params["aloha_token"] == "aloha-1"
    assert params["resource"] == "https://api.example.com/"
    assert json.loads(params["claims"]) == {
        "purpose": "This is why RP is asking for your information",
        "id_token": {"given_name": {"essential": True, "purpose": "This is why RP needs your name"}},
        "userinfo": {"birthdate": {"essential": True}},
    }
    with telenorid.Pkce.from_verifier(pending.code_verifier) as pkce:
        assert params["code_challenge"] == pkce.challenge
    pending.close()


def test_owned_parameters_cannot_be_overridden(config):
    with telenorid.AuthorizationRequest(config) as request:
        with pytest.raises(telenorid.ParameterConflict):
            request.add_parameter("state", "mine")
        with pytest.raises(telenorid.Unsupported):
            request.set_pkce_method("plain")


def test_callback_success_mismatch_and_error(config):
    pending = telenorid.AuthorizationRequest(config).build()
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_callback("telenorid-example://authcallback/?code=c&state=forged")
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_callback("telenorid-example://authcallback/?error=access_denied&error_description=No+thanks"
                                f"&state={pending.state}")
    assert caught.value.oauth_error == "access_denied"
    assert caught.value.oauth_error_description == "No thanks"
    callback = pending.handle_callback(f"telenorid-example://authcallback/?code=abc&state={pending.state}&scope=openid")
    assert callback.code == "abc"
    assert callback.parameter("scope") == "openid"
    assert callback.parameter("absent") is None
    with pytest.raises(telenorid.Consumed):
        pending.handle_callback(f"telenorid-example://authcallback/?code=abc&state={pending.state}")


def test_serialize_and_restore(config):
    pending = telenorid.AuthorizationRequest(config).build()
    restored = telenorid.PendingAuthorization.restore(config, pending.serialize())
    assert restored.url == pending.url and restored.state == pending.state
    with pytest.raises(telenorid.VersionError):
        telenorid.PendingAuthorization.restore(config, '{"version": 99}')


def test_vipps_app_callback_including_the_malformed_error_form(config):
    request = telenorid.AuthorizationRequest(config).set_app_to_app("merchantapp://app-callback")
    pending = request.build()
    assert query(pending.url)["requested_flow"] == "app_to_app"
    ok = pending.handle_app_callback(f"merchantapp://app-callback?state={pending.state}"
                                     "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t")
    assert ok.resume_uri == "https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t"
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_app_callback(f"merchantapp://app-callback?state={pending.state}?error=unknown_error")
    assert caught.value.oauth_error == "unknown_error"


def test_misuse_is_refused_before_reaching_c(config):
    with pytest.raises(TypeError):
        telenorid.AuthorizationRequest("not a config")
    with pytest.raises(TypeError):
        telenorid.Config.from_settings(issuer=42)
    with pytest.raises(TypeError):
        telenorid.Config.from_settings(isuer="typo")
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce.from_verifier("a\x00b")
    pkce = telenorid.Pkce()
    pkce.close()
    pkce.close()
    with pytest.raises(ValueError):
        _ = pkce.verifier


def test_configuration_errors_carry_messages():
    with pytest.raises(telenorid.Insecure) as caught:
        telenorid.Config.from_settings(issuer="http://id.example.com", client_id="c", redirect_uri="app://cb")
    assert "https" in caught.value.message
    with pytest.raises(telenorid.Malformed):
        telenorid.Config.from_json('{"issuer": 1, "issuer": 2}')


def test_threads_share_a_pending_authorization(config):
    pending = telenorid.AuthorizationRequest(config).build()
    url = f"telenorid-example://authcallback/?code=c&state={pending.state}"
    outcomes = []

    def attempt():
        try:
            pending.handle_callback(url)
            outcomes.append("ok")
        except telenorid.Consumed:
            outcomes.append("consumed")

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["consumed"] * 7 + ["ok"]


def _rss_kib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4


def test_no_memory_growth_over_10000_cycles(config):
    def cycle():
        with telenorid.AuthorizationRequest(config) as request:
            with request.build() as pending:
                pending.url
        with telenorid.Pkce() as pkce:
            pkce.challenge

    for _ in range(1000):
        cycle()
    gc.collect()
    before = _rss_kib()
    for _ in range(10000):
        cycle()
    gc.collect()
    grown = _rss_kib() - before
    assert grown < 2048, f"RSS grew by {grown} KiB over 10,000 cycles"
