"""The other side of the token through the ctypes binding, against the real test providers started on
127.0.0.1: token introspection (RFC 7662), JWT access tokens (RFC 9068) and the client credentials grant
(RFC 6749 §4.4) at django-oauth-toolkit (Tests/support/provider/oidc_provider.py: opaque access tokens, an
introspection endpoint at /o/introspect/ that only its RFC 8414 metadata names, not its OpenID one), glewlwyd 2.7.5
(Tests/support/glewlwyd_provider.py: access tokens are JWTs of typ at+jwt whose aud is the scope list, the
introspection endpoint is discovered and takes client_secret_basic from a client of the client credentials
grant), and LemonLDAP::NG 2.16 (Tests/support/lemonldap_provider.py: JWT access tokens of typ JWT, accepted only
by setting; introspection and the client credentials grant for a confidential relying party)."""
import os
import time

import pytest
import requests

import telenorid
from glewlwyd_provider import BINARY, start_glewlwyd
from machine_clients import django_machine, glewlwyd_machine
from oidc_provider import start_provider


def machine_config(info, method="client_secret_basic"):
    return telenorid.Config.from_settings(**django_machine(info, token_endpoint_auth_method=method))


@pytest.fixture(scope="module")
def django():
    with start_provider() as info:
        yield info


def test_django_client_credentials_are_kept_and_renewed(django):
    with telenorid.Client(machine_config(django)) as client:
        machine = telenorid.ClientCredentials(client)
        assert machine.expires_at is None  # nothing asked yet
        token = machine.access_token()
        assert token and machine.access_token() == token  # kept, not asked again
        assert abs(machine.expires_at - (time.time() + 300)) < 30  # the provider's expires_in of 300 s
        machine.rejected("some other token")  # a token it does not hold changes nothing
        assert machine.access_token() == token
        machine.rejected()
        renewed = machine.access_token()
        assert renewed != token
        # client_secret_post and a scope
        with telenorid.Client(machine_config(django, "client_secret_post")) as post_client:
            assert telenorid.ClientCredentials(post_client, "profile").access_token()


def test_django_introspection(django):
    with telenorid.Client(machine_config(django)) as machine_client:
        token = telenorid.ClientCredentials(machine_client, "profile").access_token()
    introspection = django["issuer"] + "/introspect/"
    backend = django["clients"]["confidential"]
    settings = dict(issuer=django["issuer"], client_id=backend["client_id"], client_secret=backend["client_secret"])
    # Not in django-oauth-toolkit's OpenID discovery document but in its RFC 8414 one (under the issuer's path),
    # from which discovery fills what the first left out.
    discovery = requests.get(django["issuer"] + "/.well-known/openid-configuration", timeout=10).json()
    assert "introspection_endpoint" not in discovery
    with telenorid.Client(telenorid.Config.from_settings(**settings)) as client:
        assert telenorid.ResourceServer(client, "api").introspect(token).active
    for method in ("client_secret_basic", "client_secret_post"):
        config = telenorid.Config.from_settings(introspection_endpoint=introspection,
                                                token_endpoint_auth_method=method, **settings)
        with telenorid.Client(config) as client, telenorid.ResourceServer(client, "api") as server:
            info = server.introspect(token, "access_token")
            assert info.active and info.client_id == "machine-app" and info.scope == "profile"
            assert abs(info.exp - (time.time() + 300)) < 30
            assert info.to_dict()["active"] is True and info.member("client_id") == "machine-app"
            assert info.sub is None and info.aud == [] and info.cnf_jkt is None and info.member("nope") is None
            inactive = server.introspect("not-a-token-it-issued")
            assert not inactive.active and inactive.to_dict() == {"active": False}
            # An opaque token is no JWT: the local check says so.
            with pytest.raises(telenorid.TokenInvalidError, match="not a JWT"):
                server.verify_access_token(token)
    # A wrong secret: django-oauth-toolkit refuses the client with a bodyless 403 (RFC 7662 §2.3 asks for 401).
    wrong = dict(settings, client_secret="wrong")
    with telenorid.Client(telenorid.Config.from_settings(introspection_endpoint=introspection, **wrong)) as client:
        with pytest.raises(telenorid.HTTPStatusError, match="HTTP 403"):
            telenorid.ResourceServer(client, "api").introspect(token)


def test_django_introspection_cache_outlives_a_revocation_only_by_its_max_age(django):
    machine = django["clients"]["machine"]
    with telenorid.Client(machine_config(django)) as machine_client:
        token = telenorid.ClientCredentials(machine_client).access_token()
    backend = django["clients"]["confidential"]
    config = telenorid.Config.from_settings(issuer=django["issuer"], client_id=backend["client_id"],
                                            client_secret=backend["client_secret"],
                                            introspection_endpoint=django["issuer"] + "/introspect/")
    with telenorid.Client(config) as client:
        cached = telenorid.ResourceServer(client, "api", introspection_cache_max_age_s=60)
        uncached = telenorid.ResourceServer(client, "api")
        assert cached.introspect(token).active and uncached.introspect(token).active
        revoked = requests.post(django["issuer"] + "/revoke_token/", data={"token": token}, timeout=10,
                                auth=(machine["client_id"], machine["client_secret"]))
        assert revoked.status_code == 200
        assert not uncached.introspect(token).active  # asks each time
        assert cached.introspect(token).active  # the answer kept within its max age
        cached.set("introspection_cache_max_age_s", 0)  # empties the cache
        assert not cached.introspect(token).active


def test_arguments_are_checked_before_c(django):
    with telenorid.Client(machine_config(django)) as client:
        with pytest.raises(TypeError):
            telenorid.ResourceServer(client, 5)  # type: ignore[arg-type]
        server = telenorid.ResourceServer(client, "api")
        with pytest.raises(TypeError):
            server.set("no_such_option", "1")
        with pytest.raises(telenorid.InvalidArgumentError):
            server.set("introspection_cache_max_age_s", -1)
        with pytest.raises(telenorid.InvalidArgumentError):
            server.set("access_token_signing_algs", "HS256")
        with pytest.raises(telenorid.InvalidArgumentError):
            telenorid.ResourceServer(client, "")
        with pytest.raises(TypeError):
            server.introspect(None)  # type: ignore[arg-type]
        with pytest.raises(telenorid.InvalidArgumentError):
            telenorid.ClientCredentials(client, "")
    public = telenorid.Config.from_settings(issuer=django["issuer"], client_id="native-app")
    with telenorid.Client(public) as client:
        with pytest.raises(telenorid.ConfigurationError, match="public"):
            telenorid.ClientCredentials(client)


@pytest.mark.skipif(not os.access(BINARY, os.X_OK), reason="glewlwyd is not installed (scripts/setup.sh)")
def test_glewlwyd_jwt_access_tokens_introspection_and_client_credentials():
    with start_glewlwyd() as glewlwyd:
        config = telenorid.Config.from_settings(
            **glewlwyd_machine(glewlwyd, token_endpoint_auth_method="client_secret_basic"))
        with telenorid.Client(config) as client:
            machine = telenorid.ClientCredentials(client, glewlwyd.machine_scope)
            token = machine.access_token()
            # glewlwyd's aud is the token's scope list when no resource was asked for.
            server = telenorid.ResourceServer(client, glewlwyd.machine_scope)
            info = server.verify_access_token(token)
            assert info.active and info.client_id == glewlwyd.machine_client_id
            assert info.sub == glewlwyd.machine_client_id and info.iss == glewlwyd.issuer
            assert info.scope == glewlwyd.machine_scope and info.aud == [glewlwyd.machine_scope]
            assert info.exp == machine.expires_at or abs(info.exp - machine.expires_at) <= 2
            assert info.jti and info.iat and info.member("type") == "access_token"
            with pytest.raises(telenorid.TokenInvalidError, match="not meant for"):
                telenorid.ResourceServer(client, "https://api.example/").verify_access_token(token)
            server.set("access_token_signing_algs", "ES256")  # glewlwyd signs with RS256
            with pytest.raises(telenorid.TokenInvalidError, match="RS256"):
                server.verify_access_token(token)
            server.set("access_token_signing_algs", None)
            tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
            with pytest.raises(telenorid.TokenInvalidError):
                server.verify_access_token(tampered)
            # Introspection, at the discovered endpoint, by the client of the client credentials grant.
            answer = server.introspect(token)
            assert answer.active and answer.client_id == glewlwyd.machine_client_id
            assert answer.token_type == "bearer" and answer.scope == glewlwyd.machine_scope
            assert not server.introspect("not-a-token").active
        post = telenorid.Config.from_settings(
            **glewlwyd_machine(glewlwyd, token_endpoint_auth_method="client_secret_post"))
        with telenorid.Client(post) as client:
            assert telenorid.ClientCredentials(client, glewlwyd.machine_scope).access_token()


def test_lemonldap_typ_jwt_access_tokens_introspection_and_client_credentials():
    from lemonldap_provider import FASTCGI_SERVER, MACHINE_CLIENT_ID, MACHINE_CLIENT_SECRET, start_lemonldap

    if not os.access(FASTCGI_SERVER, os.X_OK):
        pytest.skip("LemonLDAP::NG is not installed (scripts/setup.sh)")
    with start_lemonldap() as lemonldap:
        config = telenorid.Config.from_settings(issuer=lemonldap.issuer, client_id=MACHINE_CLIENT_ID,
                                                client_secret=MACHINE_CLIENT_SECRET)
        with telenorid.Client(config) as client:
            token = telenorid.ClientCredentials(client, "openid").access_token()
            # LemonLDAP::NG 2.16 writes typ JWT, not at+jwt, and names the client as the audience.
            server = telenorid.ResourceServer(client, MACHINE_CLIENT_ID)
            with pytest.raises(telenorid.TokenInvalidError, match="accepting typ JWT is a setting"):
                server.verify_access_token(token)
            server.set("accept_typ_jwt", True)
            info = server.verify_access_token(token)
            assert info.client_id == MACHINE_CLIENT_ID and info.sub == MACHINE_CLIENT_ID and info.scope == "openid"
            assert info.aud == [MACHINE_CLIENT_ID] and info.iss == lemonldap.issuer
            # Introspection at the discovered endpoint (client_secret_basic).
            answer = server.introspect(token)
            assert answer.active and answer.client_id == MACHINE_CLIENT_ID and answer.exp == info.exp
            assert not server.introspect("not-a-token").active
