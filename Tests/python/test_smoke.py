"""The Python binding over the real libtelenorid: the local half of sign-in, the binding's own rules
(types checked before C, handles closed once, parents kept alive) and memory over many cycles.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import ctypes
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

REPO = Path(__file__).resolve().parent.parent.parent

import telenorid  # noqa: E402
from telenorid import _constants, _ffi  # noqa: E402

# RFC 7636 appendix B.
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

ISSUER = "https://id.example.com"
ENDPOINT = "https://api.vipps.no/oauth2/auth"
REDIRECT = "telenorid-example://authcallback/"
CLIENT_ID = "tnn-example"
UNRESERVED_43 = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 256 bits as unpadded base64url

# The claims request of the OIDC claims request for native apps (OIDC Core §5.5) ("Request for native apps"), top-level purpose and per-claim
# purpose/essential.
SEED_001_CLAIMS = {
    "purpose": "This is why RP is asking for your information",
    "id_token": {
        "given_name": {"purpose": "This is why RP needs your name", "essential": True},
        "phone_number": {"purpose": "This is why RP needs your phone number", "essential": True},
        "birthdate": {"purpose": "This is why RP needs your DOB", "essential": True},
    },
    "userinfo": {"birthdate": {"essential": True}},
}


@pytest.fixture
def config():
    with telenorid.Config.from_settings(issuer=ISSUER, client_id=CLIENT_ID, redirect_uri=REDIRECT,
                                        scope="openid profile", authorization_endpoint=ENDPOINT) as config:
        yield config


@pytest.fixture
def pending(config):
    with telenorid.AuthorizationRequest(config).build() as pending:
        yield pending


def query(url):
    """The query of a URL as a dict, asserting no parameter repeats."""
    pairs = parse_qsl(urlsplit(url).query, keep_blank_values=True, strict_parsing=True)
    names = [name for name, _ in pairs]
    assert len(names) == len(set(names)), f"repeated parameters in {url}"
    return dict(pairs)


def last_error_status():
    """The status of this thread's last recorded error, read straight from C (None when there is none)."""
    error = _ffi.lib.telenorid_error_last()
    if not error:
        return None
    try:
        return _ffi.lib.telenorid_error_status(error), _ffi.lib.telenorid_error_message(error)
    finally:
        _ffi.lib.telenorid_error_free(error)


# --- loading and declarations ------------------------------------------------------------------------


def test_version():
    # telenorid.__version__ is the header's TELENORID_VERSION_STRING (scripts/check_facts.py checks it).
    assert telenorid.library_version() == telenorid.__version__
    number = telenorid.library_version_number()
    assert number >> 16 == _ffi.EXPECTED_MAJOR and (number >> 8) & 0xFF >= _ffi.EXPECTED_MINOR
    major, minor, patch = (int(part) for part in telenorid.__version__.split("."))
    assert number == (major << 16) | (minor << 8) | patch


def _import_with(library, tmp_path):
    """Imports telenorid in a fresh interpreter with TELENORID_LIBRARY set; returns (exit code, stderr)."""
    env = dict(os.environ, TELENORID_LIBRARY=str(library), PYTHONPATH=str(REPO / "bindings" / "python"))
    done = subprocess.run([sys.executable, "-c", "import telenorid; telenorid.Client"], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    return done.returncode, done.stderr


def test_loading_fails_with_a_message_that_says_what_to_do(tmp_path):
    code, stderr = _import_with(tmp_path / "missing.so", tmp_path)
    assert code != 0 and "ImportError" in stderr and "TELENORID_LIBRARY" in stderr and "make" in stderr
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler for a stand-in library")
    for number, expected in ((0x010000, "1.0.0"), (0x000000, "0.0.0")):  # another major; an older minor
        source = tmp_path / "fake.c"
        source.write_text(f"unsigned telenorid_version(void) {{ return {number}u; }}\n")
        library = tmp_path / f"libfake{number}.so"
        subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
        code, stderr = _import_with(library, tmp_path)
        assert code != 0 and "ImportError" in stderr and f"libtelenorid {expected}" in stderr
        assert f"{_ffi.EXPECTED_MAJOR}.{_ffi.EXPECTED_MINOR} or a later {_ffi.EXPECTED_MAJOR}.x" in stderr


def test_every_header_function_is_declared_with_its_arity():
    header = (REPO / "include" / "telenorid.h").read_text()
    header = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    declared = {}
    for match in re.finditer(r"^[a-z_][\w\s\*]*?\b(telenorid_\w+)\s*\(([^)]*)\)\s*;", header, flags=re.M):
        params = match.group(2).strip()
        declared[match.group(1)] = 0 if params in ("", "void") else params.count(",") + 1
    assert len(declared) > 60
    assert set(declared) == set(_ffi.SIGNATURES), "the binding and the header list different functions"
    for name, arity in declared.items():
        function = getattr(_ffi.lib, name)
        assert function.argtypes is not None and len(function.argtypes) == arity, name
        assert function.restype == _ffi.SIGNATURES[name][0], name


def test_handle_types_cannot_be_mixed(config):
    with telenorid.Pkce.new() as pkce:
        with pytest.raises(ctypes.ArgumentError):
            _ffi.lib.telenorid_config_get(pkce._pointer, 2, ctypes.byref(ctypes.c_void_p()))
    with pytest.raises(ctypes.ArgumentError):
        _ffi.lib.telenorid_pkce_free(config._pointer)


def test_every_status_has_its_exception_and_a_name():
    expected = {
        1: telenorid.InvalidArgument, 2: telenorid.Malformed, 3: telenorid.ConfigurationError, 4: telenorid.Insecure,
        5: telenorid.Unsupported, 6: telenorid.ParameterConflict, 7: telenorid.RandomFailure,
        8: telenorid.StateMismatch, 9: telenorid.RedirectMismatch, 10: telenorid.IssuerMismatch,
        11: telenorid.AuthorizationError, 12: telenorid.Consumed, 13: telenorid.VersionError,
    }
    for status, cls in expected.items():
        assert issubclass(cls, telenorid.TelenoridError) and cls.code == status
        assert telenorid.errors._BY_STATUS[status] is cls
    assert sorted(telenorid.errors._BY_STATUS) == sorted(_constants.STATUS.values())
    for status in range(0, 30):
        assert telenorid.status_str(status)
    assert issubclass(telenorid.InvalidArgument, ValueError)


# --- PKCE ---------------------------------------------------------------------------------------------


def test_rfc7636_appendix_b():
    with telenorid.Pkce.from_verifier(VERIFIER) as pkce:
        assert pkce.challenge == CHALLENGE
        assert pkce.verifier == VERIFIER


def test_generated_pkce():
    with telenorid.Pkce.new() as pkce:
        assert re.fullmatch(r"[A-Za-z0-9._~-]{64}", pkce.verifier)
        with telenorid.Pkce.from_verifier(pkce.verifier) as again:
            assert again.challenge == pkce.challenge
    for length in (43, 128):
        with telenorid.Pkce.new(length) as pkce:
            assert len(pkce.verifier) == length
    with telenorid.Pkce(50) as pkce:  # the constructor is Pkce.new
        assert len(pkce.verifier) == 50
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce.new(42)
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce.new(129)
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce.new(-1)  # would wrap around as a size_t
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.Pkce.from_verifier("short")


# --- authorization URL --------------------------------------------------------------------------------


def test_full_authorization_url_with_a_native_app_claims_request(config):
    with telenorid.AuthorizationRequest(config, prompt="login", max_age=600) as request:
        request.set("claims_purpose", SEED_001_CLAIMS["purpose"])
        for target in ("id_token", "userinfo"):
            for name, spec in SEED_001_CLAIMS[target].items():
                request.add_claim(target, name, essential=spec.get("essential"), purpose=spec.get("purpose"))
        request.set("login_hint", "Åse 😀 +47&x=y").set("ui_locales", "nb en").set("aloha_token", "aloha-1")
        request.add_parameter("resource", "https://api.example.com/?a=b")
        with request.build() as pending:
            url, state, nonce, verifier = pending.url, pending.state, pending.nonce, pending.code_verifier

    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path, parts.fragment) == ("https", "api.vipps.no", "/oauth2/auth", "")
    params = query(url)
    assert params.pop("response_type") == "code"
    assert params.pop("client_id") == CLIENT_ID
    assert params.pop("redirect_uri") == REDIRECT
    assert params.pop("scope") == "openid profile"
    assert params.pop("state") == state and UNRESERVED_43.match(state)
    assert params.pop("nonce") == nonce and UNRESERVED_43.match(nonce) and nonce != state
    with telenorid.Pkce.from_verifier(verifier) as pkce:
        assert params.pop("code_challenge") == pkce.challenge
    assert params.pop("code_challenge_method") == "S256"
    assert params.pop("prompt") == "login"
    assert params.pop("max_age") == "600"
    assert params.pop("login_hint") == "Åse 😀 +47&x=y"
    assert params.pop("ui_locales") == "nb en"
    assert params.pop("aloha_token") == "aloha-1"
    assert params.pop("resource") == "https://api.example.com/?a=b"
    assert json.loads(params.pop("claims")) == SEED_001_CLAIMS
    assert params == {}, f"unexpected parameters {params}"


def test_each_build_draws_fresh_secrets(config):
    with telenorid.AuthorizationRequest(config) as request:
        first, second = request.build(), request.build()
    assert first.state != second.state and first.nonce != second.nonce
    assert first.code_verifier != second.code_verifier
    assert query(first.url)["code_challenge"] != query(second.url)["code_challenge"]


def test_claim_values_are_sent_as_json(config):
    with telenorid.AuthorizationRequest(config) as request:
        request.add_claim("id_token", "acr", essential=False, values=["urn:a", "urn:b"])
        request.add_claim("userinfo", "nationality", value="NO")
        request.add_claim("userinfo", "email")
        claims = json.loads(query(request.build().url)["claims"])
    assert claims == {"id_token": {"acr": {"essential": False, "values": ["urn:a", "urn:b"]}},
                      "userinfo": {"nationality": {"value": "NO"}, "email": None}}


def test_the_library_owns_its_parameters(config):
    with telenorid.AuthorizationRequest(config) as request:
        for owned in ("state", "client_id", "nonce", "code_challenge", "claims", "prompt"):
            with pytest.raises(telenorid.ParameterConflict):
                request.add_parameter(owned, "mine")
        request.add_parameter("resource", "a")
        with pytest.raises(telenorid.ParameterConflict):
            request.add_parameter("resource", "b")
        request.add_claim("id_token", "name")
        with pytest.raises(telenorid.ParameterConflict):
            request.add_claim("id_token", "name")
        with pytest.raises(telenorid.Unsupported):
            request.set_pkce_method("plain")
        with pytest.raises(telenorid.InvalidArgument):
            request.set("max_age", "ten")


def test_plain_pkce_only_when_the_configuration_allows_it():
    with telenorid.Config.from_settings(issuer=ISSUER, client_id=CLIENT_ID, redirect_uri=REDIRECT,
                                        authorization_endpoint=ENDPOINT, allow_plain_pkce=True) as config:
        assert config.get("allow_plain_pkce") == "true"
        with telenorid.AuthorizationRequest(config).set_pkce_method("plain") as request:
            pending = request.build()
            params = query(pending.url)
    assert params["code_challenge_method"] == "plain"
    assert params["code_challenge"] == pending.code_verifier


# --- callback -----------------------------------------------------------------------------------------


def test_callback_success(pending):
    with pending.handle_callback(f"{REDIRECT}?code=SplxlOBeZQQYbYS6WxSbIA&state={pending.state}"
                                 "&scope=openid%20profile&session_state=xyz") as callback:
        assert callback.code == "SplxlOBeZQQYbYS6WxSbIA"
        assert callback.parameter("scope") == "openid profile"
        assert callback.parameter("session_state") == "xyz"
        assert callback.parameter("absent") is None
    with pytest.raises(telenorid.Consumed):
        pending.handle_callback(f"{REDIRECT}?code=again&state={pending.state}")


def test_callback_state_mismatch(pending):
    with pytest.raises(telenorid.StateMismatch) as caught:
        pending.handle_callback(f"{REDIRECT}?code=c&state=forged")
    assert caught.value.status == 8 and caught.value.message
    # An error answer with a forged state: nothing it says is passed on as the provider's word.
    with pytest.raises(telenorid.StateMismatch) as caught:
        pending.handle_callback(f"{REDIRECT}?error=access_denied&error_description=Call+us&state=forged")
    assert caught.value.oauth_error is None and caught.value.oauth_error_description is None
    # A forged or failed callback does not consume the pending request.
    assert pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}").code == "c"


def test_callback_error_carries_the_oauth_fields(pending):
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_callback(f"{REDIRECT}?error=access_denied&error_description=No%20thanks%2C+Bob"
                                f"&error_uri=https%3A%2F%2Fdocs.example%2Fe&state={pending.state}")
    error = caught.value
    assert isinstance(error, telenorid.TelenoridError)
    assert error.status == telenorid.AuthorizationError.code == 11
    assert error.oauth_error == "access_denied"
    assert error.oauth_error_description == "No thanks, Bob"
    assert error.oauth_error_uri == "https://docs.example/e"
    assert error.http_status is None
    assert "access_denied" in str(error)


def test_callback_checks(pending):
    with pytest.raises(telenorid.RedirectMismatch):
        pending.handle_callback(f"telenorid-example://elsewhere/?code=c&state={pending.state}")
    with pytest.raises(telenorid.IssuerMismatch):
        pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}&iss=https%3A%2F%2Fevil.example")
    with pytest.raises(telenorid.Malformed):
        pending.handle_callback(f"{REDIRECT}?code=a&code=b&state={pending.state}")


def test_serialize_and_restore(config, pending):
    document = pending.serialize()
    assert json.loads(document)["version"] == 1
    with telenorid.PendingAuthorization.restore(config, document) as restored:
        assert (restored.url, restored.state, restored.nonce, restored.code_verifier) == (
            pending.url, pending.state, pending.nonce, pending.code_verifier)
        assert restored.handle_callback(f"{REDIRECT}?code=c&state={pending.state}").code == "c"
    with pytest.raises(telenorid.VersionError):
        telenorid.PendingAuthorization.restore(config, json.dumps(dict(json.loads(document), version=99)))
    with pytest.raises(telenorid.Malformed):
        telenorid.PendingAuthorization.restore(config, "not json")
    with telenorid.Config.from_settings(issuer=ISSUER, client_id="someone-else", redirect_uri=REDIRECT,
                                        authorization_endpoint=ENDPOINT) as other:
        with pytest.raises(telenorid.ConfigurationError):
            telenorid.PendingAuthorization.restore(other, document)


# --- Vipps app-to-app ---------------------------------------------------------------------------------


def test_vipps_app_callback_including_the_malformed_error_form(config):
    with telenorid.AuthorizationRequest(config).set_app_to_app("merchantapp://app-callback") as request:
        pending = request.build()
    params = query(pending.url)
    assert params["requested_flow"] == "app_to_app"
    assert params["app_callback_uri"] == "merchantapp://app-callback"
    state = pending.state

    # As the provider's own example sends it: resume_uri with an unencoded query of its own.
    with pending.handle_app_callback(f"merchantapp://app-callback?state={state}"
                                     "&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t"
                                     ) as ok:
        assert ok.resume_uri == "https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t"
    assert pending.handle_app_callback(f"merchantapp://app-callback?state={state}").resume_uri is None
    with pytest.raises(telenorid.TelenoridError):  # a resume_uri on another host is refused
        pending.handle_app_callback(f"merchantapp://app-callback?state={state}&resume_uri=https://evil.example/x")
    allowed = pending.handle_app_callback(f"merchantapp://app-callback?state={state}"
                                          "&resume_uri=https://login.example/x", allowed_resume_host="login.example")
    assert allowed.resume_uri == "https://login.example/x"
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_app_callback("merchantapp://app-callback?state=forged")

    # The error form of the provider's examples: `state=...?error=...`.
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_app_callback(f"merchantapp://app-callback?state={state}?error=unknown_error")
    assert caught.value.oauth_error == "unknown_error"

    # The app callback does not consume: the code still arrives at the redirect URI.
    assert pending.handle_callback(f"{REDIRECT}?code=c&state={state}").code == "c"


# --- configuration ------------------------------------------------------------------------------------


def test_configuration_from_json_and_errors():
    document = json.dumps({"default_environment": "production", "environments": {
        "staging": {"issuer": "https://s.example", "client_id": "s", "redirect_uri": "app://cb"},
        "production": {"issuer": "https://p.example", "client_id": "p", "redirect_uri": "app://cb",
                       "scopes": ["openid", "email"]}}})
    with telenorid.Config.from_json(document) as production:
        assert production.get("client_id") == "p" and production.get("scope") == "openid email"
        assert production.get("proxy") is None
    with telenorid.Config.from_json(document, environment="staging") as staging:
        assert staging.get("issuer") == "https://s.example"
    with pytest.raises(telenorid.ConfigurationError):
        telenorid.Config.from_json(document, "nope")
    with pytest.raises(telenorid.ConfigurationError):  # misspelt settings are not ignored
        telenorid.Config.from_json('{"issuer": "https://a.example", "client_id": "x", "redirect_uri": "a://b", '
                                   '"isuer": "x"}')
    with pytest.raises(telenorid.Insecure) as caught:
        telenorid.Config.from_settings(issuer="http://id.example.com", client_id="c", redirect_uri="app://cb")
    assert "https" in caught.value.message
    with pytest.raises(telenorid.ConfigurationError):
        telenorid.Config.from_settings(client_id="c", redirect_uri="app://cb")
    with pytest.raises(telenorid.Malformed):
        telenorid.Config.from_json('{"issuer": 1, "issuer": 2}')
    with telenorid.Config.from_settings(issuer=ISSUER, client_id="c", redirect_uri="app://cb",
                                        timeout_ms=1500) as config:
        assert config.get("timeout_ms") == "1500"
        with pytest.raises(telenorid.ConfigurationError):  # no authorization endpoint
            telenorid.AuthorizationRequest(config).build()


# --- the binding's own rules --------------------------------------------------------------------------


def test_wrong_types_are_refused_before_c(config, pending):
    # Leave a known error as this thread's last; a call that reached C and failed would replace it.
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_callback(f"{REDIRECT}?code=c&state=forged")
    marker = last_error_status()
    assert marker[0] == 8

    request = telenorid.AuthorizationRequest(config)
    refused = [
        lambda: telenorid.AuthorizationRequest("not a config"),
        lambda: telenorid.AuthorizationRequest(telenorid.Pkce.new()),
        lambda: telenorid.PendingAuthorization.restore(object(), "{}"),
        lambda: telenorid.Config.from_settings(issuer=42),
        lambda: telenorid.Config.from_settings(issuer=b"https://id.example.com"),
        lambda: telenorid.Config.from_settings(scope=True),
        lambda: telenorid.Config.from_settings(isuer="typo"),
        lambda: telenorid.Config.from_json(b"{}"),
        lambda: telenorid.Config.from_json("{}", environment=1),
        lambda: config.get(2),
        lambda: telenorid.Pkce.new("64"),
        lambda: telenorid.Pkce.new(64.0),
        lambda: telenorid.Pkce.new(True),
        lambda: telenorid.Pkce.from_verifier(None),
        lambda: request.set("prompt", 1),
        lambda: request.set(2, "login"),
        lambda: request.add_parameter("x", None),
        lambda: request.add_parameter(b"x", "y"),
        lambda: request.add_claim("id_token", "name", essential="yes"),
        lambda: request.add_claim("id_token", "name", values="not-a-list"),
        lambda: request.add_claim("id_token", "name", value=object()),
        lambda: request.add_claim(1, "name"),
        lambda: request.set_app_to_app(None),
        lambda: request.set_pkce_method(0),
        lambda: pending.handle_callback(None),
        lambda: pending.handle_callback(b"telenorid-example://authcallback/?code=c"),
        lambda: pending.handle_app_callback("merchantapp://x", allowed_resume_host=3),
        lambda: telenorid.Client("not a config"),
    ]
    for call in refused:
        with pytest.raises(TypeError):
            call()
    # Unknown names and NULs: ValueError, also before C.
    for call in [lambda: config.get("isuer"), lambda: request.set("promt", "login"),
                 lambda: request.add_claim("access_token", "name"), lambda: request.set_pkce_method("S512"),
                 lambda: telenorid.Pkce.from_verifier("a\0b"), lambda: pending.handle_callback("x\0y")]:
        with pytest.raises(ValueError):
            call()
    assert last_error_status() == marker, "a refused call reached the library"


def test_use_after_close_is_refused_before_c(config):
    request = telenorid.AuthorizationRequest(config)
    pending = request.build()
    callback = telenorid.AuthorizationRequest(config).build()
    callback = callback.handle_callback(f"{REDIRECT}?code=c&state={callback.state}")
    app = telenorid.AuthorizationRequest(config).set_app_to_app("app://x").build()
    app_callback = app.handle_app_callback(f"app://x?state={app.state}")
    pkce = telenorid.Pkce.new()
    other = telenorid.Config.from_settings(issuer=ISSUER, client_id="c", redirect_uri="app://cb")
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_callback(f"{REDIRECT}?code=c&state=forged")
    marker = last_error_status()

    for handle in (request, pending, callback, app_callback, pkce, other):
        assert not handle.closed
        handle.close()
        assert handle.closed
        handle.close()  # idempotent
    uses = [
        lambda: pkce.verifier, lambda: pkce.challenge, lambda: other.get("issuer"),
        lambda: telenorid.AuthorizationRequest(other), lambda: telenorid.PendingAuthorization.restore(other, "{}"),
        lambda: request.build(), lambda: request.set("prompt", "login"), lambda: request.add_parameter("a", "b"),
        lambda: request.add_claim("id_token", "name"), lambda: request.set_app_to_app("app://x"),
        lambda: request.set_pkce_method("S256"),
        lambda: pending.url, lambda: pending.state, lambda: pending.nonce, lambda: pending.code_verifier,
        lambda: pending.serialize(), lambda: pending.handle_callback(REDIRECT),
        lambda: pending.handle_app_callback("app://x"),
        lambda: callback.code, lambda: callback.parameter("scope"), lambda: app_callback.resume_uri,
    ]
    for use in uses:
        with pytest.raises(ValueError) as caught:
            use()
        assert isinstance(caught.value, telenorid.InvalidArgument) and "closed" in str(caught.value)
    with pytest.raises(ValueError):
        with pkce:
            pass
    assert last_error_status() == marker, "a closed handle reached the library"


def test_context_managers_close_and_double_close_is_fine(config):
    with telenorid.Pkce.new() as pkce:
        assert pkce.challenge
    assert pkce.closed
    pkce.close()
    pkce.close()
    assert repr(pkce) == "<telenorid.Pkce closed>"
    with telenorid.AuthorizationRequest(config) as request:
        with request.build() as pending:
            assert repr(pending) == "<telenorid.PendingAuthorization>"  # never a secret
    assert request.closed and pending.closed


def test_children_keep_parents_and_close_in_any_order():
    config = telenorid.Config.from_settings(issuer=ISSUER, client_id=CLIENT_ID, redirect_uri=REDIRECT,
                                            authorization_endpoint=ENDPOINT)
    watch = weakref.ref(config)
    request = telenorid.AuthorizationRequest(config)
    del config
    gc.collect()
    assert watch() is not None and request.config is watch()
    pending = request.build()
    request.close()
    watch().close()  # the parent closed first: the C side keeps it alive for its children
    callback = pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}")
    del pending
    gc.collect()
    assert callback.code == "c"
    callback.close()


def test_garbage_collection_frees_the_handle():
    pkce = telenorid.Pkce.new()
    native = pkce._native
    assert native.owned is not None
    del pkce
    gc.collect()
    assert native.owned is None and native.pointer is None


def test_garbage_collection_frees_a_handle_in_a_reference_cycle():
    pkce = telenorid.Pkce.new()
    native = pkce._native
    cycle = [pkce]
    cycle.append(cycle)
    del pkce, cycle
    gc.collect()
    assert native.owned is None


def test_closed_and_collected_handles_leave_the_exit_hooks_list(config):
    from telenorid._handle import _open

    gc.collect()
    before = len(_open)
    with telenorid.AuthorizationRequest(config) as request:
        pending = request.build()
        assert len(_open) == before + 2
        pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}").close()
        telenorid.Pkce.new().verifier  # left to the garbage collector
    del pending
    gc.collect()
    assert len(_open) == before


def test_interpreter_exit_frees_the_handles_still_open():
    # One referenced by a module and one in a reference cycle: both freed (secrets wiped) by the library's
    # exit hook, before the atexit hook registered ahead of it runs (hooks run last in, first out) and so
    # before module teardown, without an error reported on the way out.
    script = """if True:
        import atexit
        atexit.register(lambda: print("at exit", kept.closed, cycle[0].closed))
        import telenorid
        kept = telenorid.Pkce.new()
        cycle = [telenorid.Pkce.new()]
        cycle.append(cycle)
        closed = telenorid.Pkce.new()
        closed.close()
        for handle in (kept, cycle[0], closed):
            release = handle._native.release
            handle._native.release = lambda *args, release=release: (print("freed"), release(*args))
    """
    done = subprocess.run([sys.executable, "-c", script], env=dict(os.environ), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == ["freed", "freed", "at exit True True"]


def test_threads_share_a_pending_authorization(pending):
    url = f"{REDIRECT}?code=c&state={pending.state}"
    outcomes = []

    def attempt():
        try:
            pending.handle_callback(url).close()
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
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_10000_create_free_cycles_do_not_grow_memory(config):
    def cycle(i):
        with telenorid.AuthorizationRequest(config) as request:
            request.add_claim("id_token", "given_name", essential=True, purpose="why")
            with request.build() as pending:
                pending.url
                if i % 2:
                    with pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}") as callback:
                        callback.code
                else:
                    with pytest.raises(telenorid.StateMismatch):  # errors are freed too
                        pending.handle_callback(f"{REDIRECT}?code=c&state=forged")
        with telenorid.Pkce.new() as pkce:
            pkce.challenge
        telenorid.Pkce.new().verifier  # left to the garbage collector's safety net

    for i in range(1000):  # warm-up: allocator pools, caches, lazily built tables
        cycle(i)
    gc.collect()
    before = _rss_kib()
    for i in range(10000):
        cycle(i)
    gc.collect()
    grown = _rss_kib() - before
    # A leak of even 100 bytes a cycle would be ~1 MiB; allow some slack for allocator noise.
    assert grown < 1024, f"RSS grew by {grown} KiB over 10,000 cycles"
