"""TokenExchange and IssuedToken: token exchange (RFC 8693), a token the client holds for another token.

    exchange = TokenExchange(access_token, TokenType.ACCESS_TOKEN, audiences=["https://backend.example.com/"])
    issued = exchange.exchange(client)
    issued.token, issued.issued_token_type      # what came, and what it is (RFC 8693 §2.2.1)
    state = issued.auth_state()                 # an access token with a refresh token: kept and refreshed
"""
from __future__ import annotations

from ctypes import byref, c_int64
from typing import Iterable, Optional

from . import _bindings, _constants, _ffi
from ._convert import _opt_str, _str
from ._handle import _call_on, _Handle, _leave
from ._interruptible import interruptible
from .auth_state import AuthState
from .client import Client
from .errors import _raise

_c = _ffi.functions


class TokenType:
    """The token type identifiers of RFC 8693 §3 (the header's TELENORID_TOKEN_TYPE_*)."""

    ACCESS_TOKEN: str = _constants.TOKEN_TYPES["access_token"]
    REFRESH_TOKEN: str = _constants.TOKEN_TYPES["refresh_token"]
    ID_TOKEN: str = _constants.TOKEN_TYPES["id_token"]
    SAML1: str = _constants.TOKEN_TYPES["saml1"]
    SAML2: str = _constants.TOKEN_TYPES["saml2"]
    JWT: str = _constants.TOKEN_TYPES["jwt"]
    #: OpenID Connect Native SSO 1.0 §4.1: the device secret, the actor token of a Native SSO exchange.
    DEVICE_SECRET: str = _constants.TOKEN_TYPES["device_secret"]


class TokenExchange(_Handle):
    """A token exchange request (RFC 8693 §2.1): ``subject_token`` of ``subject_token_type`` (a URI, see
    :class:`TokenType`), and optionally an actor token with its type (both or neither), ``resources``
    (absolute URIs, RFC 8707), ``audiences``, ``scope`` and ``requested_token_type``. The library checks
    each (:class:`InvalidArgumentError`); tokens are kept in memory it wipes. Any thread."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_token_exchange_free)

    def __new__(cls, subject_token: str, subject_token_type: str, *, actor_token: Optional[str] = None,
                actor_token_type: Optional[str] = None, resources: Iterable[str] = (),
                audiences: Iterable[str] = (), scope: Optional[str] = None,
                requested_token_type: Optional[str] = None) -> "TokenExchange":
        pointer = _bindings.TokenExchangeP()
        status = _c.telenorid_token_exchange_new(_str(subject_token, "subject_token"),
                                                 _str(subject_token_type, "subject_token_type"), byref(pointer))
        if status:
            _raise(status)
        self = object.__new__(cls)
        self._parents = ()
        self._own(pointer, _c.telenorid_token_exchange_free)
        if actor_token is not None or actor_token_type is not None:
            self._call(_c.telenorid_token_exchange_set_actor, _opt_str(actor_token, "actor_token"),
                       _opt_str(actor_token_type, "actor_token_type"))
        for uri in _strings(resources, "resources"):
            self._call(_c.telenorid_token_exchange_add_resource, _str(uri, "resource"))
        for audience in _strings(audiences, "audiences"):
            self._call(_c.telenorid_token_exchange_add_audience, _str(audience, "audience"))
        if scope is not None:
            self._call(_c.telenorid_token_exchange_set_scope, _str(scope, "scope"))
        if requested_token_type is not None:
            self._call(_c.telenorid_token_exchange_set_requested_token_type,
                       _str(requested_token_type, "requested_token_type"))
        return self

    def __init__(self, subject_token: str, subject_token_type: str, **_: object) -> None:
        pass  # made in __new__

    def exchange(self, client: Client) -> "IssuedToken":
        """Exchanges the token at ``client``'s token endpoint, with its authentication (and a DPoP proof when
        DPoP is in use). The provider's refusal is :class:`AuthorizationError` (``oauth_error``
        invalid_request, invalid_target...); an answer without ``issued_token_type`` is
        :class:`InvalidResponseError`. Blocks on the network; Ctrl-C cancels it."""
        def run() -> IssuedToken:
            issued = _bindings.IssuedTokenP()
            pointer = self._enter()
            try:
                _call_on(client, Client, "client", _c.telenorid_client_exchange_token, pointer, byref(issued))
            finally:
                _leave(self._native)
            return IssuedToken._adopt(issued, client)
        return interruptible(client, run)

    def __repr__(self) -> str:
        return "<TokenExchange>"


class IssuedToken(_Handle):
    """What a token exchange issued (RFC 8693 §2.2.1). The members never change; any thread."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_issued_token_free)

    def _field(self, name: str) -> Optional[str]:
        return self._string_call(_c.telenorid_issued_token_get, _constants.ISSUED_TOKEN_FIELDS[name])

    @property
    def token(self) -> str:
        """The issued token (the response's ``access_token`` member, whatever the token is). A secret."""
        return self._field("token") or ""

    @property
    def issued_token_type(self) -> str:
        """What the token is: a URI, one of :class:`TokenType` or the provider's own."""
        return self._field("token_type") or ""

    @property
    def token_type(self) -> str:
        """How an access token is used (``Bearer``, ``DPoP``); ``N_A`` for a token that is not one."""
        return self._field("access_token_type") or ""

    @property
    def scope(self) -> Optional[str]:
        """The issued token's scope, None when the provider did not say."""
        return self._field("scope")

    @property
    def refresh_token(self) -> Optional[str]:
        """A refresh token that came with it, else None. A secret."""
        return self._field("refresh_token")

    @property
    def expires_at(self) -> Optional[int]:
        """When the token expires (Unix seconds of the client's clock), None when the provider did not say."""
        value = c_int64()
        self._call(_c.telenorid_issued_token_expires_at, byref(value))
        return value.value or None

    def auth_state(self) -> AuthState:
        """The token as a new :class:`AuthState` of the exchanging client, refreshed through it: only an
        access token that came with a refresh token (else :class:`InvalidArgumentError`), once (then
        :class:`ConsumedError`)."""
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_issued_token_auth_state, byref(state))
        return AuthState._adopt(state, self._parents[0])

    def __repr__(self) -> str:
        return f"<IssuedToken {self.issued_token_type} token_type={self.token_type}>"


def _strings(values: Iterable[str], name: str) -> Iterable[str]:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be an iterable of str, not a single {type(values).__name__}")
    return values
