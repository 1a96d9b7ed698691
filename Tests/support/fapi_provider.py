"""A FAPI 2.0 provider for the tests: idpyoidc's OpenID provider (`idpyoidc.server`, PyPI, by Roland Hedberg,
an implementation someone else wrote), configured in code and served on 127.0.0.1 over plain HTTP.

`start_fapi_provider()` runs it in a thread of the test process for a `with` block and yields a `FapiProvider`:
the issuer, one registered client that authenticates with `private_key_jwt` (RFC 7523 §2.2) under an EC P-256
key, the user, `login(authorization_url)` that plays the user's password login headlessly and returns the
callback URL, and `seen`: what the provider received at each endpoint, decoded, for the tests to assert on.

What idpyoidc 5.0.0 is configured to enforce:
- pushed authorization requests (RFC 9126) at /par with `private_key_jwt`; the authorization endpoint takes
  only a pushed request (the harness refuses one without a `request_uri`), and idpyoidc resolves each
  `request_uri` once; the push answers `expires_in` 60 (FAPI 2.0 §5.3.2.2 asks for less than 600 s), which
  idpyoidc announces but does not itself time out;
- client assertions whose `aud` is the issuer and nothing else (FAPI 2.0 §5.3.2.1), at /par and /token,
  signed with the client's registered key, each `jti` used once;
- PKCE with S256 only (RFC 7636), required;
- `iss` in every authorization response (RFC 9207), as idpyoidc always adds it;
- DPoP (RFC 9449) at /token and /userinfo: a proof whose signature verifies under its own `jwk`, with `htm`
  and `htu` of the request; access tokens carry `cnf.jkt` and are of type DPoP; at /userinfo the proof's
  `ath` must be the token's hash.
idpyoidc 5.0.0 compares `ath` with the hex SHA-256 of the token, where RFC 9449 §4.2 asks for base64url;
the harness puts the RFC's comparison in place of that one check. idpyoidc does not check a proof's `typ`,
`alg` against dpop_signing_alg_values_supported, `iat` or `jti`, does not read a proof at /par, and does not
compare the proof's key with the token's `cnf.jkt` at /userinfo: `seen` carries each proof, decoded, with
its key's thumbprint, so the tests check those. idpyoidc 5.0.0 also wants response_type, scope and
redirect_uri in the front-channel query beside `request_uri`; the harness copies them from the pushed request
(RFC 9126 §4 sends client_id and request_uri only).

`start_fapi_provider(token_exchange=True)` also lets the client exchange tokens (RFC 8693) at /token, through
idpyoidc's own TokenExchangeHelper and its default policy (validate_token_exchange_policy): access tokens may
then mint access and refresh tokens (idpyoidc's usage rules), `resource` must be one of TOKEN_EXCHANGE_RESOURCES
and `audience` one of TOKEN_EXCHANGE_AUDIENCES (else invalid_target), an actor token is refused
(invalid_request: idpyoidc supports none), and the scope is narrowed to the subject token's. Without it the
usage rules let an access token mint nothing, as before.

Run as a program it serves until killed and prints one JSON line (the issuer, the client and its key, the
user), with --token-exchange as start_fapi_provider(token_exchange=True); `fapi_provider.py login ISSUER URL`
plays the user's login at a running one and prints the callback URL (for the C tests)."""
from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import shutil
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import requests

USER = {"username": "alice", "password": "wonderland-42", "name": "Alice Liddell", "email": "alice@example.com"}
CLIENT_ID = "fapi-app"
SCOPES = ["openid", "profile", "email", "offline_access"]  # offline_access: idpyoidc issues a refresh token only then
DPOP_ALGORITHMS = ["ES256", "PS256", "EdDSA"]  # FAPI 2.0 §5.4.1: PS256, ES256 or EdDSA (Ed25519)
PAR_LIFETIME = 60
REDIRECT_URI = "http://127.0.0.1:53682/callback"
TOKEN_EXCHANGE_RESOURCES = ["https://api.example.com/"]
TOKEN_EXCHANGE_AUDIENCES = ["https://backend.example.com/"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_parts(token: str) -> tuple[dict, dict]:
    """The header and the payload of a compact JWS, unverified: for the record, after idpyoidc verified it."""
    header, payload = (json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))) for part in token.split(".")[:2])
    return header, payload


def jwk_thumbprint(jwk: dict) -> str:
    """RFC 7638 §3: SHA-256 of the required members, in lexicographic order, without whitespace."""
    required = {"EC": ("crv", "kty", "x", "y"), "RSA": ("e", "kty", "n"), "OKP": ("crv", "kty", "x")}[jwk["kty"]]
    canonical = json.dumps({name: jwk[name] for name in required}, separators=(",", ":"), sort_keys=True)
    return _b64url(hashlib.sha256(canonical.encode()).digest())


def _client_key() -> tuple[str, dict, dict]:
    """The client's P-256 key: PKCS#8 PEM, private JWK and public JWK, both with the RFC 7638 thumbprint as kid."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    numbers = key.private_numbers()
    public = {"kty": "EC", "crv": "P-256", "x": _b64url(numbers.public_numbers.x.to_bytes(32, "big")),
              "y": _b64url(numbers.public_numbers.y.to_bytes(32, "big"))}
    public["kid"] = jwk_thumbprint(public)
    private = dict(public, d=_b64url(numbers.private_value.to_bytes(32, "big")))
    return pem, private, public


@dataclass
class FapiProvider:
    issuer: str
    client_id: str
    redirect_uri: str
    client_private_key_pem: str
    client_private_jwk: dict
    user: dict
    login: Callable[[str], str]
    # One entry per request: endpoint, method, url, status, the form, and decoded: "assertion" (header,
    # payload of client_assertion), "dpop" (header, payload of the proof, "jkt": its key's thumbprint),
    # "response" (the JSON answer, tokens decoded under "access_token_claims").
    seen: list[dict] = field(default_factory=list)
    # The requests pushed to /par, as idpyoidc stored them, by request_uri.
    pushed: dict[str, dict] = field(default_factory=dict)
    # idpyoidc's Server itself, for tests that drive the provider's own side (its back-channel logout).
    server: Any = None

    def at(self, endpoint: str) -> list[dict]:
        return [entry for entry in self.seen if entry["endpoint"] == endpoint]


def _configuration(workdir: Path, issuer: str, token_exchange: bool) -> dict:
    from idpyoidc.server.oauth2.add_on.pkce import CC_METHOD
    from idpyoidc.server.user_authn.authn_context import INTERNETPROTOCOLPASSWORD

    (workdir / "passwd.json").write_text(json.dumps({USER["username"]: USER["password"]}))
    (workdir / "users.json").write_text(json.dumps({USER["username"]: {
        "sub": USER["username"], "name": USER["name"], "email": USER["email"], "email_verified": True}}))
    (workdir / "templates").mkdir()
    (workdir / "templates" / "user_pass.jinja2").write_text(
        '<form action="{{ action }}" method="post"><input type="hidden" name="token" value="{{ token }}">'
        '<input name="username"><input name="password" type="password"><input type="submit"></form>')
    assertion = {"client_authn_method": ["private_key_jwt"]}
    return {
        "issuer": issuer,
        "httpc_params": {"verify": False},
        "keys": {"key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}],
                 "uri_path": "jwks", "private_path": str(workdir / "jwks.json"), "read_only": False},
        "token_handler_args": {
            "jwks_def": {"private_path": str(workdir / "token_jwks.json"), "read_only": False, "key_defs": [
                {"type": "OCT", "bytes": 24, "use": ["enc"], "kid": "code"},
                {"type": "OCT", "bytes": 24, "use": ["enc"], "kid": "refresh"}]},
            "code": {"kwargs": {"lifetime": 60}},  # FAPI 2.0 §5.3.2.1: at most 60 s
            "token": {"class": "idpyoidc.server.token.jwt_token.JWTToken",
                      "kwargs": {"lifetime": 600, "aud": [issuer + "/userinfo"]}},
            "refresh": {"class": "idpyoidc.server.token.jwt_token.JWTToken", "kwargs": {"lifetime": 3600}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "endpoint": {
            "provider_config": {"path": ".well-known/openid-configuration",
                                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration", "kwargs": {}},
            "pushed_authorization": {"path": "par",
                                     "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                                     "kwargs": dict(assertion, ttl=PAR_LIFETIME)},
            "authorization": {"path": "authorization", "class": "idpyoidc.server.oidc.authorization.Authorization",
                              "kwargs": {"response_types_supported": ["code"], "response_modes_supported": ["query"],
                                         "request_uri_parameter_supported": True}},
            "token": {"path": "token", "class": "idpyoidc.server.oidc.token.Token", "kwargs": assertion},
            "userinfo": {"path": "userinfo", "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                         "kwargs": {"client_authn_method": ["dpop"]}},
        },
        "add_on": {
            "pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                     "kwargs": {"essential": True, "code_challenge_methods": {"S256": CC_METHOD["S256"]}}},
            "dpop": {"function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                     "kwargs": {"dpop_signing_alg_values_supported": DPOP_ALGORITHMS,
                                "dpop_endpoints": ["token", "userinfo"]}},
        },
        "authentication": {"user": {
            "acr": INTERNETPROTOCOLPASSWORD, "class": "idpyoidc.server.user_authn.user.UserPassJinja2",
            "kwargs": {"verify_endpoint": "/verify/user", "template": "user_pass.jinja2",
                       "db": {"class": "idpyoidc.server.util.JSONDictDB",
                              "kwargs": {"filename": str(workdir / "passwd.json")}}}}},
        "authz": {"class": "idpyoidc.server.authz.AuthzHandling", "kwargs": {"grant_config": {
            "usage_rules": {
                "authorization_code": {"supports_minting": ["access_token", "refresh_token", "id_token"],
                                       "max_usage": 1},
                # RFC 8693: what an access token may be exchanged for (idpyoidc's MintingNotAllowed otherwise).
                "access_token": {"supports_minting": ["access_token", "refresh_token"]} if token_exchange else {},
                "refresh_token": {"supports_minting": ["access_token", "refresh_token", "id_token"]}},
            "expires_in": 3600}}},
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo",
                     "kwargs": {"db_file": str(workdir / "users.json")}},
        "template_dir": str(workdir / "templates"),
        "session_params": {"encrypter": {"kwargs": {"keys": {"key_defs": [
            {"type": "OCT", "use": ["enc"], "kid": "password"}, {"type": "OCT", "use": ["enc"], "kid": "salt"}]},
            "iterations": 1}}},
    }


def _userinfo_dpop_check(request, client_id, context, auth_info=None, **kwargs):
    """idpyoidc's own DPoP check at /userinfo with `ath` compared as RFC 9449 §4.2 defines it,
    base64url(SHA-256(token)), where idpyoidc 5.0.0 compares the hex digest."""
    from idpyoidc.server.oauth2.add_on.dpop import userinfo_post_parse_request

    token = (auth_info or {}).get("token")
    proof = (kwargs.get("http_info") or {}).get("headers", {}).get("dpop", "")
    if token:
        _, claims = jwt_parts(proof)
        if claims.get("ath") != _b64url(hashlib.sha256(token.encode()).digest()):
            raise ValueError("'ath' in DPoP does not match the token hash")
    # The rest of idpyoidc's check (signature, typ, jwk, htm, htu) with the token's ath out of its way.
    return userinfo_post_parse_request(request, client_id, context, auth_info={}, **kwargs)


def _build_server(workdir: Path, issuer: str, public_jwk: dict, token_exchange: bool) -> Any:
    from idpyoidc.server import Server
    from idpyoidc.server.configure import OPConfiguration
    from idpyoidc.server.oauth2.add_on.dpop import userinfo_post_parse_request

    server = Server(OPConfiguration(_configuration(workdir, issuer, token_exchange), base_path=str(workdir)),
                    cwd=str(workdir))
    context = server.context
    # FAPI 2.0 §5.3.2.1: the issuer is the assertion's one audience at every endpoint (idpyoidc's default is
    # the endpoint's own URL).
    for name in ("pushed_authorization", "token"):
        server.get_endpoint(name).allowed_targets = [""]
    # What the configuration makes true, in the metadata (RFC 8414, RFC 9126 §5, RFC 9207 §3, RFC 9449 §5.1),
    # which idpyoidc 5.0.0 leaves out: without dpop_signing_alg_values_supported it does not bind refreshed tokens.
    context.provider_info.update({
        "dpop_signing_alg_values_supported": DPOP_ALGORITHMS, "require_pushed_authorization_requests": True,
        "authorization_response_iss_parameter_supported": True, "code_challenge_methods_supported": ["S256"],
        "scopes_supported": SCOPES})
    userinfo = server.get_endpoint("userinfo")
    userinfo.post_parse_request = [_userinfo_dpop_check if step is userinfo_post_parse_request else step
                                   for step in userinfo.post_parse_request]
    context.cdb[CLIENT_ID] = {
        "client_id": CLIENT_ID, "client_salt": "fapi-salt", "token_endpoint_auth_method": "private_key_jwt",
        "token_endpoint_auth_signing_alg": "ES256", "redirect_uris": [(REDIRECT_URI, {})],
        "response_types": ["code"], "grant_types": ["authorization_code", "refresh_token"],
        "allowed_scopes": SCOPES, "id_token_signed_response_alg": "ES256",
    }
    if token_exchange:
        # The client's own token exchange configuration, which idpyoidc's TokenExchangeHelper reads before its
        # defaults: idpyoidc's default policy with the resources and audiences it lets tokens be made for.
        context.cdb[CLIENT_ID]["token_exchange"] = {
            "subject_token_types_supported": ["urn:ietf:params:oauth:token-type:access_token",
                                              "urn:ietf:params:oauth:token-type:refresh_token"],
            "requested_token_types_supported": ["urn:ietf:params:oauth:token-type:access_token",
                                                "urn:ietf:params:oauth:token-type:refresh_token"],
            "default_requested_token_type": "urn:ietf:params:oauth:token-type:access_token",
            "policy": {"": {"function": "idpyoidc.server.oauth2.token_helper.validate_token_exchange_policy",
                            "kwargs": {"resource": TOKEN_EXCHANGE_RESOURCES, "audience": TOKEN_EXCHANGE_AUDIENCES}}},
        }
    server.keyjar.import_jwks({"keys": [public_jwk]}, CLIENT_ID)
    return server


class _App:
    """The WSGI front: one idpyoidc endpoint per path, each request and answer recorded in `seen`."""

    def __init__(self, server: Any, provider: FapiProvider) -> None:
        self.server, self.provider = server, provider
        self.lock = threading.Lock()  # idpyoidc's in-memory session and PAR stores are not thread-safe
        self.routes = {"/.well-known/openid-configuration": "provider_config", "/par": "pushed_authorization",
                       "/authorization": "authorization", "/token": "token", "/userinfo": "userinfo"}

    def __call__(self, environ: dict, start_response: Callable) -> list[bytes]:
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length).decode() if length else ""
        query = environ.get("QUERY_STRING", "")
        headers = {key[5:].lower().replace("_", "-"): value for key, value in environ.items() if key.startswith("HTTP_")}
        if environ.get("CONTENT_TYPE"):
            headers["content-type"] = environ["CONTENT_TYPE"]
        form = {key: values[0] for key, values in parse_qs(body if method == "POST" else query).items()}
        entry: dict[str, Any] = {"endpoint": path.strip("/"), "method": method, "url": self.provider.issuer + path,
                                 "form": form, "headers": headers}
        if "client_assertion" in form:
            entry["assertion"] = jwt_parts(form["client_assertion"])
        if "dpop" in headers:
            header, payload = jwt_parts(headers["dpop"])
            entry["dpop"] = {"header": header, "payload": payload, "jkt": jwk_thumbprint(header.get("jwk", {}))}
        with self.lock:
            status, answer_headers, answer = self._handle(path, method, form, headers, body)
        entry["status"] = int(status.split()[0])
        content_type = next((value for key, value in answer_headers if key.lower() == "content-type"), "")
        if content_type.startswith("application/json"):
            entry["response"] = json.loads(answer)
            if "access_token" in entry["response"]:
                entry["access_token_claims"] = jwt_parts(entry["response"]["access_token"])[1]
        self.provider.seen.append(entry)
        start_response(status, answer_headers + [("Cache-Control", "no-store")])
        return [answer]

    def _handle(self, path: str, method: str, form: dict, headers: dict, body: str) -> tuple[str, list, bytes]:
        if path == "/verify/user":
            return self._verify_user(form)
        if path == "/jwks":
            return _json("200 OK", self.server.keyjar.export_jwks())
        name = self.routes.get(path)
        if name is None:
            return _json("404 Not Found", {"error": "not_found"})
        endpoint = self.server.get_endpoint(name)
        if name == "authorization" and "request_uri" not in form:
            # FAPI 2.0 §5.3.2.2: only pushed requests; idpyoidc itself would take one in the query.
            return _json("400 Bad Request", {"error": "invalid_request",
                                             "error_description": "only pushed authorization requests"})
        if name == "authorization":
            # RFC 9126 §4: the front channel carries client_id and request_uri only. idpyoidc 5.0.0 checks the
            # query as a whole OpenID request (response_type, scope and redirect_uri required) before it reads
            # request_uri, so the front copies these from the pushed request into the query it hands idpyoidc,
            # which then takes the whole pushed request in its place; an unknown request_uri stays unknown.
            stored = self.server.context.par_db.get(form["request_uri"])
            if stored is not None:
                copied = {name: stored[name] for name in ("response_type", "scope", "redirect_uri", "prompt")
                          if name in stored}  # prompt: with offline_access, OpenID Connect Core §11 wants consent
                form = dict({name: value if isinstance(value, str) else " ".join(value)
                             for name, value in copied.items()}, **form)
        http_info = {"headers": headers, "method": method, "url": self.provider.issuer + path, "cookie": []}
        try:
            request = endpoint.parse_request(form if name != "token" else body, http_info=http_info)
            if "error" in request:
                return _json("400 Bad Request", request.to_dict())
            if name == "pushed_authorization":
                answer = endpoint.process_request(request, http_info=http_info)["http_response"]
                self.provider.pushed[answer["request_uri"]] = self.server.context.par_db[answer["request_uri"]].to_dict()
                return _json("201 Created", answer)
            args = endpoint.process_request(request, http_info=http_info)
        except Exception as error:  # idpyoidc signals refusals (client authentication, DPoP) by raising
            status = "401 Unauthorized" if "Authoriz" in type(error).__name__ or "Client" in type(error).__name__ \
                else "400 Bad Request"
            return _json(status, {"error": "invalid_client" if status.startswith("401") else "invalid_request",
                                  "error_description": f"{type(error).__name__}: {error}"})
        if "error" in args:
            return _json("400 Bad Request", {key: args[key] for key in ("error", "error_description") if key in args})
        if "http_response" in args:  # the login page
            return "200 OK", [("Content-Type", "text/html")], args["http_response"].encode()
        return self._respond(endpoint, request, args)

    def _verify_user(self, form: dict) -> tuple[str, list, bytes]:
        """The login form's target: idpyoidc's UserPassJinja2 checks the password, then the authorization
        endpoint's second half issues the code (as idpyoidc's example OP does at /verify/user)."""
        from idpyoidc.message.oidc import AuthorizationRequest

        authn = self.server.context.authn_broker.get_method_by_id("user")
        try:
            username = authn.verify(**form)
        except Exception as error:
            return "403 Forbidden", [("Content-Type", "text/plain")], f"login refused: {error}".encode()
        details = authn.unpack_token(form["token"])
        request = AuthorizationRequest().from_urlencoded(details["query"])
        endpoint = self.server.get_endpoint("authorization")
        session_id = endpoint.create_session(request, username, details["authn_class_ref"], details["iat"], authn)
        return self._respond(endpoint, request, endpoint.authz_part2(request=request, session_id=session_id))

    @staticmethod
    def _respond(endpoint: Any, request: Any, args: dict) -> tuple[str, list, bytes]:
        info = endpoint.do_response(request=request, **args)
        headers = [(key, value) for key, value in info.get("http_headers", [])]
        if info.get("response_placement", endpoint.response_placement) == "url":
            return "302 Found", headers + [("Location", info["response"])], b""
        body = info["response"]
        status = info.get("response_code", 200)
        reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized"}.get(status, "Error")
        if not any(key.lower() == "content-type" for key, _ in headers):
            headers.append(("Content-Type", "application/json"))
        return f"{status} {reason}", headers, body.encode() if isinstance(body, str) else json.dumps(body).encode()


def _json(status: str, document: dict) -> tuple[str, list, bytes]:
    return status, [("Content-Type", "application/json")], json.dumps(document).encode()


def _login(issuer: str, redirect_uri: str, authorization_url: str) -> str:
    """The user at the browser: the authorization endpoint's login form, filled in and posted."""
    session = requests.Session()
    page = session.get(authorization_url, allow_redirects=False, timeout=10)
    match = re.search(r'name="token" value="([^"]+)"', page.text)
    if page.status_code != 200 or not match:
        raise AssertionError(f"no login form from the authorization endpoint: HTTP {page.status_code} {page.text[:500]}")
    answer = session.post(issuer + "/verify/user", data={"token": match.group(1), "username": USER["username"],
                                                         "password": USER["password"]},
                          allow_redirects=False, timeout=10)
    location = answer.headers.get("Location", "")
    if answer.status_code != 302 or not location.startswith(redirect_uri):
        raise AssertionError(f"no redirect to {redirect_uri} after login: HTTP {answer.status_code} {location} "
                             f"{answer.text[:500]}")
    return location


@contextlib.contextmanager
def start_fapi_provider(token_exchange: bool = False) -> Iterator[FapiProvider]:
    import logging
    import warnings

    logging.getLogger("idpyoidc").setLevel(logging.ERROR)
    workdir = Path(tempfile.mkdtemp(prefix="telenorid-fapi-"))
    httpd = None
    try:
        port = _free_port()
        issuer = f"http://127.0.0.1:{port}"
        pem, private_jwk, public_jwk = _client_key()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = _build_server(workdir, issuer, public_jwk, token_exchange)
        provider = FapiProvider(issuer=issuer, client_id=CLIENT_ID, redirect_uri=REDIRECT_URI,
                                client_private_key_pem=pem, client_private_jwk=private_jwk, user=USER,
                                login=lambda url: _login(issuer, REDIRECT_URI, url), server=server)

        class Threading(ThreadingMixIn, WSGIServer):
            daemon_threads = True

        class Quiet(WSGIRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

        httpd = make_server("127.0.0.1", port, _App(server, provider), server_class=Threading, handler_class=Quiet)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        yield provider
    finally:
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["login"]:
        print(_login(sys.argv[2], REDIRECT_URI, sys.argv[3]), flush=True)
        sys.exit(0)
    import logging
    import warnings

    # A C test reads this process's output: idpyoidc's warning about its test login and its logged refusals
    # (which the tests provoke) would only be noise there.
    warnings.simplefilter("ignore")
    with start_fapi_provider(token_exchange="--token-exchange" in sys.argv) as running:
        logging.getLogger("idpyoidc").setLevel(logging.CRITICAL)
        print(json.dumps({"issuer": running.issuer, "clients": {"fapi": {
            "client_id": running.client_id, "redirect_uri": running.redirect_uri,
            "client_private_jwk": running.client_private_jwk}}, "user": USER}), flush=True)
        threading.Event().wait(1800)
