"""BackchannelLogout and LogoutToken: the provider ends a session (OpenID Connect Back-Channel Logout 1.0).

The provider POSTs a ``logout_token`` to the client's ``backchannel_logout_uri``; the host validates it,
answers 200 (or 400 when :class:`TokenInvalidError` is raised, §2.8) and signs out locally what it names:

    logout = BackchannelLogout(client)               # one per client, shared: it remembers each jti
    token = logout.validate(form["logout_token"])    # raises TokenInvalidError, saying which rule failed
    dropped = token.sign_out(accounts)               # the account ids signed out and dropped
    token.sign_out(state)                            # True when the token named this auth state's sign-in

Nothing is revoked at the provider: it ended the session itself. :meth:`AuthState.sign_out` is the same
local sign-out without a token.
"""
from __future__ import annotations

import json
from ctypes import byref, c_int32
from typing import Any, Dict, List, Optional, Union

from . import _bindings, _constants, _ffi
from ._convert import _opt_str, _str
from ._handle import _call_on, _enter_argument, _Handle, _leave
from .accounts import Accounts
from .auth_state import AuthState
from .client import Client

_c = _ffi.functions

BACKCHANNEL_LOGOUT_OPTIONS = _constants.BACKCHANNEL_LOGOUT_OPTIONS
LOGOUT_TOKEN_FIELDS = _constants.LOGOUT_TOKEN_FIELDS


class LogoutToken(_Handle):
    """A validated logout token: whom it signs out (``sub``, ``sid``). Immutable; read it from any thread."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_logout_token_free)

    def _field(self, name: str) -> Optional[str]:
        return self._string_call(_c.telenorid_logout_token_get, LOGOUT_TOKEN_FIELDS[name])

    sub = property(lambda self: self._field("sub"), doc="The end-user signed out at the provider, or None.")
    sid = property(lambda self: self._field("sid"), doc="The provider's session that ended, or None.")
    iss = property(lambda self: self._field("iss"), doc="The issuer.")
    jti = property(lambda self: self._field("jti"), doc="The token's identifier.")

    def to_dict(self) -> Dict[str, Any]:
        """The token's claims as a dict."""
        result: Dict[str, Any] = json.loads(self._string_call(_c.telenorid_logout_token_json) or "{}")
        return result

    def sign_out(self, target: Union[Accounts, AuthState]) -> Union[List[str], bool]:
        """Signs out locally what this token names, revoking nothing. For :class:`Accounts`: the accounts of
        its ``sub`` (and, when it has a ``sid``, only the one whose ID token has that ``sid``), signed out and
        dropped; their ids. For an :class:`AuthState`: whether its sign-in was named (and is now signed out,
        its change callback run)."""
        if isinstance(target, Accounts):
            entered = _enter_argument(self, LogoutToken, "token")
            try:
                ids: List[str] = json.loads(
                    target._string_call(_c.telenorid_accounts_backchannel_logout, entered) or "[]")
                return ids
            finally:
                _leave(self._native)
        if isinstance(target, AuthState):
            named = c_int32()
            entered = _enter_argument(self, LogoutToken, "token")
            try:
                target._call(_c.telenorid_auth_state_backchannel_logout, entered, byref(named))
            finally:
                _leave(self._native)
            return named.value == 1
        raise TypeError(f"sign_out takes Accounts or an AuthState, not {type(target).__name__}")

    def __repr__(self) -> str:
        return f"<LogoutToken sub={self.sub!r} sid={self.sid!r}>"


class BackchannelLogout(_Handle):
    """Validates ``client``'s logout tokens (Back-Channel Logout 1.0 §2.6): signed by its provider as its ID
    tokens are, for its issuer and client id, each ``jti`` accepted once within ``max_age_s`` seconds of its
    ``iat`` (default 300). Keep one per client and share it between threads."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_backchannel_logout_free)

    def __new__(cls, client: Client, *, max_age_s: Optional[int] = None) -> "BackchannelLogout":
        pointer = _bindings.BackchannelLogoutP()
        _call_on(client, Client, "client", _c.telenorid_backchannel_logout_new, byref(pointer))
        self = object.__new__(cls)
        self._parents = (client,)
        self._own(pointer, _c.telenorid_backchannel_logout_free)
        if max_age_s is not None:
            self.set("max_age_s", max_age_s)
        return self

    def __init__(self, client: Client, *, max_age_s: Optional[int] = None) -> None:
        pass  # made in __new__

    def set(self, option: str, value: Union[int, str, None]) -> None:
        """Sets ``max_age_s`` (seconds after its ``iat`` a token is accepted, 1 to 86400); None restores the
        default."""
        if option not in BACKCHANNEL_LOGOUT_OPTIONS:
            raise TypeError(f"unknown back-channel logout option {option!r}")
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        self._call(_c.telenorid_backchannel_logout_set, BACKCHANNEL_LOGOUT_OPTIONS[option],
                   _opt_str(text, "value"))

    def validate(self, logout_token: str) -> LogoutToken:
        """Validates ``logout_token``; raises :class:`TokenInvalidError` naming the rule it broke (typ,
        signature, iss, aud, iat, exp, jti, events, sub/sid, nonce, or a replay)."""
        encoded = _str(logout_token, "logout_token")
        pointer = _bindings.LogoutTokenP()
        self._call(_c.telenorid_backchannel_logout_validate, encoded, byref(pointer))
        return LogoutToken._adopt(pointer)
