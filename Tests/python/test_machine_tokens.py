"""A machine's own token through the ctypes binding, beyond the plain client credentials grant of
test_resource_server.py: resource indicators (RFC 8707) at the fault provider, which records each token request;
DPoP-bound tokens (RFC 9449) at glewlwyd 2.7.5, whose JWT access tokens carry the key's thumbprint (cnf.jkt);
the JWT bearer grant (RFC 7523 §2.1) at Authlib's server-side grant (Tests/support/jwt_bearer_provider.py, no
installed provider has one); and one token shared by two processes through a store at django-oauth-toolkit."""
import base64
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

import telenorid
from fault_provider import FaultProvider, Response
from glewlwyd_provider import BINARY, start_glewlwyd
from jwt_bearer_provider import start_jwt_bearer_provider
from machine_clients import django_machine, glewlwyd_machine
from oidc_provider import start_provider

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def test_resources_go_with_every_token_request():
    with FaultProvider() as provider:
        provider.token_behaviour = lambda form: Response(body={"access_token": f"t-{len(provider.seen)}",
                                                               "token_type": "Bearer", "expires_in": 300})
        config = telenorid.Config.from_settings(issuer=provider.issuer, client_id="machine", client_secret="s")
        with telenorid.Client(config) as client, telenorid.ClientCredentials(
                client, "read", resources=["https://api.example/"]) as machine:
            first = machine.access_token()
            token_requests = [seen for seen in provider.seen if seen.path == "/token"]
            assert token_requests[-1].form["resource"] == "https://api.example/"
            assert token_requests[-1].form["grant_type"] == "client_credentials"
            for bad in ("not a uri", "https://api.example/#f", "https://api.example/"):
                with pytest.raises(telenorid.InvalidArgumentError):
                    machine.add_resource(bad)
            with pytest.raises(TypeError):
                machine.add_resource(b"https://x.example/")  # type: ignore[arg-type]
            assert machine.add_resource("urn:example:second") is machine
            assert machine.access_token() != first, "a token asked for without the new resource is not used"
            with pytest.raises(telenorid.InvalidArgumentError):
                telenorid.ClientCredentials(client, resources=["https://api.example/#f"])


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="glewlwyd is not installed (scripts/setup.sh)")
def test_glewlwyd_binds_a_machine_token_to_the_clients_dpop_key():
    with start_glewlwyd() as glewlwyd:
        config = telenorid.Config.from_settings(**glewlwyd_machine(glewlwyd, dpop_signing_alg="ES256"))
        with telenorid.Client(config) as client, telenorid.ClientCredentials(client, glewlwyd.machine_scope) as machine:
            api = "https://api.example/items"
            authorization, proof = machine.request_headers("GET", api + "?page=2")
            scheme, token = authorization.split(" ", 1)
            assert scheme == "DPoP" and proof
            proof_header = json.loads(base64.urlsafe_b64decode(proof.split(".")[0] + "=="))
            # The provider bound the token to the key of the proofs: cnf.jkt (RFC 9449 §6.1) is its thumbprint.
            server = telenorid.ResourceServer(client, glewlwyd.machine_scope)
            info = server.verify_access_token(token)
            jkt = info.cnf_jkt
            jwk = proof_header["jwk"]
            members = {name: jwk[name] for name in ("crv", "kty", "x", "y")}
            digest = hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest()
            assert jkt == base64.urlsafe_b64encode(digest).rstrip(b"=").decode()  # RFC 7638
            server.verify_dpop(proof, "GET", api, token, info=info)  # the proof is good for the request
            again, second = machine.request_headers("POST", api)
            assert again == authorization and second != proof  # kept; a new proof per request
            machine.rejected()
            renewed, third = machine.request_headers("GET", api)
            assert renewed != authorization
            renewed_info = server.verify_access_token(renewed.split(" ", 1)[1])
            assert renewed_info.cnf_jkt == jkt, "the same key for the handle's next token"
            server.verify_dpop(third, "GET", api, renewed.split(" ", 1)[1], info=renewed_info)


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="glewlwyd is not installed (scripts/setup.sh)")
def test_a_resources_answer_to_a_machine_token_says_whether_to_retry_once():
    """The resource server is the library's own, checking glewlwyd's tokens by introspection (RFC 7662, so a
    revoked one is seen) and the proofs with nonces (RFC 9449 §9); its refusals are the 401 it would send."""
    with start_glewlwyd() as glewlwyd:
        config = telenorid.Config.from_settings(**glewlwyd_machine(glewlwyd, dpop_signing_alg="ES256"))
        with telenorid.Client(config) as client, telenorid.ClientCredentials(
                client, glewlwyd.machine_scope) as machine, telenorid.ResourceServer(
                client, glewlwyd.machine_scope, introspection_cache_max_age_s=0, dpop_require_nonce=True) as server:
            api = "https://api.example/items"

            def resource(authorization, proof):
                """(status, WWW-Authenticate, DPoP-Nonce) of the resource server's answer."""
                token = authorization.split(" ", 1)[1]
                info = server.introspect(token)
                if not info.active:
                    return 401, 'DPoP error="invalid_token"', None
                try:
                    server.verify_dpop(proof, "GET", api, token, jkt=server.verify_access_token(token).cnf_jkt)
                except telenorid.TokenInvalidError as refusal:
                    return 401, f'DPoP error="{refusal.oauth_error}"', server.dpop_nonce()
                return 200, None, server.dpop_nonce()

            def call():
                """The answer to one request and whether the library says to send it once more."""
                authorization, proof = machine.request_headers("GET", api)
                status, challenge, nonce = resource(authorization, proof)
                return authorization, status, machine.resource_answered(api, status, challenge, nonce, authorization)

            first, status, retry = call()
            assert (status, retry) == (401, True), "use_dpop_nonce with its nonce"
            again, status, retry = call()
            assert (again, status, retry) == (first, 200, False), "the nonce kept, the token too"

            response = requests.post(glewlwyd.issuer + "/revoke", data={"token": first.split(" ", 1)[1]},
                                     auth=(glewlwyd.machine_client_id, glewlwyd.machine_client_secret), timeout=10)
            assert response.status_code == 200
            _, status, retry = call()
            assert (status, retry) == (401, True), "invalid_token: the token is reported refused"
            renewed, status, retry = call()
            assert renewed != first and (status, retry) == (200, False)
            with pytest.raises(telenorid.InvalidArgumentError):
                machine.resource_answered(api, 42, None, None, renewed)


@pytest.fixture(scope="module")
def authlib_server():
    with start_jwt_bearer_provider() as info:
        yield info


def jwt_bearer_client(info, **extra):
    """A client of the harness. A key it is given signs the grant's assertions; the client authenticates with its
    secret (token_endpoint_auth_method "none": with nothing), as the harness's introspection endpoint takes."""
    client = info["client"]
    method = extra.pop("token_endpoint_auth_method", "client_secret_basic")
    secret = {} if method == "none" else {"client_secret": client["client_secret"]}
    config = telenorid.Config.from_settings(
        issuer=info["issuer"], token_endpoint=info["token_endpoint"],
        introspection_endpoint=info["introspection_endpoint"], client_id=client["client_id"],
        token_endpoint_auth_method=method, **secret, **extra)
    return telenorid.Client(config)


def introspected(info, token):
    with jwt_bearer_client(info) as client, telenorid.ResourceServer(client, info["client"]["client_id"]) as server:
        return server.introspect(token)


def test_the_jwt_bearer_grant_with_the_librarys_own_assertions(authlib_server):
    key = authlib_server["client"]["private_key_pem"]
    with jwt_bearer_client(authlib_server, client_private_key=key) as client:
        with telenorid.ClientCredentials.jwt_bearer(client, "read", subject="alice") as machine:
            token = machine.access_token()
            assert machine.access_token() == token
            answer = introspected(authlib_server, token)
            assert answer.active and answer.sub == "alice" and answer.scope == "read"
            assert answer.client_id == authlib_server["client"]["client_id"]
            machine.rejected()
            assert machine.access_token() != token, "renewed with a new assertion of its own"
        # Audience the token endpoint (TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE), another user.
    with jwt_bearer_client(authlib_server, client_private_key=key, client_assertion_audience="token_endpoint") as client:
        assert introspected(authlib_server, telenorid.ClientCredentials.jwt_bearer(
            client, subject="service-account-7").access_token()).sub == "service-account-7"
        # A subject the server does not know: invalid_grant (RFC 7523 §3.1).
        with pytest.raises(telenorid.AuthorizationError) as refused:
            telenorid.ClientCredentials.jwt_bearer(client, subject="mallory").access_token()
        assert refused.value.oauth_error == "invalid_grant"
    with jwt_bearer_client(authlib_server) as client, pytest.raises(telenorid.ConfigurationError):
        telenorid.ClientCredentials.jwt_bearer(client, subject="alice")  # no key to sign with
    with jwt_bearer_client(authlib_server) as client, pytest.raises(TypeError):
        telenorid.ClientCredentials.jwt_bearer(client)


def test_the_jwt_bearer_grant_with_a_given_assertion_is_one_shot(authlib_server):
    from authlib.oauth2.rfc7523 import JWTBearerGrant
    from joserfc.jwk import ECKey

    client_id = authlib_server["client"]["client_id"]
    key = ECKey.import_key(authlib_server["client"]["private_key_pem"])
    assertion = JWTBearerGrant.sign(key, issuer=client_id, audience=authlib_server["issuer"], subject="alice",
                                    header={"alg": "ES256"})
    assertion = assertion.decode() if isinstance(assertion, bytes) else assertion
    with jwt_bearer_client(authlib_server, token_endpoint_auth_method="none") as client:
        machine = telenorid.ClientCredentials.jwt_bearer(client, "write", assertion=assertion)
        token = machine.access_token()
        assert introspected(authlib_server, token).sub == "alice"
        assert machine.access_token() == token
        machine.rejected()
        with pytest.raises(telenorid.ConsumedError):
            machine.access_token()
        with pytest.raises(telenorid.InvalidArgumentError):
            machine.bind_store(telenorid.DirectoryStore(str(HERE)), "machine")
        with pytest.raises(telenorid.InvalidArgumentError):
            telenorid.ClientCredentials.jwt_bearer(client, assertion="not a jwt")


# One of the processes sharing the store: its own client and handle, bound to the same record; it waits for the
# go file so that all of them ask at once, then prints the token it got.
WORKER = r"""
import json, os, sys, time, telenorid
job = json.load(sys.stdin)
with telenorid.Client(telenorid.Config.from_settings(**job["settings"])) as client:
    machine = telenorid.ClientCredentials(client, job["scope"])
    machine.bind_store(telenorid.DirectoryStore(job["directory"]), "machine")
    while not os.path.exists(job["go"]):
        time.sleep(0.01)
    print(json.dumps({"token": machine.access_token()}))
"""


def test_processes_sharing_a_store_get_one_token(tmp_path):
    with start_provider() as django:
        settings = django_machine(django)
        job = json.dumps({"settings": settings, "scope": "profile", "directory": str(tmp_path),
                          "go": str(tmp_path / "go")})
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "bindings" / "python"), str(HERE)])}
        workers = [subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True, env=environment) for _ in range(3)]
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(job)
            worker.stdin.close()
        time.sleep(1.0)  # each has bound its handle and waits
        (tmp_path / "go").touch()
        outputs = []
        for worker in workers:
            assert worker.stdout is not None
            outputs.append(worker.stdout.read())
            assert worker.wait(timeout=60) == 0
        tokens = [json.loads(output)["token"] for output in outputs]
        assert len(set(tokens)) == 1, "one token request for all of them"
        record = json.loads((tmp_path / "machine.json").read_text())
        assert record["access_token"] == tokens[0] and "refresh_token" not in record
        assert json.loads(record["machine_grant"]) == ["client_credentials", "profile"]
        # A process of this one, later: takes the stored token up while it is fresh.
        with telenorid.Client(telenorid.Config.from_settings(**settings)) as client:
            later = telenorid.ClientCredentials(client, "profile")
            later.bind_store(telenorid.DirectoryStore(str(tmp_path)), "machine")
            assert later.access_token() == tokens[0]
            other = telenorid.ClientCredentials(client)  # no scope: another grant, not taken up
            other.bind_store(telenorid.DirectoryStore(str(tmp_path)), "machine")
            assert other.access_token() != tokens[0]
