"""A programmable stand-in provider for what a real one won't do on request: hang, reset, answer 429/5xx,
cut bodies short, send oversized or malformed JSON, and issue ID tokens that are wrong in one way each.
Runs in the test process on 127.0.0.1; a test sets `provider.token_behaviour` and friends."""
from __future__ import annotations

import base64
import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Optional
from urllib.parse import parse_qs

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SigningKey:
    def __init__(self, kid: Optional[str]) -> None:
        self.kid = kid
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    @property
    def jwk(self) -> dict:
        numbers = self.key.public_key().public_numbers()
        jwk = {"kty": "RSA", "use": "sig", "n": b64(numbers.n.to_bytes(256, "big")), "e": b64(numbers.e.to_bytes(3, "big"))}
        if self.kid:
            jwk["kid"] = self.kid
        return jwk

    def sign(self, claims: dict, header: Optional[dict] = None) -> str:
        head = {"alg": "RS256", "typ": "JWT", **({"kid": self.kid} if self.kid else {}), **(header or {})}
        signing_input = f"{b64(json.dumps(head).encode())}.{b64(json.dumps(claims).encode())}"
        signature = self.key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{signing_input}.{b64(signature)}"


def parse_form(text: str) -> dict:
    """The first value of each parameter of a query or form body."""
    return {key: values[0] for key, values in parse_qs(text).items()}


class Response:
    """What an endpoint answers: a status and body, or one of the faults."""

    def __init__(self, status: int = 200, body: bytes | str | dict = b"", content_type: str = "application/json",
                 fault: Optional[str] = None, headers: Optional[dict] = None) -> None:
        self.status = status
        self.body = json.dumps(body).encode() if isinstance(body, dict) else body.encode() if isinstance(body, str) else body
        self.content_type = content_type
        self.fault = fault  # "hang", "reset", "truncate"
        self.headers = headers or {}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # Expected, so not printed: the client hanging up on a slow or faulty answer (broken pipe, reset),
        # and the "reset" fault, which closes the handler's files itself, so that http.server's final
        # wfile.flush() raises ValueError. Anything else is a real error in this server: traceback as usual.
        error = sys.exc_info()[1]
        if isinstance(error, (BrokenPipeError, ConnectionResetError)):
            return
        if isinstance(error, ValueError) and str(error) == "I/O operation on closed file.":
            return
        super().handle_error(request, client_address)


class FaultProvider:
    def __init__(self) -> None:
        self.keys = [SigningKey("key-1")]
        self.token_behaviour: Callable[[dict], Response] = lambda form: Response(404)
        self.userinfo_behaviour: Callable[[], Response] = lambda: Response(404)
        # GET /authorize's query and POST /revoke's form; the Authorization header of the last request is
        # kept for checks of client_secret_basic (RFC 6749 §2.3.1) and bearer use (RFC 6750 §2.1).
        self.authorize_behaviour: Callable[[dict], Response] = lambda query: Response(404)
        self.revocation_behaviour: Callable[[dict], Response] = lambda form: Response(404)
        self.last_authorization: Optional[str] = None
        self.requests: list[tuple[str, str]] = []
        self.promises_iss = False  # RFC 9207 authorization_response_iss_parameter_supported
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                provider.requests.append(("GET", self.path))
                provider.last_authorization = self.headers.get("Authorization")
                path, _, query = self.path.partition("?")
                if path == "/authorize":
                    self.answer(provider.authorize_behaviour(parse_form(query)))
                elif self.path == "/.well-known/openid-configuration":
                    self.answer(Response(body=provider.metadata))
                elif self.path == "/jwks":
                    self.answer(Response(body={"keys": [key.jwk for key in provider.keys]}))
                elif self.path == "/userinfo":
                    self.answer(provider.userinfo_behaviour())
                else:
                    self.answer(Response(404, "not here", "text/plain"))

            def do_POST(self):
                provider.requests.append(("POST", self.path))
                provider.last_authorization = self.headers.get("Authorization")
                length = int(self.headers.get("Content-Length", "0"))
                form = parse_form(self.rfile.read(length).decode())
                if self.path == "/token":
                    self.answer(provider.token_behaviour(form))
                elif self.path == "/revoke":
                    self.answer(provider.revocation_behaviour(form))
                else:
                    self.answer(Response(404))

            def answer(self, response: Response) -> None:
                if response.fault == "hang":
                    time.sleep(5)
                    return
                if response.fault == "reset":
                    # Linger 0 turns the close into a TCP reset; every file object on the socket must go.
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.rfile.close()
                    self.wfile.close()
                    self.connection.close()
                    return
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                declared = len(response.body) * (10 if response.fault == "truncate" else 1)
                self.send_header("Content-Length", str(declared))
                self.end_headers()
                self.wfile.write(response.body)
                if response.fault == "truncate":
                    self.wfile.flush()
                    self.close_connection = True

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def metadata(self) -> dict:
        return {"issuer": self.issuer, "authorization_endpoint": self.issuer + "/authorize",
                "token_endpoint": self.issuer + "/token", "userinfo_endpoint": self.issuer + "/userinfo",
                "jwks_uri": self.issuer + "/jwks", "revocation_endpoint": self.issuer + "/revoke",
                "id_token_signing_alg_values_supported": ["RS256"],
                "authorization_response_iss_parameter_supported": self.promises_iss}

    def token_body(self, client_id: str, nonce: Optional[str], **overrides) -> dict:
        """A token response for `client_id` (at-1, rt-1, an ID token with `nonce`); an override of None
        leaves that member out."""
        body = {"access_token": "at-1", "token_type": "Bearer", "expires_in": 300, "refresh_token": "rt-1",
                "id_token": self.id_token(client_id, nonce)}
        body.update(overrides)
        return {k: v for k, v in body.items() if v is not None}

    def id_token(self, client_id: str, nonce: Optional[str], key: Optional[SigningKey] = None, header=None, **claims) -> str:
        now = int(time.time())
        body = {"iss": self.issuer, "sub": "alice", "aud": client_id, "iat": now, "exp": now + 300}
        if nonce is not None:
            body["nonce"] = nonce
        body.update(claims)
        return (key or self.keys[0]).sign({k: v for k, v in body.items() if v is not None}, header)

    def __enter__(self) -> "FaultProvider":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
