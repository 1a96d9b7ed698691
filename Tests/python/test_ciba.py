"""Client-initiated backchannel authentication (OpenID CIBA Core 1.0) through the ctypes binding: the login hint
helpers, the argument checks made before any request, and poll and ping modes against glewlwyd 2.7.5
(Tests/support/glewlwyd_provider.py), whose user approves or denies through glewlwyd's user API."""
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import telenorid
from glewlwyd_provider import BINARY, start_glewlwyd


def test_login_hints_are_built_and_checked_strictly():
    assert telenorid.login_hint_phone_number("+4790000000") == "tel:+4790000000"
    assert telenorid.login_hint_ip_port("203.0.113.7", 5555) == "ipport:203.0.113.7:5555"
    assert telenorid.login_hint_ip_port("2001:db8::7", 5555) == "ipport:[2001:db8::7]:5555"
    assert telenorid.login_hint_operator_token("T0k-en") == "operatortoken:T0k-en"
    assert [telenorid.login_hint_form(hint) for hint in ("tel:+4790000000", "ipport:[::1]:80", "operatortoken:x")] \
        == ["phone_number", "ip_port", "operator_token"]
    for call in (lambda: telenorid.login_hint_phone_number("4790000000"),
                 lambda: telenorid.login_hint_phone_number("+0790000000"),
                 lambda: telenorid.login_hint_ip_port("203.0.113.7", 0),
                 lambda: telenorid.login_hint_ip_port("203.0.113.7", 2**32 + 5555),
                 lambda: telenorid.login_hint_ip_port("[2001:db8::7]", 5555),
                 lambda: telenorid.login_hint_operator_token(""),
                 lambda: telenorid.login_hint_form("alice@example.com")):
        with pytest.raises(telenorid.InvalidArgument):
            call()
    with pytest.raises(TypeError):
        telenorid.login_hint_ip_port("203.0.113.7", "5555")


def test_exactly_one_hint_and_openid_before_any_request():
    # No provider listens at this issuer: a request that left would fail as NetworkError, not InvalidArgument.
    config = telenorid.Config.from_settings(issuer="http://127.0.0.1:9/nowhere", client_id="c", client_secret="s",
                                            backchannel_authentication_endpoint="http://127.0.0.1:9/nowhere/ciba")
    client = telenorid.Client(config)
    for params in ({}, {"login_hint": "tel:+4790000000", "id_token_hint": "a.b.c"},
                   {"login_hint": "tel:+4790000000", "scope": "profile"}):
        with pytest.raises(telenorid.InvalidArgument):
            client.start_backchannel_authentication(telenorid.AuthorizationRequest(config).update(**params))
    with pytest.raises(telenorid.NetworkError):
        client.start_backchannel_authentication(telenorid.AuthorizationRequest(config).set("login_hint", "x"))


class _Pings(BaseHTTPRequestHandler):
    """The client's notification endpoint (CIBA Core §10.2): hands each ping to the request under way."""
    target = None
    answers: list = []
    woken_at = 0.0

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        try:
            type(self).target.handle_ping(self.headers.get("Authorization", ""), body)
            status = 204
            type(self).woken_at = time.monotonic()
        except telenorid.StateMismatch:
            status = 401
        self.answers.append(status)
        self.send_response(status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def glewlwyd():
    if not os.access(BINARY, os.X_OK):
        pytest.skip("glewlwyd is not installed (scripts/setup.sh installs it)")
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Pings)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        with start_glewlwyd(notification_endpoint=f"http://127.0.0.1:{receiver.server_address[1]}/notify") as provider:
            yield provider
    finally:
        receiver.shutdown()


def _client(glewlwyd, client_id, mode):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=glewlwyd.issuer, client_id=client_id, client_secret=glewlwyd.ciba_client_secret,
        token_endpoint_auth_method="client_secret_basic", backchannel_token_delivery_mode=mode))


def _start(client, binding_message=None):
    # glewlwyd takes login_hint only as its own JSON form, none of the operators' forms.
    request = telenorid.AuthorizationRequest(client.config()).set("login_hint", '{"username":"alice"}')
    if binding_message:
        request.set("binding_message", binding_message)
    return client.start_backchannel_authentication(request)


def test_poll_mode_signs_in_and_a_denial_stores_nothing(glewlwyd):
    client = _client(glewlwyd, glewlwyd.ciba_poll_client_id, "poll")
    auth = _start(client, binding_message="W4SCT")
    assert auth.interval == 5 and auth.expires_at - time.time() == pytest.approx(600, abs=5)
    assert auth.auth_req_id
    with pytest.raises(telenorid.ConfigurationError):
        auth.handle_ping("Bearer x", b'{"auth_req_id":"x"}')
    assert "ciba_message=complete" in glewlwyd.approve_ciba(glewlwyd.ciba_poll_client_id)
    state = auth.wait()
    assert state.signed_in and state.id_token_claims["iss"] == glewlwyd.issuer
    assert state.id_token_claims["aud"] == glewlwyd.ciba_poll_client_id
    with pytest.raises(telenorid.Consumed):
        auth.wait()

    denied = _start(client)
    assert "ciba_message=cancelled" in glewlwyd.deny_ciba(glewlwyd.ciba_poll_client_id)
    with pytest.raises(telenorid.AuthorizationError) as raised:
        denied.wait()
    assert raised.value.oauth_error == "access_denied"
    assert state.signed_in  # the first sign-in is untouched


def test_ping_mode_wakes_the_wait(glewlwyd):
    client = _client(glewlwyd, glewlwyd.ciba_ping_client_id, "ping")
    auth = _start(client)
    _Pings.target, _Pings.answers = auth, []
    outcome = []
    waiter = threading.Thread(target=lambda: outcome.append((auth.wait(), time.monotonic())))
    waiter.start()
    time.sleep(0.2)
    glewlwyd.approve_ciba(glewlwyd.ciba_ping_client_id)  # glewlwyd pings before it answers the user
    waiter.join(10)
    assert _Pings.answers == [204]
    assert outcome and outcome[0][0].signed_in
    # Woken by the ping, not by the 5 s interval (a sleep it did not end would last 5 s).
    assert outcome[0][1] - _Pings.woken_at < 4.5


def test_cancel_ends_a_wait(glewlwyd):
    client = _client(glewlwyd, glewlwyd.ciba_poll_client_id, "poll")
    auth = _start(client)
    errors = []

    def wait():
        try:
            auth.wait()
        except telenorid.TelenoridError as error:
            errors.append(error)

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    cancelled = time.monotonic()
    client.cancel()
    waiter.join(5)
    assert [type(error) for error in errors] == [telenorid.CancelledError]
    assert time.monotonic() - cancelled < 1
    # Glewlwyd keeps one live request per client and user, and one the user refused stays live until the
    # client collects the refusal: the wait started again ends it, so the next test's request is taken.
    glewlwyd.deny_ciba(glewlwyd.ciba_poll_client_id)
    with pytest.raises(telenorid.AuthorizationError) as refused:
        auth.wait()
    assert refused.value.oauth_error == "access_denied"


def test_the_command_line_signs_in_by_ciba(glewlwyd, tmp_path, capsys):
    from telenorid import cli

    state_file = tmp_path / "state.json"
    common = ["--issuer", glewlwyd.issuer, "--client-id", glewlwyd.ciba_poll_client_id, "--state-file", str(state_file),
              "--store", "file"]
    assert cli.main(["login", "--ciba", *common]) == cli.EXIT_USAGE  # no hint
    assert cli.main(["login", "--login-hint", "x", *common]) == cli.EXIT_USAGE  # a hint without --ciba
    approval = threading.Thread(target=glewlwyd.approve_ciba, args=(glewlwyd.ciba_poll_client_id,))
    approval.start()  # waits for the request to show up in the user's list
    code = cli.main(["login", "--ciba", "--login-hint", '{"username":"alice"}', "--binding-message", "W4SCT",
                     "--client-secret", glewlwyd.ciba_client_secret, "--json", *common])
    approval.join(10)
    assert code == cli.EXIT_OK, capsys.readouterr().err
    assert '"iss": "%s"' % glewlwyd.issuer in capsys.readouterr().out
    assert cli.main(["status", "--json", "--state-file", str(state_file), "--store", "file"]) == cli.EXIT_OK
    assert '"signed_in": true' in capsys.readouterr().out
