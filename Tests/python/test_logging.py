"""The library's log through logging.getLogger("telenorid"), against django-oauth-toolkit: a confidential
client's sign-in, refresh, refused refresh and revocation give their events, each HTTP exchange one DEBUG line,
and no record holds a token, code, verifier or the client secret; the loopback redirect by its path only; the
CLI's -v and -vv."""
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

import telenorid
import telenorid.logs

from browser import complete_login  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REDIRECT = "http://127.0.0.1:53682/callback"
# A JWS header naming a key the provider does not have ({"alg":"RS256","kid":"none"}), an empty payload.
FOREIGN_JWS = "eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vbmUifQ.e30.AAAA"


@pytest.fixture
def debug_log(caplog):
    """caplog at DEBUG for the telenorid logger, with the library told; back to the default after."""
    caplog.set_level(logging.DEBUG, logger="telenorid")
    telenorid.logs.sync_level()
    yield caplog
    caplog.handler.setLevel(logging.NOTSET)
    logging.getLogger("telenorid").setLevel(logging.NOTSET)
    telenorid.logs.sync_level()


def messages(caplog, event):
    return [record for record in caplog.records if getattr(record, "telenorid_event", None) == event]


def test_a_sign_in_logs_its_events_and_no_secret(provider, debug_log):
    confidential = provider["clients"]["confidential"]
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=confidential["client_id"], client_secret=confidential["client_secret"],
        redirect_uri=REDIRECT, scope="openid profile email", revocation_endpoint=provider["issuer"] + "/revoke_token/"))
    pending = telenorid.AuthorizationRequest(client.config()).build()
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    code = parse_qs(urlsplit(redirect).query)["code"][0]
    verifier = pending.code_verifier
    state = client.exchange_code(pending.handle_callback(redirect))
    tokens = {name: state.get(name) for name in ("access_token", "refresh_token", "id_token")}
    stale = client.restore(state.serialize())
    state.refresh()
    tokens["rotated_access_token"], tokens["rotated_refresh_token"] = state.get("access_token"), state.get("refresh_token")
    with pytest.raises(telenorid.AuthorizationLost):
        stale.refresh()
    state.revoke()

    issuer = provider["issuer"]
    assert [r.getMessage() for r in messages(debug_log, "discovery.fetched")] == [
        f"discovery.fetched provider metadata of {issuer}"]
    assert messages(debug_log, "jwks.fetched") and messages(debug_log, "jwks.fetched")[0].levelno == logging.INFO
    assert len(messages(debug_log, "token.exchanged")) == 1
    assert len(messages(debug_log, "token.refreshed")) == 1
    failed = messages(debug_log, "token.refresh_failed")
    assert [(r.levelno, r.getMessage()) for r in failed] == [
        (logging.WARNING, "token.refresh_failed authorization lost (HTTP 400) invalid_grant")]
    assert [r.getMessage() for r in messages(debug_log, "auth_state.signed_out")] == [
        "auth_state.signed_out signed out to revoke the grant"]
    http = [r.getMessage() for r in messages(debug_log, "http.request")]
    assert all(r.levelno == logging.DEBUG for r in messages(debug_log, "http.request"))
    assert f"http.request GET {issuer}/.well-known/openid-configuration 200 " in "\n".join(http)
    token_lines = [line for line in http if line.startswith(f"http.request POST {issuer}/token/ ")]
    assert [line.split()[3] for line in token_lines] == ["200", "200", "400"]
    assert all(line.endswith(" ms") and line.split()[-2].isdigit() for line in http)

    secrets = [*tokens.values(), code, verifier, confidential["client_secret"]]
    assert all(secrets)
    everything = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in debug_log.records)
    for secret in secrets:
        assert secret not in everything


def test_the_library_sends_nothing_below_the_loggers_level(provider, caplog):
    caplog.set_level(logging.INFO, logger="telenorid")
    telenorid.logs.sync_level()
    try:
        client = telenorid.Client(telenorid.Config.from_settings(
            issuer=provider["issuer"], client_id="native-app", redirect_uri=REDIRECT))
        client.discover()
        assert messages(caplog, "discovery.fetched") and not messages(caplog, "http.request")
        # Raising the logger's level stops even INFO at the library once told.
        logging.getLogger("telenorid").setLevel(logging.ERROR)
        telenorid.logs.sync_level()
        caplog.clear()
        telenorid.Client(telenorid.Config.from_settings(
            issuer=provider["issuer"], client_id="native-app", redirect_uri=REDIRECT)).discover()
        assert not caplog.records
    finally:
        logging.getLogger("telenorid").setLevel(logging.NOTSET)
        telenorid.logs.sync_level()


def test_an_exception_in_a_handler_does_not_reach_the_library(provider, caplog):
    class Failing(logging.Handler):
        def emit(self, record):
            raise KeyboardInterrupt  # not even this unwinds into C

    failing = Failing()
    logger = logging.getLogger("telenorid")
    logger.addHandler(failing)
    logger.setLevel(logging.INFO)
    telenorid.logs.sync_level()
    reported = []
    previous, sys.unraisablehook = sys.unraisablehook, reported.append
    try:
        telenorid.Client(telenorid.Config.from_settings(
            issuer=provider["issuer"], client_id="native-app", redirect_uri=REDIRECT)).discover()
    finally:
        sys.unraisablehook = previous
        logger.removeHandler(failing)
        logger.setLevel(logging.NOTSET)
        telenorid.logs.sync_level()
    assert reported and isinstance(reported[0].exc_value, KeyboardInterrupt)


def test_the_cli_logs_to_stderr_with_v_and_http_with_vv(provider, tmp_path):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))

    def verify(*flags):
        # `verify` of a token signed by an unknown key runs discovery and fetches the keys: events without a sign-in.
        return subprocess.run([sys.executable, "-m", "telenorid", "verify", FOREIGN_JWS, "--issuer", provider["issuer"],
                               "--client-id", "native-app", "--state-file", str(tmp_path / "s.json"), *flags],
                              capture_output=True, text=True, timeout=60, env=environment)

    quiet, info, debug = verify(), verify("-v"), verify("-vv")
    assert "telenorid: INFO discovery.fetched" not in quiet.stderr
    assert f"telenorid: INFO discovery.fetched provider metadata of {provider['issuer']}" in info.stderr
    assert "http.request" not in info.stderr
    assert f"telenorid: DEBUG http.request GET {provider['issuer']}/.well-known/openid-configuration 200 " in debug.stderr


def test_logging_configured_before_first_use_needs_no_other_call(provider):
    program = ("import logging, sys, telenorid\n"
               "logging.basicConfig(level=logging.DEBUG, stream=sys.stdout, format='%(levelname)s %(message)s')\n"
               "telenorid.Client(telenorid.Config.from_settings(issuer=sys.argv[1], client_id='native-app',\n"
               "                 redirect_uri='http://127.0.0.1:53682/callback')).discover()\n")
    run = subprocess.run([sys.executable, "-c", program, provider["issuer"]], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")))
    assert run.returncode == 0, run.stderr
    assert f"DEBUG http.request GET {provider['issuer']}/.well-known/openid-configuration 200 " in run.stdout
    assert f"INFO discovery.fetched provider metadata of {provider['issuer']}" in run.stdout


def test_the_loopback_redirect_is_logged_by_its_path_only(debug_log):
    with telenorid.LoopbackListener(path="/cb") as listener:
        result = {}
        waiting = threading.Thread(target=lambda: result.update(url=listener.wait(timeout=20)))
        waiting.start()
        assert requests.get(listener.redirect_uri + "?code=loopback-code&state=loopback-state", timeout=10).ok
        waiting.join(20)
    assert result["url"].endswith("?code=loopback-code&state=loopback-state")
    assert [r.getMessage() for r in messages(debug_log, "loopback.received")] == [
        "loopback.received the redirect to /cb"]
    assert not any("loopback-code" in r.getMessage() or "loopback-state" in r.getMessage() for r in debug_log.records)
