"""AuthState: a signed-in user's tokens, refreshed, checked, persisted and revoked through the library."""
from __future__ import annotations

from ctypes import byref, c_int32, c_int64, c_void_p
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from . import _bindings, _constants, _ffi
from ._callbacks import _shielded
from ._convert import _copy_out, _name, _opt_str, _str
from ._handle import _Handle

if TYPE_CHECKING:
    from .store import HostStore

_c = _ffi.functions
_refresh = _c.telenorid_auth_state_refresh  # on the benchmarked path: one global lookup


def _free_auth_state(pointer: Any, keep_alive: List[Any]) -> None:
    _c.telenorid_auth_state_free(pointer)
    keep_alive.clear()  # the change callback may go only once C can no longer call it


class AuthState(_Handle):
    """A signed-in user's tokens; shareable between threads. Made by :class:`Client`."""

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_c.telenorid_auth_state_free)
    _keep_alive: List[Any]

    @classmethod
    def _adopt(cls, pointer: Any, *parents: Any) -> "AuthState":
        self = object.__new__(cls)
        self._parents = parents
        self._keep_alive = []
        self._own(pointer, _free_auth_state, self._keep_alive)
        return self

    def fresh_access_token(self) -> str:
        """An access token valid for at least the refresh margin, refreshing first when needed."""
        return self._string_call(_c.telenorid_auth_state_fresh_access_token) or ""

    def refresh(self) -> None:
        """Refreshes now, whatever the expiry; a refresh token that comes back replaces the old one. A
        refused refresh token raises :class:`AuthorizationLostError` and signs out."""
        self._call(_refresh)

    @property
    def signed_in(self) -> bool:
        """True while the state holds tokens: after a sign-in, until a sign-out, revocation or lost grant."""
        flag = c_int32()
        self._call(_c.telenorid_auth_state_is_signed_in, byref(flag))
        return bool(flag.value)

    def get(self, field: str) -> Optional[str]:
        """access_token, refresh_token, id_token, id_token_claims (JSON), scope or token_type; None if absent."""
        number = _name(field, _constants.TOKEN_FIELDS, "token field")
        return self._string_call(_c.telenorid_auth_state_get, number)

    @property
    def id_token_claims(self) -> Optional[Dict[str, Any]]:
        """The validated ID token's claims (``sub``, ``iss``, ...), or None when there is none."""
        import json

        text = self.get("id_token_claims")
        claims: Optional[Dict[str, Any]] = json.loads(text) if text else None
        return claims

    @property
    def authorization_details(self) -> Optional[List[Dict[str, Any]]]:
        """What the provider granted (RFC 9396 §7), or None."""
        import json

        text = self.get("authorization_details")
        details: Optional[List[Dict[str, Any]]] = json.loads(text) if text else None
        return details

    def request_headers(self, method: str, url: str, resource_nonce: Optional[str] = None) -> Tuple[str, Optional[str]]:
        """The ``Authorization`` and ``DPoP`` header values for one request of yours to ``url`` (RFC 9449 §7),
        with a fresh access token: ("DPoP <token>", proof) for a DPoP-bound token, ("Bearer <token>", None)
        otherwise. When the resource answers 401 with ``WWW-Authenticate: DPoP error="use_dpop_nonce"``,
        call again with its ``DPoP-Nonce`` header as ``resource_nonce`` and resend."""
        authorization, dpop = c_void_p(), c_void_p()
        self._call(_c.telenorid_auth_state_request_headers, _str(method, "method"), _str(url, "url"),
                   _opt_str(resource_nonce, "resource_nonce"), byref(authorization), byref(dpop))
        dpop_value = _copy_out(dpop)
        return _copy_out(authorization) or "", dpop_value

    @property
    def expires_at(self) -> Optional[int]:
        """The access token's expiry in Unix seconds, or None when unknown or signed out."""
        value = c_int64()
        self._call(_c.telenorid_auth_state_expires_at, byref(value))
        return value.value or None

    def userinfo(self) -> Dict[str, Any]:
        """The provider's userinfo claims for this user (OpenID Connect Core §5.3), with a fresh token."""
        import json

        claims: Dict[str, Any] = json.loads(self._string_call(_c.telenorid_auth_state_userinfo) or "{}")
        return claims

    def check(self) -> None:
        """Is the grant still alive? Asks userinfo (rotating nothing) and refreshes only when it must.
        Returns when alive; raises AuthorizationLostError (now signed out), NotSignedInError, or a transient error."""
        self._call(_c.telenorid_auth_state_check)

    def access_token_rejected(self, access_token: Optional[str] = None) -> None:
        """Reports that a resource server refused ``access_token`` (None: the current one) with 401, so the
        next :meth:`fresh_access_token` refreshes. A token already replaced changes nothing."""
        self._call(_c.telenorid_auth_state_access_token_rejected, _opt_str(access_token, "access_token"))

    def resource_answered(self, url: str, status: int, www_authenticate: Optional[str], dpop_nonce: Optional[str],
                          authorization_sent: str) -> bool:
        """Whether to send a request of yours once more, given the resource's answer to it: its ``status``,
        ``WWW-Authenticate`` (several joined with ", ") and ``DPoP-Nonce`` headers, and the ``Authorization``
        value the request carried. True for a 401 refusing the token (reported, so the next
        :meth:`request_headers` refreshes) or asking for the DPoP nonce it gave (kept for that server); a
        nonce on any answer is kept. Retry once, with new :meth:`request_headers`. No network call."""
        retry = c_int32()
        self._call(_c.telenorid_auth_state_resource_answered, _str(url, "url"), status,
                   _opt_str(www_authenticate, "www_authenticate"), _opt_str(dpop_nonce, "dpop_nonce"),
                   _str(authorization_sent, "authorization_sent"), byref(retry))
        return retry.value == 1

    def revoke(self) -> None:
        """Signs out, then revokes the grant at the provider; the state stays signed out if that fails."""
        self._call(_c.telenorid_auth_state_revoke)

    def sign_out(self) -> None:
        """Signs out here, revoking nothing at the provider (a bound file or store records it); the change
        callback runs when the state was signed in."""
        self._call(_c.telenorid_auth_state_sign_out)

    def bind_file(self, path: str) -> None:
        """Keeps the state in the file at ``path`` from now on (0600, replaced atomically); every refresh
        locks it (``path + ".lock"``) and uses another process's refresh instead of redeeming one refresh
        token twice, and a sign-out recorded in the file (under ``path + ".update.lock"``) wins over a refresh
        in flight elsewhere. A lock held past the configured ``timeout_ms`` raises
        :class:`TemporarilyUnavailableError`."""
        self._call(_c.telenorid_auth_state_bind_file, _str(path, "path"))

    def bind_store(self, store: "HostStore", key: str) -> None:
        """Keeps the state in record ``key`` of ``store`` (a :class:`DirectoryStore` or the host's own
        :class:`Store`) from now on, as :meth:`bind_file` keeps it in a file: written now and after every
        change, refreshed once between all the processes sharing the record. A failing store raises
        :class:`StoreFailedError`."""
        from ._handle import _enter_argument, _leave
        from .store import _NativeStore

        encoded = _str(key, "key")
        native = _NativeStore.of(store)
        pointer = _enter_argument(native, _NativeStore, "store")
        try:
            self._call(_c.telenorid_auth_state_bind_store, pointer, encoded)
        finally:
            _leave(native._native)
        self._keep_alive.append(native)  # the functions C calls live as long as the state

    def save(self) -> None:
        """Writes the state to the store or file it is bound to now, e.g. after a refresh raised
        :class:`StoreFailedError` (its new tokens are kept in memory) and before the process exits. What
        another process saved since is taken up, not overwritten. :class:`StoreFailedError` when the store
        still refuses; :class:`InvalidArgumentError` when the state is bound to no store or file."""
        self._call(_c.telenorid_auth_state_save)

    def end_session_url(self, post_logout_redirect_uri: Optional[str] = None, state: Optional[str] = None) -> str:
        """The RP-initiated logout URL to open in the browser (OpenID Connect RP-Initiated Logout), with
        ``id_token_hint`` and ``client_id``; does not sign this state out."""
        redirect = _opt_str(post_logout_redirect_uri, "post_logout_redirect_uri")
        logout_state = _opt_str(state, "state")
        return self._string_call(_c.telenorid_auth_state_end_session_url, redirect, logout_state) or ""

    def serialize(self) -> str:
        """Versioned JSON holding the refresh token: keep it in secure storage."""
        return self._string_call(_c.telenorid_auth_state_serialize) or ""

    def on_change(self, callback: Optional[Callable[[], object]]) -> None:
        """Calls ``callback()`` after every change to persist (refresh, rotation, sign-out), on the thread
        that made it; what it returns is ignored. None removes it. An exception it raises is reported by sys.unraisablehook."""
        if self._native.pointer is None:  # refused before the callback is checked
            self._closed()
        if callback is None:
            self._call(_c.telenorid_auth_state_set_change_callback, _bindings.AuthStateCallback(), None)
            return
        if not callable(callback):
            raise TypeError("callback must be callable or None")

        c_callback = _bindings.AuthStateCallback(_shielded(lambda _user_data: callback(), callback, None))
        self._call(_c.telenorid_auth_state_set_change_callback, c_callback, None)
        # Kept until the C state is freed (by the finalizer), not just until the next on_change: C may be
        # calling the previous one on another thread right now.
        self._keep_alive.append(c_callback)
