"""A real OpenID provider for the tests: django-oauth-toolkit, configured in code, on 127.0.0.1.

As a program it prints one JSON line (issuer, clients, user) when it is ready and serves until killed
(or for 30 minutes at most). As a module, `start_provider()` runs it in a subprocess and hands the
same information back."""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

USER = {"username": "alice", "password": "wonderland-42"}
# A second user, for tests of several accounts.
SECOND_USER = {"username": "bob", "password": "looking-glass-7"}
PUBLIC_CLIENT = "native-app"
CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET = "backend-app", "backend-secret"
# RFC 8628 clients: django-oauth-toolkit gives each application exactly one grant type.
DEVICE_PUBLIC_CLIENT = "tv-app"
DEVICE_CONFIDENTIAL_CLIENT, DEVICE_CONFIDENTIAL_SECRET = "tv-backend", "tv-backend-secret"
# RFC 6749 §4.4: a confidential client of the client credentials grant (its own application, as above).
MACHINE_CLIENT, MACHINE_SECRET = "machine-app", "machine-secret"
DEVICE_INTERVAL = 1  # seconds between polls the provider asks for (RFC 8628 §3.2); short to keep tests quick
REDIRECT_URIS = "http://127.0.0.1:53682/callback com.example.app:/oauth2redirect merchantapp://redirect-uri"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _configure(workdir: Path, port: int, access_token_seconds: int) -> None:
    import django
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from django.conf import settings

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    templates = workdir / "templates" / "registration"
    templates.mkdir(parents=True)
    (templates / "login.html").write_text(
        '<form method="post">{% csrf_token %}{{ form.as_p }}'
        '<input type="hidden" name="next" value="{{ next }}"><button type="submit">Sign in</button></form>')
    settings.configure(
        DEBUG=False, SECRET_KEY="test-only-" + os.urandom(16).hex(), ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF="oidc_provider_urls", USE_TZ=True, LOGIN_URL="/accounts/login/",
        INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                        "django.contrib.messages", "oauth2_provider"],
        MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                    "django.middleware.csrf.CsrfViewMiddleware",
                    "django.contrib.auth.middleware.AuthenticationMiddleware",
                    "django.contrib.messages.middleware.MessageMiddleware"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(workdir / "db.sqlite3")}},
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [str(workdir / "templates")],
                    "APP_DIRS": True, "OPTIONS": {"context_processors": [
                        "django.template.context_processors.request", "django.contrib.auth.context_processors.auth",
                        "django.contrib.messages.context_processors.messages"]}}],
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],  # fast test logins
        OAUTH2_PROVIDER={
            "OIDC_ENABLED": True, "OIDC_RSA_PRIVATE_KEY": key, "PKCE_REQUIRED": True,
            "OIDC_ISS_ENDPOINT": f"http://127.0.0.1:{port}/o",
            "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
            "ROTATE_REFRESH_TOKEN": True, "ACCESS_TOKEN_EXPIRE_SECONDS": access_token_seconds,
            "SCOPES": {"openid": "OpenID Connect", "profile": "Your name", "email": "Your e-mail"},
            "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.app", "merchantapp"],
            "OAUTH2_VALIDATOR_CLASS": "oidc_provider_urls.Validator",
            "OAUTH_DEVICE_VERIFICATION_URI": f"http://127.0.0.1:{port}/o/device/",
            "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"http://127.0.0.1:{port}/o/device/?user_code={{user_code}}",
            "DEVICE_FLOW_INTERVAL": DEVICE_INTERVAL,
        },
    )
    django.setup()


def serve(access_token_seconds: int = 300) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="telenorid-provider-"))
    port = _free_port()
    (workdir / "oidc_provider_urls.py").write_text(
        "from django.contrib.auth.views import LoginView\n"
        "from django.urls import include, path\n"
        "import oauth2_provider.views.device as device_views\n"
        "from oauth2_provider.models import DeviceCodeResponse, get_device_grant_model\n"
        "from oauth2_provider.oauth2_validators import OAuth2Validator\n"
        "# oauthlib 4 adds the resolved `scope` to the device authorization response; django-oauth-toolkit\n"
        "# 3.4.1 builds DeviceCodeResponse(**response), which has no such field, so the endpoint answered 500.\n"
        "device_views.DeviceCodeResponse = lambda scope=None, **response: DeviceCodeResponse(**response)\n"
        "class Validator(OAuth2Validator):\n"
        "    def get_additional_claims(self, request):\n"
        "        user = request.user\n"
        "        return {'given_name': user.first_name, 'family_name': user.last_name, 'email': user.email,\n"
        "                'preferred_username': user.username}\n"
        "    # oauthlib 4's device grant asks the validator for the device code's status (RFC 8628 §3.5);\n"
        "    # django-oauth-toolkit 3.4.1 does not implement it (its token view answers the other states\n"
        "    # itself and reaches oauthlib only for an approved code).\n"
        "    def validate_device_code(self, client_id, code, request, *args, **kwargs):\n"
        "        grant = get_device_grant_model().objects.filter(client_id=client_id, device_code=code).first()\n"
        "        if grant is None:\n"
        "            return None\n"
        "        if grant.status == grant.AUTHORIZED:\n"
        "            request.user = grant.user\n"
        "            request.scopes = grant.scope.split()\n"
        "            return 'authorized'\n"
        "        return {grant.DENIED: 'access_denied', grant.EXPIRED: 'expired_token'}.get(\n"
        "            grant.status, 'authorization_pending')\n"
        "urlpatterns = [path('o/', include('oauth2_provider.urls', namespace='oauth2_provider')),\n"
        "               path('accounts/login/', LoginView.as_view())]\n")
    sys.path.insert(0, str(workdir))
    _configure(workdir, port, access_token_seconds)

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(USER["username"], "alice@example.com", USER["password"],
                                                first_name="Alice", last_name="Liddell")
    get_user_model().objects.create_user(SECOND_USER["username"], "bob@example.com", SECOND_USER["password"])
    common = dict(authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris=REDIRECT_URIS,
                  post_logout_redirect_uris="http://127.0.0.1:53682/logged-out",
                  algorithm=Application.RS256_ALGORITHM, skip_authorization=False, user=user)
    Application.objects.create(name="native", client_id=PUBLIC_CLIENT, client_type=Application.CLIENT_PUBLIC, **common)
    Application.objects.create(name="backend", client_id=CONFIDENTIAL_CLIENT, client_secret=CONFIDENTIAL_SECRET,
                               client_type=Application.CLIENT_CONFIDENTIAL, **common)
    device = dict(authorization_grant_type=Application.GRANT_DEVICE_CODE, algorithm=Application.RS256_ALGORITHM,
                  user=user)
    Application.objects.create(name="tv", client_id=DEVICE_PUBLIC_CLIENT, client_type=Application.CLIENT_PUBLIC,
                               **device)
    Application.objects.create(name="tv-backend", client_id=DEVICE_CONFIDENTIAL_CLIENT,
                               client_secret=DEVICE_CONFIDENTIAL_SECRET, client_type=Application.CLIENT_CONFIDENTIAL,
                               **device)
    Application.objects.create(name="machine", client_id=MACHINE_CLIENT, client_secret=MACHINE_SECRET,
                               client_type=Application.CLIENT_CONFIDENTIAL, algorithm=Application.RS256_ALGORITHM,
                               authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS)

    from socketserver import ThreadingMixIn
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", port, get_wsgi_application(), server_class=Server, handler_class=QuietHandler)
    threading.Timer(1800, server.shutdown).start()  # a safety net: never outlive a test run by long
    print(json.dumps({"issuer": f"http://127.0.0.1:{port}/o", "port": port,
                      # Not in the discovery document (django-oauth-toolkit does not publish it).
                      "device_authorization_endpoint": f"http://127.0.0.1:{port}/o/device-authorization/",
                      "clients": {"public": {"client_id": PUBLIC_CLIENT},
                                  "confidential": {"client_id": CONFIDENTIAL_CLIENT, "client_secret": CONFIDENTIAL_SECRET},
                                  "device_public": {"client_id": DEVICE_PUBLIC_CLIENT},
                                  "device_confidential": {"client_id": DEVICE_CONFIDENTIAL_CLIENT,
                                                          "client_secret": DEVICE_CONFIDENTIAL_SECRET},
                                  "machine": {"client_id": MACHINE_CLIENT, "client_secret": MACHINE_SECRET}},
                      "user": USER, "second_user": SECOND_USER}), flush=True)
    server.serve_forever()


@contextlib.contextmanager
def start_provider(access_token_seconds: int = 300):
    """Runs the provider in a subprocess for the duration of a `with` block; yields its JSON info."""
    process = subprocess.Popen([sys.executable, __file__, str(access_token_seconds)], stdout=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + 60
        line = process.stdout.readline() if process.stdout else ""
        if not line or time.monotonic() > deadline:
            raise RuntimeError("the OpenID provider did not start")
        yield json.loads(line)
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
