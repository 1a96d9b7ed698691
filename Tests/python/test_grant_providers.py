"""What the two real test providers do for the device authorization grant (RFC 8628) and CIBA (OpenID CIBA Core
1.0), with plain HTTP and no library: the fixtures the library's own tests sign in through. django-oauth-toolkit
(Tests/support/provider/oidc_provider.py) serves the device grant; glewlwyd (Tests/support/glewlwyd_provider.py)
serves the device grant and CIBA in poll and ping modes. The user's part is played over HTTP, by the functions
and the command lines the library's C tests call too."""
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from browser import approve_device
from glewlwyd_provider import BINARY, start_glewlwyd
from oidc_provider import start_provider

SUPPORT = Path(__file__).resolve().parents[1] / "support"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
CIBA_GRANT = "urn:openid:params:grant-type:ciba"
NOTIFICATION_TOKEN = "8d67dc78-7faa-4d41-aabd-67707b374255"  # glewlwyd wants 22 to 1024 characters


def test_django_device_grant():
    with start_provider() as info:
        token = info["issuer"] + "/token/"
        discovery = requests.get(info["issuer"] + "/.well-known/openid-configuration", timeout=10).json()
        assert "device_authorization_endpoint" not in discovery  # only in the JSON line
        client_id = info["clients"]["device_public"]["client_id"]
        started = requests.post(info["device_authorization_endpoint"], timeout=10,
                                data={"client_id": client_id, "scope": "openid profile"}).json()
        assert started["interval"] == 1 and started["expires_in"] == 1800
        complete = started["verification_uri"] + "?user_code=" + started["user_code"]
        assert started["verification_uri_complete"] == complete
        poll = {"grant_type": DEVICE_GRANT, "device_code": started["device_code"], "client_id": client_id}
        assert requests.post(token, data=poll, timeout=10).json() == {"error": "authorization_pending"}
        user = info["user"]
        assert approve_device(started["verification_uri"], started["user_code"], user["username"],
                              user["password"]) == "Device Authorized"
        tokens = requests.post(token, data=poll, timeout=10).json()
        assert tokens["scope"] == "openid profile" and "access_token" in tokens and "refresh_token" in tokens
        assert "id_token" not in tokens  # none from the device grant, though openid was asked for
        assert requests.post(token, data=poll, timeout=10).status_code == 200  # the device code is not single-use

        # The confidential client, HTTP Basic plus client_id in the body; the user denies through the command line.
        client = info["clients"]["device_confidential"]
        basic = (client["client_id"], client["client_secret"])
        started = requests.post(info["device_authorization_endpoint"], auth=basic, timeout=10,
                                data={"client_id": client["client_id"]}).json()
        shown = subprocess.run([sys.executable, str(SUPPORT / "provider" / "browser.py"), "--device",
                                started["verification_uri"], started["user_code"], user["username"], user["password"],
                                "--deny"], capture_output=True, text=True, check=True, timeout=60).stdout
        assert shown.strip() == "Device Denied"
        poll = {"grant_type": DEVICE_GRANT, "device_code": started["device_code"], "client_id": client["client_id"]}
        denied = requests.post(token, auth=basic, data=poll, timeout=10)
        assert (denied.status_code, denied.json()) == (400, {"error": "access_denied"})


class _Pings(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.received.append((self.path, self.headers["Authorization"], body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def glewlwyd():
    if not os.access(BINARY, os.X_OK):
        pytest.skip("glewlwyd is not installed (scripts/setup.sh installs it)")
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Pings)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{receiver.server_address[1]}/ciba-notify"
    try:
        with start_glewlwyd(notification_endpoint=endpoint, device_interval=2) as provider:
            provider.token_endpoint = provider.issuer + "/token"
            yield provider
    finally:
        receiver.shutdown()


def test_glewlwyd_device_grant(glewlwyd):
    discovery = requests.get(glewlwyd.issuer + "/.well-known/openid-configuration", timeout=10).json()
    assert discovery["device_authorization_endpoint"] == glewlwyd.device_authorization_endpoint
    started = requests.post(glewlwyd.device_authorization_endpoint, timeout=10,
                            data={"client_id": glewlwyd.device_client_id, "scope": "openid"}).json()
    assert (started["interval"], started["expires_in"]) == (2, 600)
    assert started["verification_uri_complete"] == started["verification_uri"] + "?code=" + started["user_code"]
    poll = {"grant_type": DEVICE_GRANT, "device_code": started["device_code"], "client_id": glewlwyd.device_client_id}
    assert requests.post(glewlwyd.token_endpoint, data=poll, timeout=10).json() == {"error": "authorization_pending"}
    # A second poll sooner than `interval` after the first (whole seconds, glewlwyd's clock).
    assert requests.post(glewlwyd.token_endpoint, data=poll, timeout=10).json() == {"error": "slow_down"}
    assert "prompt=deviceComplete" in glewlwyd.approve_device(started["user_code"])
    time.sleep(2)
    tokens = requests.post(glewlwyd.token_endpoint, data=poll, timeout=10).json()
    assert {"access_token", "id_token", "refresh_token"} <= set(tokens) and tokens["scope"] == "openid"
    assert requests.post(glewlwyd.token_endpoint, data=poll, timeout=10).json() == {"error": "access_denied"}


def test_glewlwyd_ciba_poll(glewlwyd):
    basic = (glewlwyd.ciba_poll_client_id, glewlwyd.ciba_client_secret)
    started = requests.post(glewlwyd.backchannel_authentication_endpoint, auth=basic, timeout=10, data={
        "scope": "openid", "login_hint": glewlwyd.ciba_login_hint, "binding_message": "W4SCT"}).json()
    assert started["interval"] == 5 and started["expires_in"] == 600
    poll = {"grant_type": CIBA_GRANT, "auth_req_id": started["auth_req_id"]}
    assert requests.post(glewlwyd.token_endpoint, auth=basic, data=poll, timeout=10).json() == {
        "error": "authorization_pending"}  # at once: glewlwyd never answers slow_down for CIBA
    assert "ciba_message=complete" in glewlwyd.approve_ciba(glewlwyd.ciba_poll_client_id)
    tokens = requests.post(glewlwyd.token_endpoint, auth=basic, data=poll, timeout=10).json()
    assert {"access_token", "id_token", "refresh_token"} <= set(tokens)
    assert tokens["auth_req_id"] == started["auth_req_id"]

    # Denied, through the command line.
    started = requests.post(glewlwyd.backchannel_authentication_endpoint, auth=basic, timeout=10,
                            data={"scope": "openid", "login_hint": glewlwyd.ciba_login_hint}).json()
    shown = subprocess.run([sys.executable, str(SUPPORT / "glewlwyd_provider.py"), "deny-ciba", glewlwyd.issuer,
                            glewlwyd.ciba_poll_client_id], capture_output=True, text=True, check=True, timeout=60)
    assert "ciba_message=cancelled" in shown.stdout
    poll = {"grant_type": CIBA_GRANT, "auth_req_id": started["auth_req_id"]}
    denied = requests.post(glewlwyd.token_endpoint, auth=basic, data=poll, timeout=10)
    assert denied.json() == {"error": "access_denied"}

    # Expired: requested_expiry (CIBA Core §7.1) is honoured.
    started = requests.post(glewlwyd.backchannel_authentication_endpoint, auth=basic, timeout=10, data={
        "scope": "openid", "login_hint": glewlwyd.ciba_login_hint, "requested_expiry": "1"}).json()
    assert started["expires_in"] == 1
    time.sleep(2.1)
    poll = {"grant_type": CIBA_GRANT, "auth_req_id": started["auth_req_id"]}
    expired = requests.post(glewlwyd.token_endpoint, auth=basic, data=poll, timeout=10)
    assert expired.json() == {"error": "expired_token"}


def test_glewlwyd_ciba_ping(glewlwyd):
    basic = (glewlwyd.ciba_ping_client_id, glewlwyd.ciba_client_secret)
    started = requests.post(glewlwyd.backchannel_authentication_endpoint, auth=basic, timeout=10, data={
        "scope": "openid", "login_hint": glewlwyd.ciba_login_hint, "client_notification_token": NOTIFICATION_TOKEN})
    assert started.status_code == 200 and "interval" not in started.json()
    auth_req_id = started.json()["auth_req_id"]
    assert _Pings.received == []
    glewlwyd.approve_ciba(glewlwyd.ciba_ping_client_id)  # glewlwyd pings before it answers the user
    assert _Pings.received == [("/ciba-notify", "Bearer " + NOTIFICATION_TOKEN, {"auth_req_id": auth_req_id})]
    tokens = requests.post(glewlwyd.token_endpoint, auth=basic, timeout=10,
                           data={"grant_type": CIBA_GRANT, "auth_req_id": auth_req_id}).json()
    assert {"access_token", "id_token"} <= set(tokens)
