"""Glewlwyd (the Debian package, an OpenID provider someone else wrote) on 127.0.0.1 for the tests.

`start_glewlwyd()` builds a throwaway instance in a temporary directory: a sqlite database from the
schema the package ships, a config file, the server, then the user, the OIDC plugin and the client
through glewlwyd's admin REST API (docs/API.md and docs/OIDC.md of glewlwyd 2.7). It yields a
`Glewlwyd` whose `login(authorization_url)` plays the user over HTTP, without the web UI the Debian
package does not ship, and whose `approve_device`, `approve_ciba` and `deny_ciba` play the user of the device
authorization grant (RFC 8628) and of CIBA (OpenID CIBA Core 1.0) through glewlwyd's user API.

As a program (for tests in other languages), `glewlwyd_provider.py serve [NOTIFICATION_ENDPOINT]` prints one
JSON line (the `Glewlwyd` fields, the callables left out, and `user`) and serves until it is killed (SIGTERM),
or for 30 minutes at most; `glewlwyd_provider.py approve-device ISSUER USER_CODE`,
`approve-ciba ISSUER CLIENT_ID` and `deny-ciba ISSUER CLIENT_ID` act as the user and print the redirect
glewlwyd answers with."""
from __future__ import annotations

import base64
import contextlib
import dataclasses
import gzip
import json
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import requests

BINARY = "/usr/bin/glewlwyd"
# The package's "initialise everything" script: all core and module tables, the database user and
# client backends, and the administrator admin / password (docs/database/README.md).
SCHEMA = Path("/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz")
ADMIN = ("admin", "password")
USER = {"username": "alice", "password": "wonderland-42", "name": "Alice Liddell", "email": "alice@example.com"}
CLIENT_ID = "native-app"
# Glewlwyd 2.7.5's /revoke takes only HTTP Basic client credentials (or an access token carrying a configured
# scope), so RFC 7009 revocation by the library needs a confidential client; native-app gets HTTP 401.
CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET = "backend-app", "backend-secret"
# The FAPI 2.0 client: confidential, authenticating with private_key_jwt (RFC 7523 §2.2) signed by an EC P-256
# key whose public half glewlwyd holds in the client's "pubkey" property (PEM), as OIDC.md's "pubkey property".
# Glewlwyd 2.7.5 takes an assertion only with aud the exact URL of the endpoint it is sent to, as a string
# (not an array, not the issuer): {issuer}/par, {issuer}/token, {issuer}/revoke; at /token only with a client_id
# in the body as well.
FAPI_CLIENT_ID = "fapi-app"
# A client whose keys glewlwyd holds as a JWK Set (its "jwks" property) and picks by `kid`: one key named by
# its RFC 7638 thumbprint, one by a name of the registration's own (JWKS_KEY_ID).
JWKS_CLIENT_ID, JWKS_KEY_ID = "jwks-app", "registered-key-1"
REDIRECT_URI = "http://127.0.0.1:53682/callback"
# RFC 8628: a public client (no authentication at /device_authorization and /token, client_id in the body).
# Glewlwyd answers slow_down to a poll sooner than DEVICE_INTERVAL seconds after the previous one (or after the
# device authorization); its device page has no way to deny.
DEVICE_CLIENT_ID = "tv-app"
DEVICE_INTERVAL = 1  # short, to keep tests quick; start_glewlwyd(device_interval=...) changes it
# CIBA (OpenID CIBA Core 1.0): confidential clients authenticating with client_secret_basic (or _post); glewlwyd
# fixes the token delivery mode per client, so there is one client per mode. It keeps one live request per
# client and user, answers interval 5 in poll mode, and takes login_hint only as a JSON object string:
# {"username":"alice"} (CIBA_LOGIN_HINT). Ping mode (§10.2) POSTs {"auth_req_id": ...} with
# "Authorization: Bearer <client_notification_token>" to the client's notification endpoint when the user
# approves; nothing when the user denies or the request expires.
CIBA_POLL_CLIENT_ID, CIBA_PING_CLIENT_ID, CIBA_CLIENT_SECRET = "ciba-poll-app", "ciba-ping-app", "ciba-secret"
CIBA_LOGIN_HINT = '{"username":"alice"}'
NOTIFICATION_ENDPOINT = "http://127.0.0.1:53683/ciba-notify"
# RFC 6749 §4.4: a confidential client of the client credentials grant, whose tokens carry the scopes of its own
# "scope" property (glewlwyd's scope table); it also introspects tokens (RFC 7662) issued to it.
MACHINE_CLIENT_ID, MACHINE_CLIENT_SECRET, MACHINE_SCOPE = "machine-app", "machine-secret", "g_profile"
PLUGIN = "oidc"  # the plugin's name is its URL segment: /api/oidc/...
SCOPE = "openid"


@dataclass
class Glewlwyd:
    issuer: str
    client_id: str
    confidential_client_id: str
    confidential_client_secret: str
    redirect_uri: str
    login: Callable[[str], str]
    fapi_client_id: str = FAPI_CLIENT_ID
    # The private key fapi-app signs its client assertions and request objects with: PKCS#8 PEM and a private
    # JWK (RFC 7517 §4, RFC 7518 §6.2.2: kty, crv, x, y, d).
    fapi_private_key_pem: str = ""
    fapi_private_jwk: dict = field(default_factory=dict)
    # jwks-app's two private keys as PKCS#8 PEM: the one registered under its thumbprint, the one under
    # JWKS_KEY_ID.
    jwks_client_id: str = JWKS_CLIENT_ID
    jwks_thumbprint_key_pem: str = ""
    jwks_named_key_pem: str = ""
    jwks_key_id: str = JWKS_KEY_ID
    # RFC 8628 §4 and CIBA Core §4: both are in the discovery document too.
    device_authorization_endpoint: str = ""
    backchannel_authentication_endpoint: str = ""
    device_client_id: str = DEVICE_CLIENT_ID
    ciba_poll_client_id: str = CIBA_POLL_CLIENT_ID
    ciba_ping_client_id: str = CIBA_PING_CLIENT_ID
    ciba_client_secret: str = CIBA_CLIENT_SECRET
    ciba_login_hint: str = CIBA_LOGIN_HINT
    client_notification_endpoint: str = NOTIFICATION_ENDPOINT
    machine_client_id: str = MACHINE_CLIENT_ID
    machine_client_secret: str = MACHINE_CLIENT_SECRET
    machine_scope: str = MACHINE_SCOPE
    # approve_device(user_code) -> glewlwyd's redirect; approve_ciba(client_id) / deny_ciba(client_id) ->
    # glewlwyd's redirect, for the client's one pending request (waiting up to 10 s for it to appear).
    approve_device: Callable[[str], str] = field(default=lambda user_code: "", repr=False)
    approve_ciba: Callable[[str], str] = field(default=lambda client_id: "", repr=False)
    deny_ciba: Callable[[str], str] = field(default=lambda client_id: "", repr=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rsa_key_pair() -> tuple[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _ec_key_pair() -> tuple[str, str, dict]:
    """A P-256 key pair for fapi-app: private PKCS#8 PEM, public SubjectPublicKeyInfo PEM, private JWK."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    numbers = key.private_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": _b64url(numbers.public_numbers.x.to_bytes(32, "big")),
           "y": _b64url(numbers.public_numbers.y.to_bytes(32, "big")),
           "d": _b64url(numbers.private_value.to_bytes(32, "big"))}
    return private, public, jwk


def _public_jwk(private_jwk: dict) -> dict:
    return {name: private_jwk[name] for name in ("crv", "kty", "x", "y")}


def _thumbprint(public_jwk: dict) -> str:
    """RFC 7638 §3: SHA-256 of the required members, sorted, without whitespace."""
    import hashlib
    import json
    canonical = json.dumps({k: public_jwk[k] for k in sorted(public_jwk)}, separators=(",", ":"))
    return _b64url(hashlib.sha256(canonical.encode()).digest())


def _write_config(workdir: Path, port: int) -> Path:
    config = workdir / "glewlwyd.conf"
    # libconfig syntax, the keys of the package's glewlwyd.conf.sample; cookie_secure=0 because the
    # tests speak plain HTTP to 127.0.0.1.
    config.write_text(f"""
port={port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:{port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="INFO"
log_file="{workdir / 'glewlwyd.log'}"
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = {{
  type = "sqlite3"
  path = "{workdir / 'glewlwyd.db'}"
}};
""")
    return config


def _sign_in(base_url: str, username: str, password: str) -> requests.Session:
    """A session holding glewlwyd's session cookie: POST /api/auth/ with the user's password (API.md,
    "Authenticate a user with password")."""
    session = requests.Session()
    response = session.post(base_url + "/api/auth/", json={"username": username, "password": password}, timeout=10)
    assert response.status_code == 200, f"glewlwyd refused {username}'s password: HTTP {response.status_code}"
    return session


def _expect(response: requests.Response, what: str) -> None:
    assert response.status_code == 200, f"{what}: HTTP {response.status_code} {response.text}"


def _configure(base_url: str, issuer: str, fapi_public_pem: str, dpop_nonce_required: bool, jwks: dict,
               device_interval: int, notification_endpoint: str) -> None:
    admin = _sign_in(base_url, *ADMIN)
    _expect(admin.post(base_url + "/api/user/", json={
        "username": USER["username"], "password": USER["password"], "name": USER["name"], "email": USER["email"],
        "scope": [SCOPE, "g_profile"], "enabled": True}, timeout=10), "adding the user")

    private, public = _rsa_key_pair()
    _expect(admin.post(base_url + "/api/mod/plugin/", json={
        "module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect", "enabled": True,
        "parameters": {
            "iss": issuer, "jwt-type": "rsa", "jwt-key-size": "256", "key": private, "cert": public,
            "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
            # Only the authorization code grant and refreshing (the other grants are off when not enabled).
            "auth-type-code-enabled": True, "auth-type-refresh-enabled": True,
            # RFC 6749 §4.4, for MACHINE_CLIENT_ID only; glewlwyd's OIDC plugin takes this OAuth 2.0 grant only
            # with allow-non-oidc (OIDC.md, "Allow non OIDC but valid OAuth2 requests": no ID token is issued).
            "auth-type-client-enabled": True, "allow-non-oidc": True,
            # Rotation on every use, as the OAuth 2.0 Security BCP (RFC 9700 §4.14.2) asks for public clients.
            "refresh-token-rolling": True, "refresh-token-one-use": "always",
            "pkce-allowed": True,  # RFC 7636, S256 only
            # RFC 7009 revocation, by a client authenticating with its HTTP Basic credentials.
            "introspection-revocation-allowed": True, "introspection-revocation-allow-target-client": True,
            "name-claim": "mandatory", "email-claim": "mandatory",  # in every ID token, for the test to check
            # RFC 9126 pushed authorization requests at POST /par, allowed but not required (OIDC.md).
            "oauth-par-allowed": True, "oauth-par-required": False, "oauth-par-duration": 90,
            "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:",
            # RFC 9449 DPoP: proofs at /par, /token and /userinfo; a proof's iat may be up to 60 s old and, with
            # the gap, 10 s ahead of glewlwyd's clock. With dpop_nonce_required, /token and /userinfo demand the
            # client's current nonce (RFC 9449 §8, §9): one per client for both, replaced at the sixth accepted
            # proof. /par then refuses a DPoP header without it (403 invalid_dpop_proof, no DPoP-Nonce); dpop_jkt
            # works there.
            "oauth-dpop-allowed": True, "oauth-dpop-iat-duration": 60, "oauth-dpop-iat-gap-duration": 10,
            "oauth-dpop-nonce-mandatory": dpop_nonce_required, "oauth-dpop-nonce-counter": 5,
            # Signed JWTs from clients: request objects (RFC 9101) and client assertions (RFC 7523), which glewlwyd
            # only reads when request-parameter-allow is on. The client's key is its "pubkey" (PEM) property, or
            # its "jwks" one. IETF-strict: typ oauth-authz-req+jwt, and each client names its algorithms in
            # request_object_signing_alg and token_endpoint_signing_alg. Assertions may live up to 300 s.
            "request-parameter-allow": True, "request-parameter-ietf-strict": True, "request-maximum-exp": 300,
            "client-pubkey-parameter": "pubkey", "client-jwks-parameter": "jwks",
            # RFC 9207: iss in every authorization response.
            "oauth-as-iss-id": True,
            # RFC 8628 at POST /device_authorization, the user's page at /device.
            "auth-type-device-enabled": True, "device-authorization-expiration": 600,
            "device-authorization-interval": device_interval,
            # CIBA at POST /ciba, poll and ping modes (push is not in the FAPI CIBA profile); no e-mail to the
            # user, no user_code. Requests live 600 s unless the client asks for less (requested_expiry).
            "oauth-ciba-allowed": True, "oauth-ciba-mode-poll-allowed": True, "oauth-ciba-mode-ping-allowed": True,
            "oauth-ciba-mode-push-allowed": False, "oauth-ciba-default-expiry": 600,
            "oauth-ciba-maximum-expiry": 600, "oauth-ciba-user-code-allowed": False,
            "oauth-ciba-email-allowed": False, "oauth-ciba-allow-https-non-secure": False,
        }}, timeout=10), "adding the OIDC plugin")

    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": CLIENT_ID, "name": "Native app", "enabled": True, "confidential": False,
        "redirect_uri": [REDIRECT_URI], "authorization_type": ["code", "refresh_token"],
        "token_endpoint_auth_method": ["none"], "scope": []}, timeout=10), "adding the public client")
    # A confidential client authenticates with its "password" (API.md, "Add a new client").
    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": CONFIDENTIAL_CLIENT_ID, "name": "Backend app", "enabled": True, "confidential": True,
        "password": CONFIDENTIAL_CLIENT_SECRET, "redirect_uri": [REDIRECT_URI],
        "authorization_type": ["code", "refresh_token"], "token_endpoint_auth_method": ["client_secret_basic"],
        "scope": []}, timeout=10), "adding the confidential client")
    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": FAPI_CLIENT_ID, "name": "FAPI 2.0 app", "enabled": True, "confidential": True,
        "redirect_uri": [REDIRECT_URI], "authorization_type": ["code", "refresh_token"],
        "token_endpoint_auth_method": ["private_key_jwt"], "pubkey": fapi_public_pem,
        "token_endpoint_signing_alg": "ES256", "request_object_signing_alg": "ES256",
        "scope": []}, timeout=10), "adding the FAPI client")
    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": JWKS_CLIENT_ID, "name": "App with a key set", "enabled": True, "confidential": True,
        "redirect_uri": [REDIRECT_URI], "authorization_type": ["code", "refresh_token"],
        "token_endpoint_auth_method": ["private_key_jwt"], "jwks": jwks,
        "token_endpoint_signing_alg": "ES256", "scope": []}, timeout=10), "adding the client with a key set")
    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": DEVICE_CLIENT_ID, "name": "TV app", "enabled": True, "confidential": False,
        "redirect_uri": [], "authorization_type": ["device_authorization", "refresh_token"],
        "token_endpoint_auth_method": ["none"], "scope": []}, timeout=10), "adding the device client")
    _expect(admin.post(base_url + "/api/client/", json={
        "client_id": MACHINE_CLIENT_ID, "name": "Machine", "enabled": True, "confidential": True,
        "password": MACHINE_CLIENT_SECRET, "redirect_uri": [], "authorization_type": ["client_credentials"],
        "token_endpoint_auth_method": ["client_secret_basic", "client_secret_post"], "scope": [MACHINE_SCOPE]},
        timeout=10), "adding the client credentials client")
    for client_id, mode in ((CIBA_POLL_CLIENT_ID, "poll"), (CIBA_PING_CLIENT_ID, "ping")):
        ciba = {"client_id": client_id, "name": f"CIBA {mode} app", "enabled": True, "confidential": True,
                "password": CIBA_CLIENT_SECRET, "redirect_uri": [],
                "authorization_type": ["urn:openid:params:grant-type:ciba", "refresh_token"],
                "token_endpoint_auth_method": ["client_secret_basic", "client_secret_post"], "scope": [],
                "backchannel_token_delivery_mode": mode}
        if mode == "ping":
            ciba["backchannel_client_notification_endpoint"] = notification_endpoint
        _expect(admin.post(base_url + "/api/client/", json=ciba, timeout=10), f"adding the CIBA {mode} client")

    # Glewlwyd asks the user to grant a client its scopes once; granting them here through the user's
    # own API (PUT /api/auth/grant/{client_id}) is what its consent page would do.
    user = _sign_in(base_url, USER["username"], USER["password"])
    for client_id in (CLIENT_ID, CONFIDENTIAL_CLIENT_ID, FAPI_CLIENT_ID, JWKS_CLIENT_ID, DEVICE_CLIENT_ID,
                      CIBA_POLL_CLIENT_ID, CIBA_PING_CLIENT_ID):
        _expect(user.put(f"{base_url}/api/auth/grant/{client_id}", json={"scope": SCOPE}, timeout=10),
                f"granting {client_id} the scope")


def _login(base_url: str, log: Path, authorization_url: str) -> str:
    session = _sign_in(base_url, USER["username"], USER["password"])
    url = authorization_url
    for _ in range(5):
        response = session.get(url, allow_redirects=False, timeout=10)
        if response.status_code != 302:
            raise AssertionError(f"glewlwyd's authorization endpoint answered HTTP {response.status_code} "
                                 f"{response.text[:500]}\n--- glewlwyd.log ---\n{_tail(log)}")
        location = response.headers["Location"]
        if location.startswith(REDIRECT_URI):
            return location
        # The first visit always goes to the login page with a callback_url; once signed in, the page sends
        # the browser back to callback_url with g_continue added (webapp-src/src/Login/Buttons.js), which
        # tells the authorization endpoint to check the session instead of showing the page again.
        callback = parse_qs(urlsplit(location).query).get("callback_url")
        if not callback:
            raise AssertionError(f"unexpected redirect {location}\n--- glewlwyd.log ---\n{_tail(log)}")
        url = callback[0] + ("&" if "?" in callback[0] else "?") + "g_continue"
    raise AssertionError(f"no redirect to {REDIRECT_URI} after 5 hops (last: {url})\n"
                         f"--- glewlwyd.log ---\n{_tail(log)}")


def approve_device_at(issuer: str, user_code: str) -> str:
    """The user signs in and enters `user_code` on glewlwyd's device page (GET {issuer}/device?code=...&g_continue,
    what its login page does once the user has signed in); returns the redirect, ending in prompt=deviceComplete."""
    base_url = issuer.split("/api/")[0]
    session = _sign_in(base_url, USER["username"], USER["password"])
    response = session.get(f"{issuer}/device", params={"code": user_code, "g_continue": ""}, allow_redirects=False,
                           timeout=10)
    location = response.headers.get("Location", "")
    assert response.status_code == 302 and "prompt=deviceComplete" in location, \
        f"glewlwyd did not take the user code: HTTP {response.status_code} {location}"
    return location


def _ciba_decision(issuer: str, client_id: str, approve: bool, wait: float = 10) -> str:
    """The user signs in, finds the client's pending CIBA request in GET {issuer}/ciba_user_list (OIDC.md, "CIBA
    endpoints") and opens its connect_uri with g_continue (approve) or its cancel_uri (deny); returns the redirect,
    carrying ciba_message=complete or ciba_message=cancelled."""
    base_url = issuer.split("/api/")[0]
    session = _sign_in(base_url, USER["username"], USER["password"])
    deadline = time.monotonic() + wait
    while True:
        listing = session.get(f"{issuer}/ciba_user_list", timeout=10)
        _expect(listing, "listing the user's CIBA requests")
        pending = [entry for entry in listing.json() if entry.get("client_id") == client_id]
        if pending or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(pending) == 1, f"{len(pending)} pending CIBA requests for {client_id}"
    url = pending[0]["connect_uri"] + "&g_continue" if approve else pending[0]["cancel_uri"]
    response = session.get(url, allow_redirects=False, timeout=10)
    location = response.headers.get("Location", "")
    expected = "ciba_message=complete" if approve else "ciba_message=cancelled"
    assert response.status_code == 302 and expected in location, \
        f"glewlwyd's CIBA decision: HTTP {response.status_code} {location}"
    return location


def approve_ciba_at(issuer: str, client_id: str) -> str:
    return _ciba_decision(issuer, client_id, approve=True)


def deny_ciba_at(issuer: str, client_id: str) -> str:
    return _ciba_decision(issuer, client_id, approve=False)


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else "(no log)"


def _wait_ready(process: subprocess.Popen, base_url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"glewlwyd exited with status {process.returncode}")
        try:
            requests.get(base_url + "/config/", timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("glewlwyd did not answer within 10 seconds")


@contextlib.contextmanager
def start_glewlwyd(dpop_nonce_required: bool = False, notification_endpoint: str = NOTIFICATION_ENDPOINT,
                   device_interval: int = DEVICE_INTERVAL) -> Iterator[Glewlwyd]:
    """`notification_endpoint` is where glewlwyd pings the CIBA ping client (CIBA Core §10.2); nothing need
    listen there unless a test uses ping mode (glewlwyd logs the failed ping and carries on)."""
    workdir = Path(tempfile.mkdtemp(prefix="glewlwyd-"))
    log = workdir / "glewlwyd.log"
    process = None
    try:
        with sqlite3.connect(workdir / "glewlwyd.db") as database:
            database.executescript(gzip.decompress(SCHEMA.read_bytes()).decode())
        port = _free_port()
        base_url = f"http://127.0.0.1:{port}"
        issuer = f"{base_url}/api/{PLUGIN}"
        config = _write_config(workdir, port)
        with open(workdir / "stdout.log", "wb") as output:
            process = subprocess.Popen([BINARY, f"--config-file={config}"], stdout=output, stderr=subprocess.STDOUT,
                                       cwd=workdir)
        _wait_ready(process, base_url, time.monotonic() + 10)
        fapi_private_pem, fapi_public_pem, fapi_private_jwk = _ec_key_pair()
        by_thumbprint_pem, _, by_thumbprint_jwk = _ec_key_pair()
        named_pem, _, named_jwk = _ec_key_pair()
        jwks = {"keys": [dict(_public_jwk(by_thumbprint_jwk), kid=_thumbprint(_public_jwk(by_thumbprint_jwk)), use="sig", alg="ES256"),
                         dict(_public_jwk(named_jwk), kid=JWKS_KEY_ID, use="sig", alg="ES256")]}
        _configure(base_url, issuer, fapi_public_pem, dpop_nonce_required, jwks, device_interval,
                   notification_endpoint)
        yield Glewlwyd(issuer=issuer, client_id=CLIENT_ID, confidential_client_id=CONFIDENTIAL_CLIENT_ID,
                       confidential_client_secret=CONFIDENTIAL_CLIENT_SECRET, redirect_uri=REDIRECT_URI,
                       login=lambda authorization_url: _login(base_url, log, authorization_url),
                       fapi_private_key_pem=fapi_private_pem, fapi_private_jwk=fapi_private_jwk,
                       jwks_thumbprint_key_pem=by_thumbprint_pem, jwks_named_key_pem=named_pem,
                       device_authorization_endpoint=f"{issuer}/device_authorization",
                       backchannel_authentication_endpoint=f"{issuer}/ciba",
                       client_notification_endpoint=notification_endpoint,
                       approve_device=lambda user_code: approve_device_at(issuer, user_code),
                       approve_ciba=lambda client_id: approve_ciba_at(issuer, client_id),
                       deny_ciba=lambda client_id: deny_ciba_at(issuer, client_id))
    except BaseException:
        for name in ("stdout.log", "glewlwyd.log"):
            path = workdir / name
            if path.exists() and path.stat().st_size:
                print(f"--- glewlwyd {name} ---\n{path.read_text(errors='replace')}", file=sys.stderr)
        raise
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def _serve(notification_endpoint: str) -> None:
    # SIGTERM (what the C tests send) unwinds start_glewlwyd, which stops glewlwyd and removes its directory.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with start_glewlwyd(notification_endpoint=notification_endpoint) as provider:
        fields = {f.name: getattr(provider, f.name) for f in dataclasses.fields(provider)
                  if not callable(getattr(provider, f.name))}
        print(json.dumps(dict(fields, user=USER)), flush=True)
        time.sleep(1800)  # until killed; a safety net: never outlive a test run by long


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "serve":
        _serve(arguments[0] if arguments else NOTIFICATION_ENDPOINT)
    else:
        act = {"approve-device": approve_device_at, "approve-ciba": approve_ciba_at, "deny-ciba": deny_ciba_at}[command]
        print(act(*arguments), flush=True)
