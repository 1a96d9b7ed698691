"""An end-to-end login with telenorid against a local OpenID provider (django-oauth-toolkit), the user's
part played headlessly over HTTP: discovery, PKCE, authorize, login and consent, callback, code exchange,
ID token validation, userinfo, refresh. Prints the verified ID token claims and the userinfo."""
import json
import sys
from pathlib import Path

import telenorid

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "Tests" / "support" / "provider"))
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"

with start_provider() as provider:
    print(f"provider: django-oauth-toolkit at {provider['issuer']}")
    config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                            redirect_uri=REDIRECT, scope="openid profile email")
    with telenorid.Client(config) as client:
        client.discover()
        request = telenorid.AuthorizationRequest(client.config())
        request.add_claim("id_token", "email", essential=True, purpose="To show who signed in")
        pending = request.build()
        print(f"authorization URL: {pending.url}")
        redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
        print(f"redirect received: {redirect.split('?')[0]}?code=…&state=…")
        state = client.exchange_code(pending.handle_callback(redirect))
        print("verified ID token claims:")
        print(json.dumps(state.id_token_claims, indent=2, sort_keys=True))
        print("userinfo:")
        print(json.dumps(state.userinfo(), indent=2, sort_keys=True))
        old = state.get("refresh_token")
        state.refresh()
        print(f"refreshed: new access token, refresh token rotated: {state.get('refresh_token') != old}")
