"""TelenorID+ line authentication through Aloha, via the ctypes binding, against a local stand-in for
Aloha (Tests/support/aloha_server.py: https with a test CA, a plain-http inject port, fault modes) and the
real OpenID provider (django-oauth-toolkit) for the sign-in that carries the aloha_token."""
import os
import re
import stat
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

import telenorid

from aloha_server import UUID4, start_aloha  # noqa: E402
from browser import complete_login  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"


@pytest.fixture(scope="module")
def aloha():
    with start_aloha() as info:
        yield info


def config(aloha, mode, **extra):
    settings = dict(issuer="https://id.example", client_id="app", redirect_uri=REDIRECT,
                    authorization_endpoint="https://id.example/authorize",
                    aloha_url=f"{aloha['base']}/{mode}", ca_file=aloha["ca_file"])
    settings.update(extra)
    return telenorid.Config.from_settings(**settings)


def stats(aloha, mode):
    return aloha["stats"]().get(mode, {"prepare": 0, "inject": 0, "session": 0, "log_ids": []})


def query(url):
    return parse_qs(urlsplit(url).query)


def test_sign_in_at_the_real_provider_carries_aloha_token(aloha, provider):
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT,
        scope="openid profile", aloha_url=f"{aloha['base']}/signin", ca_file=aloha["ca_file"]))
    client.discover()
    line_auth = telenorid.LineAuthenticator(client.config())
    request = telenorid.AuthorizationRequest(client.config())
    line_auth.apply(request)
    pending = request.build()
    token = query(pending.url)["aloha_token"]
    assert len(token) == 1 and UUID4.match(token[0])
    seen = stats(aloha, "signin")
    assert (seen["prepare"], seen["inject"], seen["session"]) == (1, 1, 1)
    assert UUID4.match(seen["log_ids"][0])
    # The provider accepts the request with the extra parameter and the login completes.
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    state = client.exchange_code(pending.handle_callback(redirect))
    assert state.signed_in


def test_background_session_is_reused_at_sign_in(aloha):
    cfg = config(aloha, "reuse")
    line_auth = telenorid.LineAuthenticator(cfg)
    worker = threading.Thread(target=line_auth.run)  # as a host would, before the login screen
    worker.start()
    worker.join()
    assert 250 < line_auth.valid_for <= 300
    tokens = set()
    for _ in range(3):
        request = telenorid.AuthorizationRequest(cfg)
        line_auth.apply(request)
        tokens.update(query(request.build().url)["aloha_token"])
    assert len(tokens) == 1
    assert stats(aloha, "reuse")["prepare"] == 1


def test_exp_as_a_string_of_digits(aloha):
    line_auth = telenorid.LineAuthenticator(config(aloha, "exp_string"))
    line_auth.run()
    assert 250 < line_auth.valid_for <= 300


def test_expired_session_triggers_a_new_exchange(aloha):
    cfg = config(aloha, "short")  # exp 1
    line_auth = telenorid.LineAuthenticator(cfg)
    line_auth.run()
    # Wait for the session to lapse (a condition, not a timing assertion).
    lapsed = threading.Event()
    for _ in range(100):  # exp is 1 s; give up after 10 s rather than hang
        if line_auth.valid_for == 0:
            lapsed.set()
            break
        lapsed.wait(0.1)
    assert lapsed.is_set()
    request = telenorid.AuthorizationRequest(cfg)
    line_auth.apply(request)
    assert "aloha_token" in query(request.build().url)
    seen = stats(aloha, "short")
    assert seen["prepare"] == 2 and seen["session"] == 2
    assert len(set(seen["log_ids"])) == 2, "each prepare call has its own log uuid"


@pytest.mark.parametrize("mode, error, words", [
    ("malformed_prepare", telenorid.InvalidResponse, "not JSON"),
    ("missing_inject", telenorid.InvalidResponse, "injectPath"),
    ("malformed_session", telenorid.InvalidResponse, "not JSON"),
    ("missing_uuid", telenorid.InvalidResponse, "uuid"),
    ("missing_exp", telenorid.InvalidResponse, "exp"),
    ("expired", telenorid.InvalidResponse, "expired"),
    ("no_redirect", telenorid.InvalidResponse, "not a redirect"),
    ("redirect_http", telenorid.Insecure, "not https"),
    ("redirect_other_host", telenorid.Insecure, "away from the configured Aloha host"),
    ("two_redirects", telenorid.InvalidResponse, "second time"),
    ("status_500", telenorid.TemporarilyUnavailable, "HTTP 500"),
])
def test_failure_leaves_sign_in_without_aloha_token(aloha, mode, error, words):
    cfg = config(aloha, mode)
    line_auth = telenorid.LineAuthenticator(cfg)
    request = telenorid.AuthorizationRequest(cfg)
    with pytest.raises(error) as caught:
        line_auth.apply(request)
    assert words in caught.value.message
    if mode == "status_500":
        assert caught.value.http_status == 500
    assert line_auth.valid_for == 0
    url = request.build().url  # sign-in goes on without line authentication
    assert "aloha_token" not in query(url) and "client_id" in query(url)


def test_hanging_aloha_times_out(aloha):
    line_auth = telenorid.LineAuthenticator(config(aloha, "hang", timeout_ms=500))
    with pytest.raises(telenorid.Timeout):
        line_auth.run()


def test_tls_is_verified_with_the_configured_ca(aloha):
    # Without the test CA the system's trust store is used, which does not know the stand-in's issuer.
    line_auth = telenorid.LineAuthenticator(config(aloha, "untrusted", ca_file=None))
    with pytest.raises(telenorid.TLSError):
        line_auth.run()
    assert stats(aloha, "untrusted")["prepare"] == 0


def test_socket_hook_sees_every_socket(aloha):
    line_auth = telenorid.LineAuthenticator(config(aloha, "hooked"))
    seen = []

    def hook(fd):
        seen.append(stat.S_ISSOCK(os.fstat(fd).st_mode))
        return "allow"

    line_auth.set_socket_hook(hook)
    line_auth.run()
    line_auth.run()
    # prepare, inject and session each on a fresh connection: three sockets per exchange.
    assert seen == [True] * 6
    assert stats(aloha, "hooked")["session"] == 2


def test_socket_hook_can_refuse(aloha):
    line_auth = telenorid.LineAuthenticator(config(aloha, "refused"))
    calls = []
    line_auth.set_socket_hook(lambda fd: calls.append(fd) or "refuse")
    with pytest.raises(telenorid.NetworkError) as caught:
        line_auth.run()
    assert "socket hook refused" in caught.value.message
    assert len(calls) >= 1 and stats(aloha, "refused")["prepare"] == 0


def test_not_on_cellular_is_a_distinct_outcome(aloha):
    cfg = config(aloha, "wifi")
    line_auth = telenorid.LineAuthenticator(cfg)
    line_auth.set_socket_hook(lambda fd: "not_cellular")
    request = telenorid.AuthorizationRequest(cfg)
    with pytest.raises(telenorid.LineAuthUnavailable) as caught:
        line_auth.apply(request)
    assert caught.value.status == 23 and "cellular" in caught.value.message
    assert telenorid.status_str(23) == "line authentication unavailable"
    assert "aloha_token" not in query(request.build().url)
    # The user turned Wi-Fi off: the hook now lets sockets through and line authentication works.
    line_auth.set_socket_hook(lambda fd: "allow")
    line_auth.apply(request)
    assert "aloha_token" in query(request.build().url)
    line_auth.set_socket_hook(None)


def test_configuration(aloha):
    with pytest.raises(telenorid.LineAuthUnavailable):
        telenorid.LineAuthenticator(telenorid.Config.from_settings(issuer="https://id.example", client_id="a",
                                                                   redirect_uri=REDIRECT))
    with pytest.raises(telenorid.Insecure):
        telenorid.Config.from_settings(issuer="https://id.example", client_id="a", redirect_uri=REDIRECT,
                                       aloha_url="http://aloha.example")
    with pytest.raises(telenorid.Insecure):  # loopback http is fine for endpoints, not for Aloha
        telenorid.LineAuthenticator(telenorid.Config.from_settings(issuer="https://id.example", client_id="a",
                                                                   redirect_uri=REDIRECT,
                                                                   aloha_url="http://127.0.0.1:1"))
    from_json = telenorid.Config.from_json(
        '{"issuer": "https://id.example", "client_id": "a", "redirect_uri": "%s", "aloha_url": "%s/ok"}'
        % (REDIRECT, aloha["base"]))
    assert from_json.get("aloha_url") == aloha["base"] + "/ok"


def test_aloha_token_set_by_the_host_is_not_overridden(aloha):
    cfg = config(aloha, "ok")
    request = telenorid.AuthorizationRequest(cfg)
    request.set("aloha_token", "mine")
    with pytest.raises(telenorid.ParameterConflict):
        telenorid.LineAuthenticator(cfg).apply(request)
    assert query(request.build().url)["aloha_token"] == ["mine"]


# ---- Under a host name: the resolver, no proxy, the margin ----
# libcurl never proxies loopback addresses and the system resolver answers only for names, so these run
# against the stand-in under "aloha.test", which a private /etc/hosts (a mount namespace of this thread and
# the threads it starts, libcurl's resolver threads among them) names 127.0.0.2; it also listens on
# 127.0.0.3, the address the tests' resolver answers.

def _private_hosts():
    import ctypes
    import tempfile
    if os.geteuid() != 0:
        pytest.skip("a private /etc/hosts needs root")
    libc = ctypes.CDLL(None, use_errno=True)
    hosts = tempfile.NamedTemporaryFile("w", prefix="telenorid-hosts-", delete=False)
    hosts.write("127.0.0.1 localhost\n::1 localhost\n127.0.0.2 aloha.test\n")
    hosts.close()
    clone_newns, ms_rec, ms_private, ms_bind = 0x00020000, 0x4000, 1 << 18, 0x1000
    made = (libc.unshare(clone_newns) == 0 and libc.mount(None, b"/", None, ms_rec | ms_private, None) == 0
            and libc.mount(hosts.name.encode(), b"/etc/hosts", None, ms_bind, None) == 0)
    os.unlink(hosts.name)
    if not made:
        pytest.skip(f"no private /etc/hosts: {os.strerror(ctypes.get_errno())}")
    return libc


@pytest.fixture(scope="module")
def named():
    libc = _private_hosts()
    try:
        with start_aloha("aloha.test", ("127.0.0.2", "127.0.0.3"), proxy=True) as info:
            yield info
    finally:
        libc.umount2(b"/etc/hosts", 0)


def named_config(named, mode, **extra):
    return config(named, mode, proxy=named["proxy"], **extra)


def reached(named, mode):
    return named["stats"]().get(mode, {}).get("addresses", {})


def test_without_a_resolver_the_system_resolver_answers(named):
    telenorid.LineAuthenticator(named_config(named, "py_system")).run()
    assert reached(named, "py_system") == {"127.0.0.2": 3}


def test_the_resolver_answers_every_lookup_and_only_its_address_is_reached(named):
    line_auth = telenorid.LineAuthenticator(named_config(named, "py_resolved"))
    asked = []

    def resolver(host, port):
        asked.append((host, port))
        return ["127.0.0.3"]

    line_auth.set_resolver(resolver)
    line_auth.run()
    assert reached(named, "py_resolved") == {"127.0.0.3": 3}
    assert asked == [("aloha.test", named["https_port"]), ("aloha.test", named["http_port"]),
                     ("aloha.test", named["https_port"])]
    line_auth.set_resolver(lambda host, port: "127.0.0.3, ::ffff:127.0.0.3")
    line_auth.run()
    assert reached(named, "py_resolved") == {"127.0.0.3": 6}
    line_auth.set_resolver(None)
    line_auth.run()
    assert reached(named, "py_resolved") == {"127.0.0.3": 6, "127.0.0.2": 3}


def test_the_resolvers_refusals(named):
    line_auth = telenorid.LineAuthenticator(named_config(named, "py_refused"))
    line_auth.set_resolver(lambda host, port: "not_cellular")
    with pytest.raises(telenorid.LineAuthUnavailableError):
        line_auth.run()
    line_auth.set_resolver(lambda host, port: None)
    with pytest.raises(telenorid.NetworkError, match="could not resolve aloha.test"):
        line_auth.run()
    for answer in (["aloha.test"], "127.0.0.3:443", "[::1]", "1.2.3.4;x", "1::2::3"):
        line_auth.set_resolver(lambda host, port, answer=answer: answer)
        with pytest.raises(telenorid.InvalidArgumentError):
            line_auth.run()

    def broken(host, port):
        raise RuntimeError("no network handle")

    line_auth.set_resolver(broken)
    with pytest.raises(telenorid.NetworkError) as raised:
        line_auth.run()
    assert isinstance(raised.value.__cause__, RuntimeError)
    assert reached(named, "py_refused") == {}
    with pytest.raises(TypeError):
        line_auth.set_resolver("127.0.0.3")


def test_no_proxy_carries_line_authentication(named, monkeypatch):
    for variable in ("http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.setenv(variable, named["proxy"])
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    cfg = named_config(named, "py_unproxied", issuer=f"{named['base']}/py_provider")
    request = telenorid.AuthorizationRequest(cfg)
    telenorid.LineAuthenticator(cfg).apply(request)
    assert "aloha_token" in query(request.build().url)
    assert reached(named, "py_unproxied") == {"127.0.0.2": 3}
    assert "_proxy" not in named["stats"]()  # the proxy saw nothing
    # The same configuration's client does use the configured proxy (which refuses it).
    with pytest.raises(telenorid.TelenoridError):
        telenorid.Client(cfg).discover()
    assert any(line.startswith("CONNECT aloha.test:") for line in named["stats"]()["_proxy"])


def test_the_margin_at_its_boundary(named):
    cfg = named_config(named, "py_margin")
    line_auth = telenorid.LineAuthenticator(cfg)
    line_auth.run()  # exp 300
    assert 260 < line_auth.valid_for <= 270  # the default margin, 30 s
    line_auth.set_margin(297)
    assert 1 <= line_auth.valid_for <= 3
    line_auth.set_margin(300)  # 300 s left is not more than the margin: expired
    assert line_auth.valid_for == 0
    line_auth.apply(telenorid.AuthorizationRequest(cfg))
    assert named["stats"]()["py_margin"]["prepare"] == 2
    line_auth.set_margin(0)
    line_auth.apply(telenorid.AuthorizationRequest(cfg))
    assert named["stats"]()["py_margin"]["prepare"] == 2
    for wrong in (-1, 86401):
        with pytest.raises(telenorid.InvalidArgumentError):
            line_auth.set_margin(wrong)
    with pytest.raises(TypeError):
        line_auth.set_margin(1.5)  # type: ignore[arg-type]
