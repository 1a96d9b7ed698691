"""An authorization server of the JWT bearer grant (RFC 7523 §2.1), which none of the providers installed here
implements: Authlib's own server-side grant (`authlib.oauth2.rfc7523.JWTBearerGrant`, which checks the
assertion's signature with the issuing client's registered key and its iss, aud and exp, §3) behind a token
endpoint, with Authlib's introspection endpoint (RFC 7662) beside it, so a test can see what a token was issued
for. Only the glue Authlib asks of its host is here, in memory: the clients, their keys, the users an
assertion's `sub` may name, and the issued tokens.

Run as a script it serves on 127.0.0.1 and prints one JSON line (issuer, endpoints, the clients with their
private keys as PEM), as Tests/support/provider/oidc_provider.py does; `start_jwt_bearer_provider()` runs it so
for a `with` block."""
from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, Optional
from urllib.parse import parse_qsl

from authlib.oauth2.rfc6749 import AuthorizationServer, ClientMixin, OAuth2Request
from authlib.oauth2.rfc6749.requests import BasicOAuth2Payload
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7523 import JWTBearerGrant
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from joserfc.jwk import ECKey

# The client that asks with its own assertions (RFC 7523 §3: iss is its id) and authenticates with its secret.
CLIENT_ID, CLIENT_SECRET = "machine-jwt", "machine-jwt-secret"
# The users an assertion's sub may name (Authlib's authenticate_user).
USERS = ("alice", "service-account-7")
SCOPES = ("read", "write")
TOKEN_SECONDS = 300


class Client(ClientMixin):
    def __init__(self, client_id: str, secret: str, key: ec.EllipticCurvePrivateKey) -> None:
        self.client_id, self.secret, self.key = client_id, secret, key

    def get_client_id(self) -> str:
        return self.client_id

    def get_allowed_scope(self, scope: str) -> str:
        return " ".join(each for each in (scope or "").split() if each in SCOPES)

    def check_client_secret(self, client_secret: str) -> bool:
        return secrets.compare_digest(client_secret, self.secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method in ("client_secret_basic", "client_secret_post")

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == JWTBearerGrant.GRANT_TYPE


class Token:
    """An issued access token, as Authlib's introspection endpoint reads one (TokenMixin's questions)."""

    def __init__(self, client_id: str, subject: Optional[str], scope: Optional[str], expires_at: int) -> None:
        self.client_id, self.subject, self.scope, self.expires_at = client_id, subject, scope, expires_at

    def is_expired(self) -> bool:
        return self.expires_at <= time.time()

    def is_revoked(self) -> bool:
        return False


class Request(OAuth2Request):
    """An http.server request as Authlib reads one: its form is the URL-encoded body."""

    def __init__(self, method: str, uri: str, headers: Dict[str, str], body: bytes) -> None:
        super().__init__(method, uri, headers=headers)
        self._form = dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        self.payload = BasicOAuth2Payload(self._form)

    @property
    def form(self) -> Dict[str, str]:
        return self._form

    @property
    def args(self) -> Dict[str, str]:
        return {}


class Provider:
    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.token_endpoint = self.issuer + "/token"
        key = ec.generate_private_key(ec.SECP256R1())
        self.client = Client(CLIENT_ID, CLIENT_SECRET, key)
        self.tokens: Dict[str, Token] = {}
        self.lock = threading.Lock()
        self.authorization = self._authorization_server()

    def _authorization_server(self) -> AuthorizationServer:
        provider = self

        class Server(AuthorizationServer):
            def query_client(self, client_id: str) -> Optional[Client]:
                return provider.client if client_id == provider.client.client_id else None

            def save_token(self, token: Dict[str, Any], request: OAuth2Request) -> None:
                with provider.lock:
                    provider.tokens[token["access_token"]] = Token(
                        request.client.client_id, request.user, token.get("scope"),
                        int(time.time()) + token["expires_in"])

            def create_oauth2_request(self, request: Request) -> Request:
                return request

            def handle_response(self, status: int, body: Any, headers: Any) -> Any:
                return status, body, headers

            def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
                pass

        class Grant(JWTBearerGrant):
            def resolve_issuer_client(self, issuer: str) -> Optional[Client]:
                return provider.client if issuer == provider.client.client_id else None

            def resolve_client_public_key(self, client: Client) -> ECKey:
                return ECKey.import_key(client.key.public_key())

            def authenticate_user(self, subject: str) -> Optional[str]:
                return subject if subject in USERS else None

            def has_granted_permission(self, client: Client, user: str) -> bool:
                return True

            def get_audiences(self) -> list:
                # RFC 7523 §3: the server's identity: its issuer or its token endpoint.
                return [provider.issuer, provider.token_endpoint]

        class Introspection(IntrospectionEndpoint):
            CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

            def query_token(self, token: str, token_type_hint: Optional[str]) -> Optional[Token]:
                with provider.lock:
                    return provider.tokens.get(token)

            def introspect_token(self, token: Token) -> Dict[str, Any]:
                answer = {"active": True, "client_id": token.client_id, "sub": token.subject or token.client_id,
                          "exp": token.expires_at, "token_type": "Bearer", "iss": provider.issuer}
                if token.scope:
                    answer["scope"] = token.scope
                return answer

            def check_permission(self, token: Token, client: Client, request: Request) -> bool:
                return True

        server = Server(scopes_supported=list(SCOPES))
        server.register_grant(Grant)
        server.register_endpoint(Introspection)
        server.register_token_generator("default", BearerTokenGenerator(
            access_token_generator=lambda *args, **kwargs: secrets.token_urlsafe(32),
            expires_generator=lambda *args, **kwargs: TOKEN_SECONDS))
        return server

    def _handler(self) -> type:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path != "/.well-known/oauth-authorization-server":
                    return self._send(404, {"error": "not_found"}, [])
                self._send(200, provider.metadata(), [])

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                request = Request("POST", provider.issuer + self.path, dict(self.headers.items()), body)
                server = provider.authorization
                if self.path == "/token":
                    status, answer, headers = server.create_token_response(request)
                elif self.path == "/introspect":
                    status, answer, headers = server.create_endpoint_response("introspection", request)
                else:
                    status, answer, headers = 404, {"error": "not_found"}, []
                self._send(status, answer, headers)

            def _send(self, status: int, answer: Any, headers: Any) -> None:
                data = (answer if isinstance(answer, str) else json.dumps(answer)).encode()
                self.send_response(status)
                sent = {name.lower() for name, _ in headers}
                for name, value in headers:
                    self.send_header(name, value)
                if "content-type" not in sent:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def metadata(self) -> Dict[str, Any]:
        """RFC 8414 §2, what this server does."""
        return {"issuer": self.issuer, "token_endpoint": self.token_endpoint,
                "introspection_endpoint": self.issuer + "/introspect",
                "grant_types_supported": [JWTBearerGrant.GRANT_TYPE], "scopes_supported": list(SCOPES),
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]}

    def info(self) -> Dict[str, Any]:
        pem = self.client.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()).decode()
        return {"issuer": self.issuer, "token_endpoint": self.token_endpoint,
                "introspection_endpoint": self.issuer + "/introspect", "users": list(USERS),
                "client": {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "private_key_pem": pem}}


def serve() -> None:
    provider = Provider()
    print(json.dumps(provider.info()), flush=True)
    provider.server.serve_forever()


@contextlib.contextmanager
def start_jwt_bearer_provider() -> Iterator[Dict[str, Any]]:
    """Runs the server in a subprocess for the duration of a `with` block; yields its JSON info."""
    process = subprocess.Popen([sys.executable, __file__], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        if not line:
            raise RuntimeError("the JWT bearer provider did not start")
        yield json.loads(line)
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    serve()
