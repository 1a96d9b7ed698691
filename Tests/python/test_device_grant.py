"""The device authorization grant (RFC 8628) from Python: the fault provider (Tests/support/fault_provider.py)
answers slow_down, expiry, denial and hostile device authorization responses on request."""
import asyncio
import threading
import time

import pytest

import telenorid
import telenorid.aio

from fault_provider import Response  # noqa: E402

CLIENT = "device-client"


pytestmark = pytest.mark.provider("fault")


@pytest.fixture
def client(provider):
    config = telenorid.Config.from_settings(issuer=provider.issuer, client_id=CLIENT,
                                            redirect_uri="http://127.0.0.1:53682/callback", scope="profile",
                                            token_endpoint_auth_method="client_secret_basic", client_secret="s3",
                                            max_response_bytes="65536")
    with telenorid.Client(config) as client:
        yield client


def script(provider, *answers):
    """The token endpoint answers `answers` in turn (the last one again after that); returns the forms."""
    forms = []

    def answer(form):
        forms.append(form)
        return answers[min(len(forms), len(answers)) - 1]
    provider.token_behaviour = answer
    return forms


def error(code):
    return Response(400, {"error": code, "error_description": f"said {code}"})


def tokens():
    return Response(body={"access_token": "device-at", "token_type": "Bearer", "expires_in": 300,
                          "refresh_token": "device-rt", "scope": "profile"})


def test_start_shows_the_code_and_sends_client_id_beside_basic(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body())
    request = telenorid.AuthorizationRequest(client.config()).set("scope", "profile offline_access")
    request.add_resource("https://api.example.com/")
    device = client.start_device_authorization(request)
    assert device.user_code == "WDJB-MJHT"
    assert device.verification_uri == provider.issuer + "/activate"
    assert device.verification_uri_complete == provider.issuer + "/activate?user_code=WDJB-MJHT"
    assert device.interval == 1
    assert 55 <= device.expires_at - time.time() <= 61
    seen = [s for s in provider.seen if s.path == "/device"][-1]
    assert seen.form == {"client_id": CLIENT, "scope": "profile offline_access",
                         "resource": "https://api.example.com/"}
    assert seen.authorization.startswith("Basic ")
    assert "WDJB" not in repr(device)


def test_pending_and_slow_down_then_tokens(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body(verification_uri_complete=None))
    device = client.start_device_authorization()
    assert device.verification_uri_complete is None
    # pending is waited out in test_denial_expiry_and_the_clients_deadline; here slow_down alone, as each one
    # costs 5 s more.
    forms = script(provider, error("slow_down"), tokens())
    started = time.monotonic()
    state = device.wait()
    elapsed = time.monotonic() - started
    assert state.get("access_token") == "device-at"
    assert device.interval == 6, "slow_down adds 5 s (RFC 8628 §3.5)"
    assert 1 + 6 - 0.5 < elapsed < 7 + 2
    assert [f["grant_type"] for f in forms] == ["urn:ietf:params:oauth:grant-type:device_code"] * 2
    assert all(f["device_code"] == "dc-1" and f["client_id"] == CLIENT for f in forms)
    with pytest.raises(telenorid.ConsumedError):
        device.wait()


def test_denial_expiry_and_the_clients_deadline(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body())
    device = client.start_device_authorization()
    script(provider, error("access_denied"))
    with pytest.raises(telenorid.AuthorizationError) as denied:
        device.wait()
    assert denied.value.oauth_error == "access_denied"
    script(provider, error("expired_token"))
    with pytest.raises(telenorid.ExpiredError) as expired:
        device.wait()
    assert isinstance(expired.value, telenorid.ProviderError) and expired.value.code == 29

    provider.device_behaviour = lambda form: Response(body=provider.device_body(expires_in=2))
    forms = script(provider, error("authorization_pending"))
    with pytest.raises(telenorid.ExpiredError):
        client.start_device_authorization().wait()
    assert len(forms) == 2, "polled at 1 s and 2 s, then gave up at the deadline"


@pytest.mark.parametrize("body", [
    {"device_code": None}, {"user_code": None}, {"verification_uri": None}, {"expires_in": None},
    {"interval": -1}, {"interval": 1.5}, {"interval": "5"}, {"interval": 10 ** 30}, {"expires_in": 0},
    {"expires_in": 86401}, {"verification_uri": "http://evil.example/activate"},
    {"verification_uri_complete": "javascript:alert(1)"}, {"user_code": "X" * 65}, {"user_code": "AB\nCD"},
])
def test_hostile_device_answers_are_refused(provider, client, body):
    provider.device_behaviour = lambda form: Response(body=provider.device_body(**body))
    with pytest.raises(telenorid.InvalidResponseError):
        client.start_device_authorization()


def test_oversized_and_refused_device_answers(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body(user_code="A" * 8, pad="x" * 200000))
    with pytest.raises(telenorid.ResponseTooLargeError):
        client.start_device_authorization()
    provider.device_behaviour = lambda form: Response(401, {"error": "invalid_client"})
    with pytest.raises(telenorid.ClientRejectedError):
        client.start_device_authorization()


def test_cancel_ends_the_wait_at_once_and_it_may_wait_again(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body(interval=30))
    device = client.start_device_authorization()
    script(provider, error("authorization_pending"))
    threading.Timer(0.1, client.cancel).start()
    started = time.monotonic()
    with pytest.raises(telenorid.CancelledError):
        device.wait()
    assert time.monotonic() - started < 0.3
    assert device.interval == 30


def test_the_aio_wait_is_cancelled_with_its_task(provider, client):
    provider.device_behaviour = lambda form: Response(body=provider.device_body(interval=30))
    script(provider, error("authorization_pending"))

    async def run():
        device = await telenorid.aio.start_device_authorization(client)
        task = asyncio.ensure_future(telenorid.aio.wait_device_authorization(device))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(run()) < 0.3


def test_the_configured_endpoint_wins_over_discovery(provider):
    config = telenorid.Config.from_settings(issuer=provider.issuer, client_id=CLIENT,
                                            redirect_uri="http://127.0.0.1:53682/callback",
                                            device_authorization_endpoint=provider.issuer + "/nowhere")
    provider.device_behaviour = lambda form: Response(body=provider.device_body())
    with telenorid.Client(config) as client, pytest.raises(telenorid.HTTPStatusError):
        client.start_device_authorization()


def test_the_cli_prints_the_code_and_waits(provider, tmp_path):
    import json
    import os
    import subprocess
    import sys

    provider.device_behaviour = lambda form: Response(body=provider.device_body())
    script(provider, error("authorization_pending"), Response(body=provider.token_body(CLIENT, None)))
    state_file = tmp_path / "state.json"
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TELENORID_STORE": "file"}
    run = subprocess.run([sys.executable, "-m", "telenorid", "login", "--device", "--issuer", provider.issuer,
                          "--client-id", CLIENT, "--state-file", str(state_file), "--json",
                          "--device-authorization-endpoint", provider.issuer + "/device"],
                         capture_output=True, text=True, timeout=60, env=environment)
    assert run.returncode == 0, run.stderr
    assert f"open {provider.issuer}/activate on any device and enter the code WDJB-MJHT" in run.stderr
    assert f"{provider.issuer}/activate?user_code=WDJB-MJHT" in run.stderr
    code, signed_in = run.stdout.splitlines()  # --json: the code first, then the sign-in (one object a line)
    assert json.loads(code)["user_code"] == "WDJB-MJHT"
    assert json.loads(signed_in)["sub"] == "alice"
    status = subprocess.run([sys.executable, "-m", "telenorid", "status", "--json", "--state-file", str(state_file)],
                            capture_output=True, text=True, timeout=60, env=environment)
    assert json.loads(status.stdout)["signed_in"] is True


# ---- real providers: django-oauth-toolkit and glewlwyd (Tests/support), the user approving over HTTP ----------

def _approve_soon(approve):
    """Runs `approve()` on a thread once the wait below has started polling; its failure fails the test."""
    failures = []

    def run():
        time.sleep(0.3)
        try:
            approve()
        except BaseException as error:  # noqa: B902 - reported by the test
            failures.append(error)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, failures


def test_sign_in_at_django_oauth_toolkit():
    from browser import approve_device
    from oidc_provider import start_provider

    with start_provider() as info:
        user = info["user"]
        # Its discovery document has no device_authorization_endpoint: configured (RFC 8628 §4 allows either).
        common = dict(issuer=info["issuer"], device_authorization_endpoint=info["device_authorization_endpoint"],
                      scope="openid profile")
        public = telenorid.Config.from_settings(client_id=info["clients"]["device_public"]["client_id"], **common)
        with telenorid.Client(public) as client:
            device = client.start_device_authorization()
            assert device.interval == 1 and device.verification_uri_complete.endswith(device.user_code)
            thread, failures = _approve_soon(lambda: approve_device(device.verification_uri, device.user_code,
                                                                    user["username"], user["password"]))
            state = device.wait()
            thread.join()
            assert not failures, failures
            assert state.signed_in and state.get("scope") == "openid profile"
            assert state.id_token_claims is None  # django-oauth-toolkit sends no ID token for this grant
            state.refresh()
            assert state.get("access_token")

        # The confidential client: HTTP Basic, client_id in the body too; the user says no.
        secret = info["clients"]["device_confidential"]
        confidential = telenorid.Config.from_settings(client_id=secret["client_id"],
                                                      client_secret=secret["client_secret"],
                                                      token_endpoint_auth_method="client_secret_basic", **common)
        with telenorid.Client(confidential) as client:
            device = client.start_device_authorization()
            thread, failures = _approve_soon(lambda: approve_device(device.verification_uri, device.user_code,
                                                                    user["username"], user["password"], deny=True))
            with pytest.raises(telenorid.AuthorizationError) as denied:
                device.wait()
            thread.join()
            assert not failures, failures
            assert denied.value.oauth_error == "access_denied"


def test_sign_in_at_glewlwyd():
    import os

    from glewlwyd_provider import BINARY, start_glewlwyd

    if not os.access(BINARY, os.X_OK):
        pytest.skip("glewlwyd is not installed (scripts/setup.sh installs it)")
    with start_glewlwyd() as glewlwyd:
        config = telenorid.Config.from_settings(issuer=glewlwyd.issuer, client_id=glewlwyd.device_client_id,
                                                scope="openid")
        with telenorid.Client(config) as client:
            device = client.start_device_authorization()  # the endpoint from discovery
            assert device.verification_uri_complete == f"{device.verification_uri}?code={device.user_code}"
            thread, failures = _approve_soon(lambda: glewlwyd.approve_device(device.user_code))
            state = device.wait()
            thread.join()
            assert not failures, failures
            claims = state.id_token_claims  # glewlwyd sends one: validated (signature, iss, aud, exp)
            assert claims["iss"] == glewlwyd.issuer and claims["aud"] == glewlwyd.device_client_id
            with pytest.raises(telenorid.ConsumedError):
                device.wait()


def test_the_cli_signs_in_at_django_oauth_toolkit_and_stops_on_ctrl_c(tmp_path):
    import json
    import os
    import re
    import signal
    import subprocess
    import sys

    from browser import approve_device
    from oidc_provider import start_provider

    with start_provider() as info:
        user = info["user"]
        command = [sys.executable, "-m", "telenorid", "login", "--device", "--issuer", info["issuer"],
                   "--client-id", info["clients"]["device_public"]["client_id"], "--scope", "openid profile",
                   "--device-authorization-endpoint", info["device_authorization_endpoint"],
                   "--state-file", str(tmp_path / "state.json"), "--json"]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TELENORID_STORE": "file"}

        def started():
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       env=environment)
            lines = []
            for line in process.stderr:
                lines.append(line)
                if "waiting for the approval" in line:
                    return process, "".join(lines)
            raise AssertionError("".join(lines))

        process, shown = started()
        uri, code = re.search(r"open (\S+) on any device and enter the code (\S+)", shown).groups()
        assert approve_device(uri, code, user["username"], user["password"]) == "Device Authorized"
        output, errors = process.communicate(timeout=30)
        assert process.returncode == 0, errors
        # --json: the code first, then the sign-in (no ID token here: the status is printed instead)
        assert json.loads(output.splitlines()[0])["user_code"] == code
        assert json.loads(output.splitlines()[1])["signed_in"] is True

        process, _ = started()
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
        assert process.returncode == 130 and time.monotonic() - sent < 2
