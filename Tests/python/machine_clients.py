"""The providers' machine clients (the client credentials grant, RFC 6749 §4.4) as telenorid settings, shared by
test_resource_server.py and test_machine_tokens.py: django-oauth-toolkit's machine-app (the "machine" client of
Tests/support/provider/oidc_provider.py's info) and glewlwyd's machine client (Tests/support/glewlwyd_provider.py's
Glewlwyd). Settings, not a Config, so that a test can also hand them to another process as JSON."""


def django_machine(info: dict, **extra) -> dict:
    """django-oauth-toolkit's machine client; `extra` adds settings (token_endpoint_auth_method, ...)."""
    machine = info["clients"]["machine"]
    return dict(issuer=info["issuer"], client_id=machine["client_id"], client_secret=machine["client_secret"], **extra)


def glewlwyd_machine(glewlwyd, **extra) -> dict:
    """glewlwyd's machine client; `extra` adds settings (token_endpoint_auth_method, dpop_signing_alg, ...)."""
    return dict(issuer=glewlwyd.issuer, client_id=glewlwyd.machine_client_id,
                client_secret=glewlwyd.machine_client_secret, **extra)
