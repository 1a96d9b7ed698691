"""A PKCE pair and a full authorization URL from Python, through libtelenorid."""
import telenorid

config = telenorid.Config.from_settings(
    issuer="https://signin.telenorid-staging.example",
    client_id="tnn-example-android",
    redirect_uri="telenorid-example-android://authcallback/",
    scope="openid profile offline_access",
    authorization_endpoint="https://signin.telenorid-staging.example/connect/authorize",
)
with telenorid.Pkce() as pkce:
    print(f"PKCE verifier:  {pkce.verifier}\nPKCE challenge: {pkce.challenge} (S256)")
with telenorid.AuthorizationRequest(config) as request:
    request.set("prompt", "login").set("ui_locales", "nb en")
    request.add_claim("id_token", "phone_number", essential=True, purpose="To sign you in with your mobile number")
    with request.build() as pending:
        print(f"Authorization URL:\n{pending.url}")
print(f"(libtelenorid {telenorid.library_version()})")
