"""`telenorid token --client-credentials`, `telenorid introspect` and `telenorid verify-access-token`, run as a
script or an operator would run them (subprocesses), against the real providers the tests start on 127.0.0.1:
django-oauth-toolkit (opaque access tokens, introspection) and glewlwyd 2.7.5 (JWT access tokens of typ at+jwt
whose aud is the scope list). Each has a confidential `machine-app` client of the client credentials grant."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from glewlwyd_provider import BINARY, start_glewlwyd
from oidc_provider import start_provider

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def django():
    with start_provider() as info:
        yield info


def telenorid(*args, secret=None, stdin=None):
    environment = {key: value for key, value in os.environ.items() if key != "TELENORID_CLIENT_SECRET"}
    environment.update(PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file")
    if secret is not None:
        environment["TELENORID_CLIENT_SECRET"] = secret
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=environment, input=stdin)


def machine_token(issuer, client, state_file, *more):
    run = telenorid("token", "--client-credentials", "--json", "--issuer", issuer, "--client-id",
                    client["client_id"], "--state-file", str(state_file), *more, secret=client["client_secret"])
    assert run.returncode == 0, run.stderr
    assert client["client_secret"] not in run.stdout + run.stderr
    return json.loads(run.stdout)


def test_a_machine_token_for_scripts_and_its_introspection(django, tmp_path):
    machine, backend = django["clients"]["machine"], django["clients"]["confidential"]
    state = tmp_path / "state.json"
    document = machine_token(django["issuer"], machine, state, "--scope", "profile")
    assert set(document) == {"access_token", "expires_at", "expires_in"}
    assert abs(document["expires_at"] - (time.time() + 300)) < 30  # django-oauth-toolkit's expires_in of 300 s
    assert 270 < document["expires_in"] <= 300
    # Without --json: the token alone on standard output, for $(...).
    plain = telenorid("token", "--client-credentials", "--scope", "profile", "--issuer", django["issuer"],
                      "--client-id", machine["client_id"], "--state-file", str(state), secret=machine["client_secret"])
    assert plain.returncode == 0 and plain.stdout.count("\n") == 1 and plain.stdout.strip()
    assert plain.stdout.strip() == document["access_token"], "kept beside the state file and used while fresh"
    record = json.loads((tmp_path / "state.machine.json").read_text())
    assert record["access_token"] == document["access_token"] and not state.exists()
    assert json.loads(record["machine_grant"]) == ["client_credentials", "profile"]
    # No --scope is another grant (the settings' scope is a sign-in's): a new token, which replaces the kept one.
    other = machine_token(django["issuer"], machine, state)
    assert other["access_token"] != document["access_token"]
    assert json.loads(json.loads((tmp_path / "state.machine.json").read_text())["machine_grant"]) == [
        "client_credentials", None]
    # The resource server's check, the token read from standard input (-) rather than from the command line.
    backend_flags = ("--issuer", django["issuer"], "--client-id", backend["client_id"], "--state-file", str(state))
    asked = telenorid("introspect", "-", "--json", "--token-type-hint", "access_token", *backend_flags,
                      secret=backend["client_secret"], stdin=document["access_token"] + "\n")
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["active"] is True and answer["client_id"] == "machine-app" and answer["scope"] == "profile"
    assert answer["exp"] == pytest.approx(document["expires_at"], abs=2)
    # For people: the answer indented, and a line on standard error with the expiry.
    shown = telenorid("introspect", "-", *backend_flags, secret=backend["client_secret"],
                      stdin=document["access_token"])
    assert shown.returncode == 0 and json.loads(shown.stdout) == answer and "\n  " in shown.stdout
    assert "telenorid: active; expires " in shown.stderr
    # Not active is an answer: printed, and exit 1 for a script's `if`.
    inactive = telenorid("introspect", "not-a-token-it-issued", "--json", *backend_flags,
                         secret=backend["client_secret"])
    assert inactive.returncode == 1 and json.loads(inactive.stdout) == {"active": False}
    assert "not active" in inactive.stderr
    # An opaque token is no JWT: the local check says so.
    local = telenorid("verify-access-token", "-", "--audience", "api", *backend_flags,
                      secret=backend["client_secret"], stdin=document["access_token"])
    assert local.returncode == 1 and "not a JWT" in local.stderr and local.stdout == ""
    # The provider refusing the client (django-oauth-toolkit: a bodyless 403).
    refused = telenorid("introspect", document["access_token"], *backend_flags, secret="wrong")
    assert refused.returncode == 1 and "403" in refused.stderr and refused.stdout == ""
    empty = telenorid("introspect", "-", *backend_flags, secret=backend["client_secret"], stdin="\n")
    assert empty.returncode == 1 and "no token on standard input" in empty.stderr


def test_the_secret_is_a_confidential_clients_and_never_an_argument(django, tmp_path):
    machine = django["clients"]["machine"]
    flags = ("--issuer", django["issuer"], "--client-id", machine["client_id"], "--state-file",
             str(tmp_path / "state.json"))
    public = telenorid("token", "--client-credentials", *flags)
    assert public.returncode == 1 and "TELENORID_CLIENT_SECRET" in public.stderr and public.stdout == ""
    argument = telenorid("token", "--client-credentials", "--client-secret", machine["client_secret"], *flags)
    assert argument.returncode == 2 and "--client-secret" in argument.stderr
    account = telenorid("token", "--client-credentials", "--account", "someone", *flags,
                        secret=machine["client_secret"])
    assert account.returncode == 2 and "--account" in account.stderr
    wrong = telenorid("token", "--client-credentials", *flags, secret="not-the-secret")
    assert wrong.returncode == 1 and "invalid_client" in wrong.stderr and "not-the-secret" not in wrong.stderr


def test_the_state_files_settings_serve_only_their_own_client(django, tmp_path):
    """Settings a login kept (here written as login writes them, with the store it chose) are used when the
    command line names no other client; naming another replaces them whole."""
    machine = django["clients"]["machine"]
    state = tmp_path / "state.json"
    (tmp_path / "state.settings.json").write_text(json.dumps(
        {"issuer": django["issuer"], "client_id": machine["client_id"], "scope": "openid", "store": "file"}))
    kept = telenorid("token", "--client-credentials", "--json", "--state-file", str(state),
                     secret=machine["client_secret"])
    assert kept.returncode == 0, kept.stderr
    assert json.loads(kept.stdout)["access_token"]
    # Another client named: the saved issuer is not taken for it either, so it must be given.
    other = telenorid("token", "--client-credentials", "--client-id", "another", "--state-file", str(state),
                      secret=machine["client_secret"])
    assert other.returncode == 2 and "--issuer is required" in other.stderr


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="glewlwyd is not installed (scripts/setup.sh)")
def test_verify_access_token_at_glewlwyd(tmp_path):
    with start_glewlwyd() as glewlwyd:
        machine = {"client_id": glewlwyd.machine_client_id, "client_secret": glewlwyd.machine_client_secret}
        state = tmp_path / "state.json"
        document = machine_token(glewlwyd.issuer, machine, state, "--scope", glewlwyd.machine_scope)
        token = document["access_token"]
        flags = ("--issuer", glewlwyd.issuer, "--client-id", glewlwyd.machine_client_id, "--state-file", str(state))
        # glewlwyd's aud is the token's scope list when no resource was asked for.
        verified = telenorid("verify-access-token", "-", "--json", "--audience", glewlwyd.machine_scope, *flags,
                             stdin=token)
        assert verified.returncode == 0, verified.stderr
        claims = json.loads(verified.stdout)
        assert claims["client_id"] == claims["sub"] == glewlwyd.machine_client_id
        assert claims["iss"] == glewlwyd.issuer and claims["scope"] == glewlwyd.machine_scope
        assert claims["exp"] == pytest.approx(document["expires_at"], abs=2)
        assert f"telenorid: verified for {glewlwyd.machine_scope}; expires " in verified.stderr
        elsewhere = telenorid("verify-access-token", token, "--audience", "https://api.example/", *flags)
        assert elsewhere.returncode == 1 and "not meant for" in elsewhere.stderr and elsewhere.stdout == ""
        algorithm = telenorid("verify-access-token", token, "--audience", glewlwyd.machine_scope,
                              "--algorithms", "ES256", *flags)  # glewlwyd signs with RS256
        assert algorithm.returncode == 1 and "RS256" in algorithm.stderr
        no_audience = telenorid("verify-access-token", token, *flags)
        assert no_audience.returncode == 2 and "--audience" in no_audience.stderr
        # Introspection at the discovered endpoint, by the client of the client credentials grant.
        asked = telenorid("introspect", token, "--json", *flags, secret=glewlwyd.machine_client_secret)
        assert asked.returncode == 0, asked.stderr
        assert json.loads(asked.stdout)["client_id"] == glewlwyd.machine_client_id


def test_accept_typ_jwt_at_lemonldap(tmp_path):
    from lemonldap_provider import FASTCGI_SERVER, MACHINE_CLIENT_ID, MACHINE_CLIENT_SECRET, start_lemonldap

    if not os.access(FASTCGI_SERVER, os.X_OK):
        pytest.skip("LemonLDAP::NG is not installed (scripts/setup.sh)")
    with start_lemonldap() as lemonldap:
        machine = {"client_id": MACHINE_CLIENT_ID, "client_secret": MACHINE_CLIENT_SECRET}
        state = tmp_path / "state.json"
        token = machine_token(lemonldap.issuer, machine, state, "--scope", "openid")["access_token"]
        flags = ("--issuer", lemonldap.issuer, "--client-id", MACHINE_CLIENT_ID, "--state-file", str(state),
                 "--audience", MACHINE_CLIENT_ID)
        # LemonLDAP::NG 2.16 writes typ JWT, not at+jwt: refused, the message naming the flag's setting.
        refused = telenorid("verify-access-token", token, *flags)
        assert refused.returncode == 1 and "accepting typ JWT is a setting" in refused.stderr
        accepted = telenorid("verify-access-token", token, "--accept-typ-jwt", "--json", *flags)
        assert accepted.returncode == 0, accepted.stderr
        assert json.loads(accepted.stdout)["client_id"] == MACHINE_CLIENT_ID


def test_a_jwt_bearer_token_for_a_subject_with_resources(tmp_path):
    from jwt_bearer_provider import start_jwt_bearer_provider

    with start_jwt_bearer_provider() as server:
        client = server["client"]
        config = tmp_path / "machine.json"
        config.write_text(json.dumps({"issuer": server["issuer"], "token_endpoint": server["token_endpoint"],
                                      "client_id": client["client_id"],
                                      "client_private_key": client["private_key_pem"]}))
        flags = ("--config", str(config), "--state-file", str(tmp_path / "state.json"))
        run = telenorid("token", "--jwt-bearer", "--subject", "alice", "--scope", "read", "--resource",
                        "https://api.example/", "--resource", "urn:example:b", "--json", *flags,
                        secret=client["client_secret"])
        assert run.returncode == 0, run.stderr
        token = json.loads(run.stdout)["access_token"]
        record = json.loads((tmp_path / "state.machine.json").read_text())
        assert json.loads(record["machine_grant"]) == ["urn:ietf:params:oauth:grant-type:jwt-bearer", "alice", "read",
                                                       "https://api.example/", "urn:example:b"]
        again = telenorid("token", "--jwt-bearer", "--subject", "alice", "--scope", "read", "--resource",
                          "https://api.example/", "--resource", "urn:example:b", *flags,
                          secret=client["client_secret"])
        assert again.returncode == 0 and again.stdout.strip() == token
        unknown = telenorid("token", "--jwt-bearer", "--subject", "mallory", *flags, secret=client["client_secret"])
        assert unknown.returncode == 1 and "invalid_grant" in unknown.stderr
        for wrong in (("--jwt-bearer",), ("--client-credentials", "--subject", "alice"), ("--subject", "alice"),
                      ("--resource", "https://api.example/"), ("--jwt-bearer", "--client-credentials")):
            refused = telenorid("token", *wrong, *flags, secret=client["client_secret"])
            assert refused.returncode == 2, (wrong, refused.stderr)

