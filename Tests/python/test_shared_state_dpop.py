"""One DPoP-bound sign-in (RFC 9449) whose key the host holds (Client.set_dpop_signer: here `cryptography`
plays the keystore), shared by two processes through the library's state file, against glewlwyd 2.7.5: a
process that takes up a refresh another process made keeps the tokens bound to the host's key, so every
process goes on proving possession with it, and the shared file keeps its dpop_jkt."""
import base64
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import telenorid

from glewlwyd_provider import BINARY, start_glewlwyd  # noqa: E402

if not os.access(BINARY, os.X_OK):
    pytest.skip("glewlwyd is not installed (scripts/setup.sh installs it)", allow_module_level=True)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

def host_signer(pem):
    """The public JWK and signer of the host's key, as both processes set it: the raw r||s JWS wants for
    ES256 (RFC 7518 §3.4), not the DER `cryptography` returns."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    numbers = key.public_key().public_numbers()
    coordinate = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()  # noqa: E731
    public_jwk = {"kty": "EC", "crv": "P-256", "x": coordinate(numbers.x), "y": coordinate(numbers.y)}

    def sign(signing_input):
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return public_jwk, sign


# The other process: the same client and host key, the shared file, one refresh.
WORKER = r"""
import json, sys, telenorid
from test_shared_state_dpop import host_signer
job = json.load(sys.stdin)
with telenorid.Client(telenorid.Config.from_settings(**job["settings"])) as client:
    client.set_dpop_signer("ES256", *host_signer(job["host_key"]))
    state = client.open_auth_state_file(job["path"])
    try:
        state.refresh()
        print(json.dumps({"refresh_token": state.get("refresh_token"), "thumbprint": state.get("dpop_thumbprint")}))
    except telenorid.TelenoridError as error:
        print(json.dumps({"error": type(error).__name__, "message": error.message}))
"""


def new_host_key():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


@pytest.fixture(scope="module")
def glewlwyd():
    with start_glewlwyd() as provider:
        yield provider


def client_settings(glewlwyd):
    """The FAPI 2.0 client glewlwyd_provider registers (private_key_jwt, DPoP, pushed requests); the DPoP
    key is the host's."""
    return dict(issuer=glewlwyd.issuer, client_id=glewlwyd.fapi_client_id, redirect_uri=glewlwyd.redirect_uri,
                scope="openid", client_private_key=glewlwyd.fapi_private_key_pem,
                token_endpoint_auth_method="private_key_jwt", client_assertion_audience="endpoint",
                push_authorization_requests=True)


def other_process_refreshes(glewlwyd, path, host_key):
    job = json.dumps({"settings": client_settings(glewlwyd), "host_key": host_key, "path": str(path)})
    # The worker imports this file as a module, outside pytest and so without conftest.py's paths.
    path = [str(ROOT / "bindings" / "python"), str(HERE), str(ROOT / "Tests" / "support")]
    done = subprocess.run([sys.executable, "-c", WORKER], input=job, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(path)))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def jwt_payload(token):
    return json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))


def signed_in_with_host_key(glewlwyd, tmp_path):
    host_key = new_host_key()
    client = telenorid.Client(telenorid.Config.from_settings(**client_settings(glewlwyd)))
    client.set_dpop_signer("ES256", *host_signer(host_key))
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    state = client.exchange_code(pending.handle_callback(glewlwyd.login(pending.url)))
    assert state.get("token_type") == "DPoP"
    path = tmp_path / "state.json"
    state.bind_file(str(path))
    thumbprint = state.get("dpop_thumbprint")
    assert json.loads(path.read_text())["dpop_jkt"] == thumbprint
    return client, state, path, host_key, thumbprint


def test_a_refresh_taken_up_from_another_process_keeps_the_host_key(glewlwyd, tmp_path):
    client, state, path, host_key, thumbprint = signed_in_with_host_key(glewlwyd, tmp_path)
    theirs = other_process_refreshes(glewlwyd, path, host_key)
    assert theirs.get("thumbprint") == thumbprint, theirs

    # This process takes up the other's refresh instead of redeeming its own rotated-away refresh token,
    # and the tokens it takes up are still bound to the host's key.
    state.refresh()
    assert state.get("refresh_token") == theirs["refresh_token"]
    assert state.get("dpop_thumbprint") == thumbprint
    assert json.loads(path.read_text())["dpop_jkt"] == thumbprint
    authorization, proof = state.request_headers("GET", glewlwyd.issuer + "/userinfo")
    assert authorization.startswith("DPoP ") and proof is not None
    assert jwt_payload(state.fresh_access_token())["cnf"]["jkt"] == thumbprint
    request = urllib.request.Request(glewlwyd.issuer + "/userinfo", headers={"Authorization": authorization, "DPoP": proof})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200

    # Its own next refresh goes to glewlwyd with a proof by the host's key, and the file it leaves is one
    # every process can go on with.
    state.refresh()
    assert state.get("refresh_token") != theirs["refresh_token"]
    again = other_process_refreshes(glewlwyd, path, host_key)
    assert again.get("thumbprint") == thumbprint, again
    state.refresh()
    assert state.get("refresh_token") == again["refresh_token"] and state.get("dpop_thumbprint") == thumbprint
    client.close()


def test_a_stored_binding_to_a_key_this_client_does_not_hold_changes_nothing(glewlwyd, tmp_path):
    """The client's signer is now another key: the refresh the other process saved is bound to a key this
    process can't prove, so taking it up is refused with a clear error, and neither the state nor the file
    changes."""
    client, state, path, host_key, thumbprint = signed_in_with_host_key(glewlwyd, tmp_path)
    client.set_dpop_signer("ES256", *host_signer(new_host_key()))
    theirs = other_process_refreshes(glewlwyd, path, host_key)
    saved = path.read_bytes()
    ours = state.get("refresh_token")
    with pytest.raises(telenorid.ConfigurationError, match="DPoP key the host holds"):
        state.refresh()
    assert state.signed_in and state.get("refresh_token") == ours != theirs["refresh_token"]
    assert state.get("dpop_thumbprint") == thumbprint
    assert path.read_bytes() == saved
    client.close()
