"""ResourceServer and ClientCredentials: the other side of the token.

A resource server (an API) checks the access tokens it is called with, by asking the provider (token
introspection, RFC 7662) or by verifying a JWT access token with the provider's keys (RFC 9068); a machine
gets its own access token with the client credentials grant (RFC 6749 §4.4) or the JWT bearer grant (RFC 7523):

    server = ResourceServer(client, "https://api.example.com/")
    info = server.introspect(token)            # info.active False: not an error
    info = server.verify_access_token(token)   # raises TokenInvalidError, saying what failed
    machine = ClientCredentials(client, "read")
    token = machine.access_token()             # kept, renewed before it expires

and, for a DPoP-bound token (RFC 9449 §7), the request's ``DPoP`` proof:

    server.verify_dpop(proof, "GET", "https://api.example.com/items", token, info=info)
    # TokenInvalidError: e.oauth_error is "invalid_dpop_proof" or "use_dpop_nonce" for the
    # WWW-Authenticate: DPoP challenge, e.oauth_error_description the rule; server.dpop_nonce() for DPoP-Nonce
"""
from __future__ import annotations

import json
from ctypes import byref, c_int32, c_int64, c_void_p
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Tuple, Union

from . import _bindings, _constants, _ffi
from ._convert import _copy_out, _opt_str, _str
from ._handle import _call_on, _enter_argument, _Handle, _leave
from ._interruptible import interruptible
from .client import Client
from .errors import InvalidArgumentError, _int, _raise

if TYPE_CHECKING:  # store.py is imported only when a store is bound
    from .store import HostStore

_c = _ffi.functions

# include/telenorid.h's TELENORID_INFO_* fields: the times are read by telenorid_token_info_time, the rest by
# telenorid_token_info_get.
TOKEN_INFO_TIMES = {name: number for name, number in _constants.TOKEN_INFO_FIELDS.items()
                    if name in ("exp", "iat", "nbf")}
TOKEN_INFO_FIELDS = {name: number for name, number in _constants.TOKEN_INFO_FIELDS.items()
                     if name not in TOKEN_INFO_TIMES}
RESOURCE_SERVER_OPTIONS = _constants.RESOURCE_SERVER_OPTIONS

class TokenInfo(_Handle):
    """What a check learnt about an access token: the introspection answer (RFC 7662 §2.2) or a verified JWT
    access token's claims (RFC 9068 §2.2). Immutable; read it from any thread."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_token_info_free)

    @property
    def active(self) -> bool:
        """Whether the token is active (RFC 7662 §2.2); always True for a verified JWT access token."""
        value = c_int32()
        self._call(_c.telenorid_token_info_active, byref(value))
        return value.value == 1

    def _field(self, name: str) -> Optional[str]:
        return self._string_call(_c.telenorid_token_info_get, TOKEN_INFO_FIELDS[name])

    def _time(self, name: str) -> Optional[int]:
        value = c_int64()
        self._call(_c.telenorid_token_info_time, TOKEN_INFO_TIMES[name], byref(value))
        return value.value or None

    scope = property(lambda self: self._field("scope"), doc="Space-separated scopes, or None.")
    client_id = property(lambda self: self._field("client_id"), doc="The client the token was issued to.")
    username = property(lambda self: self._field("username"), doc="Introspection only: the resource owner's name.")
    token_type = property(lambda self: self._field("token_type"), doc="Introspection only: Bearer, DPoP...")
    sub = property(lambda self: self._field("sub"), doc="The subject.")
    iss = property(lambda self: self._field("iss"), doc="The issuer.")
    jti = property(lambda self: self._field("jti"), doc="The token's identifier.")
    cnf_jkt = property(lambda self: self._field("cnf_jkt"),
                       doc="The thumbprint of the DPoP key the token is bound to (cnf.jkt, RFC 9449 §6), or None.")
    exp = property(lambda self: self._time("exp"), doc="Expiry, Unix seconds, or None.")
    iat = property(lambda self: self._time("iat"), doc="Issued at, Unix seconds, or None.")
    nbf = property(lambda self: self._time("nbf"), doc="Not before, Unix seconds, or None.")

    @property
    def aud(self) -> List[str]:
        """The audiences (``aud`` as one string or a list), [] when absent."""
        value = self.member("aud")
        return [] if value is None else [value] if isinstance(value, str) else list(value)

    def member(self, name: str) -> Any:
        """Any member by name, decoded from JSON; None when absent."""
        text = self._string_call(_c.telenorid_token_info_member, _str(name, "name"))
        return None if text is None else json.loads(text)

    def to_dict(self) -> Dict[str, Any]:
        """The whole answer (or the token's claims) as a dict."""
        result: Dict[str, Any] = json.loads(self._string_call(_c.telenorid_token_info_json) or "{}")
        return result

    def __repr__(self) -> str:
        return f"<TokenInfo active={self.active} sub={self.sub!r} client_id={self.client_id!r}>"


class DPoPReplayCache(_Handle):
    """What resource servers checking DPoP proofs of one server remember (RFC 9449 §11.1, §9): the ``jti`` of
    each proof accepted within ``window_s`` seconds of its ``iat`` (at most ``capacity`` at once), and the
    key its nonces are made with. Share one between the ResourceServers that are one server to clients, with
    :meth:`ResourceServer.set_dpop_replay_cache`. Safe to share between threads."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_dpop_replay_cache_free)

    def __new__(cls, window_s: int = 60, capacity: int = 65536) -> "DPoPReplayCache":
        if not -2**31 <= _int(capacity, "capacity") < 2**31:
            raise InvalidArgumentError(f"capacity must be 1 to 4194304, not {capacity}")
        pointer = _bindings.DpopReplayCacheP()
        status = _c.telenorid_dpop_replay_cache_new(_int(window_s, "window_s"), _int(capacity, "capacity"),
                                                    byref(pointer))
        if status:
            _raise(status)
        self = object.__new__(cls)
        self._parents = ()
        self._own(pointer, _c.telenorid_dpop_replay_cache_free)
        return self

    def __init__(self, window_s: int = 60, capacity: int = 65536) -> None:
        pass  # made in __new__


class ResourceServer(_Handle):
    """Checks access tokens against ``client``'s provider: ``client`` is the resource server's own
    registration (the introspection endpoint takes the client authentication the token endpoint does), and
    ``audience`` its identifier, which a JWT access token's ``aud`` must name. Share it between threads."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_resource_server_free)

    def __new__(cls, client: Client, audience: str, *, introspection_cache_max_age_s: Optional[int] = None,
                access_token_signing_algs: Optional[str] = None,
                accept_typ_jwt: Optional[bool] = None, dpop_signing_algs: Optional[str] = None,
                dpop_require_nonce: Optional[bool] = None) -> "ResourceServer":
        encoded = _str(audience, "audience")
        pointer = _bindings.ResourceServerP()
        _call_on(client, Client, "client", _c.telenorid_resource_server_new, encoded, byref(pointer))
        self = object.__new__(cls)
        self._parents = (client,)
        self._own(pointer, _c.telenorid_resource_server_free)
        for name, value in (("introspection_cache_max_age_s", introspection_cache_max_age_s),
                            ("access_token_signing_algs", access_token_signing_algs),
                            ("accept_typ_jwt", accept_typ_jwt), ("dpop_signing_algs", dpop_signing_algs),
                            ("dpop_require_nonce", dpop_require_nonce)):
            if value is not None:
                self.set(name, value)
        return self

    def __init__(self, client: Client, audience: str, *, introspection_cache_max_age_s: Optional[int] = None,
                 access_token_signing_algs: Optional[str] = None, accept_typ_jwt: Optional[bool] = None,
                 dpop_signing_algs: Optional[str] = None, dpop_require_nonce: Optional[bool] = None) -> None:
        pass  # made in __new__

    def set(self, option: str, value: Union[str, int, bool, None]) -> None:
        """Sets ``introspection_cache_max_age_s`` (seconds an answer is reused, never past the token's
        ``exp``; 0 is off), ``access_token_signing_algs`` (space-separated), ``accept_typ_jwt`` (accept
        JWT access tokens of ``typ`` JWT), ``dpop_signing_algs`` (space-separated, for DPoP proofs) or
        ``dpop_require_nonce`` (every DPoP proof must carry :meth:`dpop_nonce`); None restores the default."""
        if option not in RESOURCE_SERVER_OPTIONS:
            raise TypeError(f"unknown resource server option {option!r}")
        if isinstance(value, bool):
            text: Optional[str] = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = value
        self._call(_c.telenorid_resource_server_set, RESOURCE_SERVER_OPTIONS[option], _opt_str(text, "value"))

    def introspect(self, token: str, token_type_hint: Optional[str] = None) -> TokenInfo:
        """Asks the provider about ``token`` (RFC 7662). An inactive token gives ``active`` False; the
        provider refusing the client raises :class:`ClientRejectedError`. Blocks on the network."""
        encoded, hint = _str(token, "token"), _opt_str(token_type_hint, "token_type_hint")
        client: Client = self._parents[0]
        return interruptible(client, lambda: self._info(_c.telenorid_resource_server_introspect, encoded, hint))

    def verify_access_token(self, token: str) -> TokenInfo:
        """Verifies a JWT access token locally (RFC 9068) and returns its claims; raises
        :class:`TokenInvalidError` saying which check failed (not a JWT, typ, signature, issuer, audience,
        times, a missing claim)."""
        encoded = _str(token, "token")
        return self._info(_c.telenorid_resource_server_verify_access_token, encoded)

    def verify_dpop(self, proof: str, method: str, url: str, access_token: str, *, jkt: Optional[str] = None,
                    info: Optional[TokenInfo] = None) -> None:
        """Checks a request's ``DPoP`` proof (RFC 9449 §4.3, §7.1) against the ``method`` and ``url`` the
        server received and the ``access_token`` it came with, bound to the key ``jkt`` names (else ``info``'s
        ``cnf_jkt``; one of them is required). A refusal raises :class:`TokenInvalidError` whose
        ``oauth_error`` is the WWW-Authenticate error to answer with (``invalid_dpop_proof``,
        ``use_dpop_nonce``, or ``invalid_token`` for a token not bound to a key) and whose
        ``oauth_error_description`` names the rule; a replay cache full of live proofs raises
        :class:`TemporarilyUnavailableError`."""
        arguments = (_str(proof, "proof"), _str(method, "method"), _str(url, "url"),
                     _str(access_token, "access_token"), _opt_str(jkt, "jkt"))
        if info is None:
            self._call(_c.telenorid_resource_server_verify_dpop, *arguments, None)
            return
        pointer = _enter_argument(info, TokenInfo, "info")
        try:
            self._call(_c.telenorid_resource_server_verify_dpop, *arguments, pointer)
        finally:
            _leave(info._native)

    def dpop_nonce(self) -> str:
        """The nonce to send now in the ``DPoP-Nonce`` response header (RFC 9449 §9); it changes every window
        of the replay cache."""
        return self._string_call(_c.telenorid_resource_server_dpop_nonce) or ""

    def set_dpop_replay_cache(self, cache: DPoPReplayCache) -> None:
        """Checks DPoP proofs with ``cache`` from now on, shared with the other resource servers using it (a
        proof one accepted is a replay to all; a nonce one handed out is taken by all)."""
        pointer = _enter_argument(cache, DPoPReplayCache, "cache")
        try:
            self._call(_c.telenorid_resource_server_set_dpop_replay_cache, pointer)
        finally:
            _leave(cache._native)

    def _info(self, function: Any, *args: Any) -> TokenInfo:
        pointer = _bindings.TokenInfoP()
        self._call(function, *args, byref(pointer))
        return TokenInfo._adopt(pointer)


def _free_credentials(pointer: Any, keep_alive: List[Any]) -> None:
    _c.telenorid_client_credentials_free(pointer)
    keep_alive.clear()  # a bound store's functions may go only once C can no longer call them


class ClientCredentials(_Handle):
    """A machine's own access token for ``client``, for ``scope`` (None: the provider's default): the client
    credentials grant (RFC 6749 §4.4, a confidential client), or :meth:`jwt_bearer` (RFC 7523 §2.1). Kept and
    asked for again before it expires; one request at a time across threads, and across processes sharing a
    store (:meth:`bind_store`). ``resources`` are resource indicators (RFC 8707), as :meth:`add_resource`.
    A client configured for DPoP gets DPoP-bound tokens: present them with :meth:`request_headers`."""

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_c.telenorid_client_credentials_free)
    _keep_alive: List[Any]

    def __new__(cls, client: Client, scope: Optional[str] = None, *,
                resources: Iterable[str] = ()) -> "ClientCredentials":
        encoded = _opt_str(scope, "scope")
        return cls._made(client, resources, _c.telenorid_client_credentials_new, encoded)

    def __init__(self, client: Client, scope: Optional[str] = None, *, resources: Iterable[str] = ()) -> None:
        pass  # made in __new__

    @classmethod
    def jwt_bearer(cls, client: Client, scope: Optional[str] = None, *, subject: Optional[str] = None,
                   assertion: Optional[str] = None, resources: Iterable[str] = ()) -> "ClientCredentials":
        """The JWT bearer grant (RFC 7523 §2.1), with exactly one of: ``subject``, the ``sub`` of assertions the
        library signs with the client's own key (its private_key_jwt key), a new one per request, so the token
        is renewed by itself; or ``assertion``, a JWT you made, sent once (asking again after its token expired
        raises :class:`ConsumedError`)."""
        if (subject is None) == (assertion is None):
            raise TypeError("give exactly one of subject= and assertion=")
        return cls._made(client, resources, _c.telenorid_client_credentials_new_jwt_bearer, _opt_str(scope, "scope"),
                         _opt_str(subject, "subject"), _opt_str(assertion, "assertion"))

    @classmethod
    def _made(cls, client: Client, resources: Iterable[str], function: Any, *args: Any) -> "ClientCredentials":
        uris = [_str(uri, "resource") for uri in ([resources] if isinstance(resources, str) else resources)]
        pointer = _bindings.ClientCredentialsP()
        _call_on(client, Client, "client", function, *args, byref(pointer))
        self = object.__new__(cls)
        self._parents = (client,)
        self._keep_alive = []
        self._own(pointer, _free_credentials, self._keep_alive)
        for uri in uris:
            self._call(_c.telenorid_client_credentials_add_resource, uri)
        return self

    def add_resource(self, uri: str) -> "ClientCredentials":
        """Adds a resource indicator (RFC 8707 §2) sent with every token request; a token held was asked for
        without it, so the next one is new."""
        self._call(_c.telenorid_client_credentials_add_resource, _str(uri, "uri"))
        return self

    def access_token(self) -> str:
        """An access token valid for at least the refresh margin (the one held, else a new one)."""
        client: Client = self._parents[0]
        return interruptible(client, lambda: self._string_call(_c.telenorid_client_credentials_access_token) or "")

    def request_headers(self, method: str, url: str, resource_nonce: Optional[str] = None) -> Tuple[str, Optional[str]]:
        """The ``Authorization`` and ``DPoP`` header values for one request to ``url``, as
        :meth:`AuthState.request_headers`: ("DPoP <token>", proof made with this token's key) for a DPoP-bound
        token (RFC 9449 §7), ("Bearer <token>", None) otherwise."""
        client: Client = self._parents[0]
        encoded = (_str(method, "method"), _str(url, "url"), _opt_str(resource_nonce, "resource_nonce"))
        authorization, dpop = c_void_p(), c_void_p()

        def call() -> None:
            self._call(_c.telenorid_client_credentials_request_headers, *encoded, byref(authorization), byref(dpop))

        interruptible(client, call)
        dpop_value = _copy_out(dpop)
        return _copy_out(authorization) or "", dpop_value

    def resource_answered(self, url: str, status: int, www_authenticate: Optional[str], dpop_nonce: Optional[str],
                          authorization_sent: str) -> bool:
        """Whether to send a request of yours once more, given the resource's answer to it, as
        :meth:`AuthState.resource_answered`: True for a 401 refusing the token (reported, so the next
        :meth:`request_headers` carries a new one) or asking for the DPoP nonce it gave (kept for that server);
        a nonce on any answer is kept. Retry once, with new :meth:`request_headers`. No network call."""
        retry = c_int32()
        self._call(_c.telenorid_client_credentials_resource_answered, _str(url, "url"), status,
                   _opt_str(www_authenticate, "www_authenticate"), _opt_str(dpop_nonce, "dpop_nonce"),
                   _str(authorization_sent, "authorization_sent"), byref(retry))
        return retry.value == 1

    def bind_store(self, store: "HostStore", key: str) -> None:
        """Keeps the token in record ``key`` of ``store`` (a :class:`DirectoryStore` or your :class:`Store`):
        every process bound to that record shares one token, asked for by one of them at a time."""
        from .store import _NativeStore

        encoded = _str(key, "key")
        native = _NativeStore.of(store)
        pointer = _enter_argument(native, _NativeStore, "store")
        try:
            self._call(_c.telenorid_client_credentials_bind_store, pointer, encoded)
        finally:
            _leave(native._native)
        self._keep_alive.append(native)  # the functions C calls live as long as the handle

    @property
    def expires_at(self) -> Optional[int]:
        """When the held token expires (Unix seconds), None when none is held or the provider did not say."""
        value = c_int64()
        self._call(_c.telenorid_client_credentials_expires_at, byref(value))
        return value.value or None

    def rejected(self, access_token: Optional[str] = None) -> None:
        """A resource server refused ``access_token`` (None: the held one): the next call gets a new one."""
        self._call(_c.telenorid_client_credentials_rejected, _opt_str(access_token, "access_token"))

    def __repr__(self) -> str:
        return f"<ClientCredentials expires_at={self.expires_at}>"
