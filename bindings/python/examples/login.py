"""An end-to-end login with telenorid against a local OpenID provider (django-oauth-toolkit): discovery, PKCE,
authorize, login and consent, the redirect to a loopback listener on any free port, code exchange, ID token
validation, userinfo, refresh. Prints the verified ID token claims and the userinfo.

    python bindings/python/examples/login.py             the user's part played headlessly
    python bindings/python/examples/login.py --browser   your browser (or the URL printed where none opens)

Headless, Tests/support/provider/browser.py signs in and follows the redirect to the listener, as a browser
does."""
import json
import subprocess
import sys
import webbrowser
from pathlib import Path

import telenorid

PROVIDER = Path(__file__).resolve().parents[3] / "Tests" / "support" / "provider"
sys.path.insert(0, str(PROVIDER))
from oidc_provider import start_provider  # noqa: E402

with start_provider() as provider, telenorid.LoopbackListener(port=0, path="/callback") as listener:
    user = provider["user"]
    print(f"provider: django-oauth-toolkit at {provider['issuer']}")
    # Any free port: the provider has registered http://127.0.0.1:53682/callback and, as RFC 8252 §7.3 asks,
    # accepts that loopback redirect on any port.
    config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                            redirect_uri=listener.redirect_uri, scope="openid profile email")
    with telenorid.Client(config) as client:
        client.discover()
        request = telenorid.AuthorizationRequest(client.config())
        request.add_claim("id_token", "email", essential=True, purpose="To show who signed in")
        pending = request.build()
        listener.expect_state(pending.state)
        print(f"authorization URL: {pending.url}", flush=True)
        if "--browser" not in sys.argv[1:]:
            subprocess.Popen([sys.executable, str(PROVIDER / "browser.py"), "--follow", user["username"],
                              user["password"], pending.url])
        elif not webbrowser.open(pending.url):
            print(f"no browser could be opened: open the URL above in a browser on this machine and sign in as "
                  f"{user['username']} / {user['password']}", flush=True)
        redirect = listener.wait(timeout=300)
        print(f"redirect received at {listener.redirect_uri}: ?code=…&state=…")
        state = client.exchange_code(pending.handle_callback(redirect))
        print("verified ID token claims:")
        print(json.dumps(state.id_token_claims, indent=2, sort_keys=True))
        print("userinfo:")
        print(json.dumps(state.userinfo(), indent=2, sort_keys=True))
        old = state.get("refresh_token")
        state.refresh()
        print(f"refreshed: new access token, refresh token rotated: {state.get('refresh_token') != old}")
