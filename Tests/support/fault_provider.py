"""A programmable stand-in provider for what a real one won't do on request: hang, reset, answer 429/5xx,
cut bodies short, send oversized or malformed JSON, and issue ID tokens that are wrong in one way each.
It also has a pushed authorization request endpoint (RFC 9126) and checks every DPoP proof it receives
as RFC 9449 §4.3 asks of a server, keeping what it saw in `provider.seen` for the tests to inspect.
Runs in the test process on 127.0.0.1; a test sets `provider.token_behaviour` and friends."""
from __future__ import annotations

import base64
import hashlib
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
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


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


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_key(jwk: dict):
    """The public key a proof's `jwk` header names (RFC 7518 §6, RFC 8037 §2): EC P-256, Ed25519 or RSA."""
    def number(name: str) -> int:
        return int.from_bytes(unb64(jwk[name]), "big")
    if jwk.get("kty") == "EC" and jwk.get("crv") == "P-256":
        return ec.EllipticCurvePublicNumbers(number("x"), number("y"), ec.SECP256R1()).public_key()
    if jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519":
        return ed25519.Ed25519PublicKey.from_public_bytes(unb64(jwk["x"]))
    if jwk.get("kty") == "RSA":
        return rsa.RSAPublicNumbers(number("e"), number("n")).public_key()
    raise ValueError(f"a jwk of an unknown kind: {jwk}")


def verify_proof(proof: str) -> tuple[dict, dict]:
    """A DPoP proof's header and claims once its signature verifies with the key in its own header
    (RFC 9449 §4.3 steps 4-7); raises ValueError, or cryptography's InvalidSignature, otherwise."""
    header_part, claims_part, signature_part = proof.split(".")
    header, claims = json.loads(unb64(header_part)), json.loads(unb64(claims_part))
    if header.get("typ") != "dpop+jwt" or not isinstance(header.get("jwk"), dict):
        raise ValueError(f"not a DPoP proof header: {header}")
    key, data, signature = _public_key(header["jwk"]), f"{header_part}.{claims_part}".encode(), unb64(signature_part)
    alg = header.get("alg")
    if alg == "ES256" and isinstance(key, ec.EllipticCurvePublicKey) and len(signature) == 64:
        # JWS carries ECDSA as raw r||s (RFC 7518 §3.4); cryptography wants DER.
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        key.verify(der, data, ec.ECDSA(hashes.SHA256()))
    elif alg == "EdDSA" and isinstance(key, ed25519.Ed25519PublicKey):
        key.verify(signature, data)
    elif alg == "PS256" and isinstance(key, rsa.RSAPublicKey):
        key.verify(signature, data, padding.PSS(padding.MGF1(hashes.SHA256()), hashes.SHA256().digest_size), hashes.SHA256())
    else:
        raise ValueError(f"alg {alg} does not fit the jwk {header['jwk']}")
    return header, claims


def jwk_thumbprint(jwk: dict) -> str:
    """RFC 7638 §3: SHA-256 over the required members, sorted, without whitespace."""
    required = {"EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x"), "RSA": ("e", "kty", "n")}[jwk["kty"]]
    canonical = json.dumps({name: jwk[name] for name in required}, separators=(",", ":"), sort_keys=True)
    return b64(hashlib.sha256(canonical.encode()).digest())


class Seen:
    """One request as the provider received it: method, path with query, the form (a POST's body, a GET's
    query), the Authorization and DPoP headers, and the proof verified (`proof`, as (header, claims)) or
    why it is not (`proof_error`)."""

    def __init__(self, method: str, path: str, form: dict, authorization: Optional[str], dpop: Optional[str]) -> None:
        self.method, self.path, self.form, self.authorization, self.dpop = method, path, form, authorization, dpop
        self.proof: Optional[tuple[dict, dict]] = None
        self.proof_error: Optional[str] = None
        if dpop is not None:
            try:
                self.proof = verify_proof(dpop)
            except Exception as error:  # any way a proof can be wrong is a finding for the test to report
                self.proof_error = f"{type(error).__name__}: {error}"

    @property
    def claims(self) -> dict:
        assert self.proof is not None, f"{self.method} {self.path}: no valid proof ({self.proof_error or 'no DPoP header'})"
        return self.proof[1]

    @property
    def header(self) -> dict:
        assert self.proof is not None, f"{self.method} {self.path}: no valid proof ({self.proof_error or 'no DPoP header'})"
        return self.proof[0]


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
        # POST /par's form (RFC 9126 §2.1).
        self.par_behaviour: Callable[[dict], Response] = lambda form: Response(404)
        # POST /device's form (RFC 8628 §3.1).
        self.device_behaviour: Callable[[dict], Response] = lambda form: Response(404)
        # POST /bc-authorize's form (CIBA Core §7.1).
        self.backchannel_behaviour: Callable[[dict], Response] = lambda form: Response(404)
        # GET /jwks: None serves the keys of `keys`; a behaviour answers instead (a failing key set).
        self.jwks_behaviour: Optional[Callable[[], Response]] = None
        self.last_authorization: Optional[str] = None
        self.requests: list[tuple[str, str]] = []
        self.seen: list[Seen] = []
        self.promises_iss = False  # RFC 9207 authorization_response_iss_parameter_supported
        # Members of the discovery document to add or replace; None leaves one out (a provider without a
        # revocation endpoint: {"revocation_endpoint": None}).
        self.metadata_changes: dict = {}
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def record(self, form: dict) -> None:
                provider.requests.append((self.command, self.path))
                provider.last_authorization = self.headers.get("Authorization")
                provider.seen.append(Seen(self.command, self.path, form, self.headers.get("Authorization"),
                                          self.headers.get("DPoP")))

            def do_GET(self):
                path, _, query = self.path.partition("?")
                self.record(parse_form(query))
                if path == "/authorize":
                    self.answer(provider.authorize_behaviour(parse_form(query)))
                elif self.path == "/.well-known/openid-configuration":
                    self.answer(Response(body=provider.metadata))
                elif self.path == "/jwks":
                    if provider.jwks_behaviour is not None:
                        self.answer(provider.jwks_behaviour())
                    else:
                        self.answer(Response(body={"keys": [key.jwk for key in provider.keys]}))
                elif self.path == "/userinfo":
                    self.answer(provider.userinfo_behaviour())
                else:
                    self.answer(Response(404, "not here", "text/plain"))

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                form = parse_form(self.rfile.read(length).decode())
                self.record(form)
                if self.path == "/token":
                    self.answer(provider.token_behaviour(form))
                elif self.path == "/par":
                    self.answer(provider.par_behaviour(form))
                elif self.path == "/device":
                    self.answer(provider.device_behaviour(form))
                elif self.path == "/bc-authorize":
                    self.answer(provider.backchannel_behaviour(form))
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
        document = {"issuer": self.issuer, "authorization_endpoint": self.issuer + "/authorize",
                    "token_endpoint": self.issuer + "/token", "userinfo_endpoint": self.issuer + "/userinfo",
                    "jwks_uri": self.issuer + "/jwks", "revocation_endpoint": self.issuer + "/revoke",
                    "pushed_authorization_request_endpoint": self.issuer + "/par",
                    "device_authorization_endpoint": self.issuer + "/device",
                    "backchannel_authentication_endpoint": self.issuer + "/bc-authorize",
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "authorization_response_iss_parameter_supported": self.promises_iss} | self.metadata_changes
        return {name: value for name, value in document.items() if value is not None}

    def device_body(self, **overrides) -> dict:
        """A device authorization response (RFC 8628 §3.2) with verification URIs on this provider and an
        interval of 1 s; an override of None leaves that member out."""
        body = {"device_code": "dc-1", "user_code": "WDJB-MJHT", "verification_uri": self.issuer + "/activate",
                "verification_uri_complete": self.issuer + "/activate?user_code=WDJB-MJHT", "expires_in": 60,
                "interval": 1}
        body.update(overrides)
        return {k: v for k, v in body.items() if v is not None}

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
