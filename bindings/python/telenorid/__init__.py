"""telenorid: an OpenID Connect client for native apps, through libtelenorid's C API (include/telenorid.h).

A thin binding: every class wraps one C handle and every method is one C call (plus copying strings out
and mapping status codes to exceptions). The protocol work — PKCE, URL building, callback validation,
tokens — happens in the library.

Handles are released at the end of a ``with`` block, on ``close()`` (idempotent) or, as a safety net,
when garbage-collected. A closed object refuses further use with :class:`InvalidArgument` (a
``ValueError``) before reaching C. An object made from another (a request from a configuration, a
callback from a pending authorization) keeps it referenced, so objects may be closed in any order.
An object may be closed while other threads are calling it: their calls finish (or fail) on the intact
C handle, which is freed when the last of them returns.
"""
from __future__ import annotations

import ctypes
import sys
import threading
import weakref
from ctypes import addressof, c_char_p, c_int32, c_int64, c_size_t, c_void_p
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NoReturn, Optional, Sequence, Tuple, Type, TypeVar,
                    Union)

from . import _ffi

__all__ = [
    # objects
    "Config", "Pkce", "AuthorizationRequest", "PendingAuthorization", "Callback", "AppCallback", "Client",
    "IdPAppRequest", "IdPAppResponse",
    "AuthState", "LineAuth", "LoopbackListener",
    # errors
    "TelenoridError", "InvalidArgument", "Malformed", "ConfigurationError", "Insecure", "Unsupported",
    "ParameterConflict", "RandomFailure", "StateMismatch", "RedirectMismatch", "IssuerMismatch",
    "AuthorizationError", "Consumed", "VersionError", "Timeout", "NetworkError", "TLSError", "HTTPStatusError",
    "ResponseTooLarge", "InvalidResponse", "TokenInvalid", "AuthorizationLost", "NotSignedIn",
    "LineAuthUnavailable", "ClientRejected", "TemporarilyUnavailable",
    # functions
    "library_version", "library_version_number", "status_str", "status_is_transient",
]

__version__ = "0.1.0"

_lib = _ffi.lib
_string_free = _lib.telenorid_string_free
_char_p_at = c_char_p.from_address  # reads the char* held by a c_void_p without a ctypes call

# ------------------------------------------------------------------------------------------------------
# Errors: one base class, one subclass per status code, the OAuth fields as attributes
# ------------------------------------------------------------------------------------------------------


class TelenoridError(Exception):
    """A failed libtelenorid call.

    ``status`` is the C status code; ``message`` the library's readable message; ``oauth_error``,
    ``oauth_error_description`` and ``oauth_error_uri`` the provider's OAuth error fields when it sent
    them (else None); ``http_status`` the HTTP status of the response the error came from (None when
    there was none); ``retry_after`` the seconds a 429 or 503 answer asked to wait (None when it did not
    say).
    """

    code: int = -1  # the TELENORID_E_* value of the subclass

    def __init__(self, message: str, status: Optional[int] = None, oauth_error: Optional[str] = None,
                 oauth_error_description: Optional[str] = None, oauth_error_uri: Optional[str] = None,
                 http_status: Optional[int] = None, retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status: int = type(self).code if status is None else status
        self.oauth_error = oauth_error
        self.oauth_error_description = oauth_error_description
        self.oauth_error_uri = oauth_error_uri
        self.http_status = http_status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        """True when the same call may succeed later with nothing changed (the library's one rule)."""
        return status_is_transient(self.status)

    def __str__(self) -> str:
        if self.oauth_error and self.oauth_error not in self.message:
            return f"{self.message} ({self.oauth_error})"
        return self.message


class InvalidArgument(TelenoridError, ValueError):
    """TELENORID_E_INVALID_ARGUMENT: NULL, invalid UTF-8, out of range, too long — or a closed object."""
    code = 1


class Malformed(TelenoridError, ValueError):
    """TELENORID_E_MALFORMED: input that does not parse (URL, JSON, parameter)."""
    code = 2


class ConfigurationError(TelenoridError):
    """TELENORID_E_CONFIGURATION: the configuration lacks or misstates something."""
    code = 3


class Insecure(TelenoridError):
    """TELENORID_E_INSECURE: a URL that must be HTTPS (or loopback) is not."""
    code = 4


class Unsupported(TelenoridError):
    """TELENORID_E_UNSUPPORTED: refused by policy or not implemented (e.g. plain PKCE)."""
    code = 5


class ParameterConflict(TelenoridError):
    """TELENORID_E_PARAMETER_CONFLICT: an extra parameter would override one the library owns."""
    code = 6


class RandomFailure(TelenoridError):
    """TELENORID_E_RANDOM: the system's random generator failed."""
    code = 7


class StateMismatch(TelenoridError):
    """TELENORID_E_STATE_MISMATCH: a callback's state is not the pending request's."""
    code = 8


class RedirectMismatch(TelenoridError):
    """TELENORID_E_REDIRECT_MISMATCH: a callback did not arrive at the configured URI."""
    code = 9


class IssuerMismatch(TelenoridError):
    """TELENORID_E_ISSUER_MISMATCH: an `iss` (RFC 9207) or discovered issuer is not the configured one."""
    code = 10


class AuthorizationError(TelenoridError):
    """TELENORID_E_AUTHORIZATION_ERROR: the provider answered with an OAuth `error`."""
    code = 11


class Consumed(TelenoridError):
    """TELENORID_E_CONSUMED: a single-use object was used a second time."""
    code = 12


class VersionError(TelenoridError):
    """TELENORID_E_VERSION: serialized data of a version this library can't read."""
    code = 13


class Timeout(TelenoridError):
    """TELENORID_E_TIMEOUT: the server did not answer in time."""
    code = 14


class NetworkError(TelenoridError):
    """TELENORID_E_NETWORK: no connection — refused, reset, unreachable, unresolved."""
    code = 15


class TLSError(TelenoridError):
    """TELENORID_E_TLS: TLS handshake or certificate verification failed."""
    code = 16


class HTTPStatusError(TelenoridError):
    """TELENORID_E_HTTP_STATUS: an HTTP status the call does not accept."""
    code = 17


class ResponseTooLarge(TelenoridError):
    """TELENORID_E_RESPONSE_TOO_LARGE: a response body or its headers over the cap."""
    code = 18


class InvalidResponse(TelenoridError):
    """TELENORID_E_INVALID_RESPONSE: a response that is not what the protocol says."""
    code = 19


class TokenInvalid(TelenoridError):
    """TELENORID_E_TOKEN_INVALID: an ID token or signed response failed validation."""
    code = 20


class AuthorizationLost(TelenoridError):
    """TELENORID_E_AUTHORIZATION_LOST: the provider refused the refresh token; signed out."""
    code = 21


class NotSignedIn(TelenoridError):
    """TELENORID_E_NOT_SIGNED_IN: the auth state holds no usable authorization."""
    code = 22


class LineAuthUnavailable(TelenoridError):
    """TELENORID_E_LINE_AUTH_UNAVAILABLE: line authentication can't run: not on a cellular network (the
    socket hook said so; ask the user to turn Wi-Fi off) or no aloha_url configured."""
    code = 23


class ClientRejected(AuthorizationError):
    """TELENORID_E_CLIENT_REJECTED: the provider refused the client itself (``invalid_client``,
    ``unauthorized_client``): a mistyped or rotated secret, a revoked key. The user stays signed in."""
    code = 24


class TemporarilyUnavailable(HTTPStatusError):
    """TELENORID_E_TEMPORARILY_UNAVAILABLE: HTTP 5xx or 429 (or a redirect where an OAuth answer was
    expected), whatever OAuth error it carried; try again later, after ``retry_after`` seconds when set."""
    code = 25


_BY_STATUS: Dict[int, Type[TelenoridError]] = {
    cls.code: cls for cls in (
        InvalidArgument, Malformed, ConfigurationError, Insecure, Unsupported, ParameterConflict, RandomFailure,
        StateMismatch, RedirectMismatch, IssuerMismatch, AuthorizationError, Consumed, VersionError, Timeout,
        NetworkError, TLSError, HTTPStatusError, ResponseTooLarge, InvalidResponse, TokenInvalid,
        AuthorizationLost, NotSignedIn, LineAuthUnavailable, ClientRejected, TemporarilyUnavailable)
}


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode("utf-8", "replace")


def _error_for(status: int) -> TelenoridError:
    """The exception for a non-zero status, with this thread's last error (read right after the call)."""
    cls = _BY_STATUS.get(status, TelenoridError)
    error = _lib.telenorid_error_last()
    if not error:  # no error recorded on this thread: the library broke its contract; say what we know
        return cls(_text(_lib.telenorid_status_str(status)) or f"status {status}", status)
    try:
        if _lib.telenorid_error_status(error) != status:  # a stale record: don't attach its detail
            return cls(_text(_lib.telenorid_status_str(status)) or f"status {status}", status)
        return cls(_text(_lib.telenorid_error_message(error)) or "",
                   status,
                   _text(_lib.telenorid_error_oauth_error(error)),
                   _text(_lib.telenorid_error_oauth_description(error)),
                   _text(_lib.telenorid_error_oauth_uri(error)),
                   _lib.telenorid_error_http_status(error) or None,
                   _retry_after(_lib.telenorid_error_retry_after(error)))
    finally:
        _lib.telenorid_error_free(error)


def _retry_after(seconds: int) -> Optional[int]:
    return None if seconds < 0 else seconds


def _raise(status: int) -> NoReturn:
    raise _error_for(status)


def status_str(status: int) -> str:
    """The library's readable name for a status code, e.g. "state mismatch"."""
    text: bytes = _lib.telenorid_status_str(_int(status, "status"))
    return text.decode("utf-8", "replace")


def status_is_transient(status: int) -> bool:
    """True when a failure with this status may pass on its own (network, TLS, a server that could not
    answer now): the library's rule, asked rather than copied."""
    return bool(_lib.telenorid_status_is_transient(_int(status, "status")))


def library_version() -> str:
    """The loaded library's version string, e.g. "0.1.0"."""
    text: bytes = _lib.telenorid_version_string()
    return text.decode()


def library_version_number() -> int:
    """The loaded library's version as 0xMMmmpp."""
    return int(_lib.telenorid_version())


# ------------------------------------------------------------------------------------------------------
# Argument checks: wrong Python types are refused here, before C sees them
# ------------------------------------------------------------------------------------------------------


def _str(value: Any, name: str) -> bytes:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise InvalidArgument(f"{name} contains a NUL character, which a C string cannot carry")
    return value.encode("utf-8", "surrogatepass")  # a lone surrogate reaches C as invalid UTF-8, refused there


def _opt_str(value: Any, name: str) -> Optional[bytes]:
    return None if value is None else _str(value, name)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def _name(value: Any, table: Mapping[str, int], what: str) -> int:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    try:
        return table[value]
    except KeyError:
        raise ValueError(f"unknown {what} {value!r}; one of: {', '.join(table)}") from None


def _copy_out(out: c_void_p) -> Optional[str]:
    """Copies a string the library handed out, then lets the library wipe and free it."""
    if out.value is None:
        return None
    try:
        return _char_p_at(addressof(out)).value.decode("utf-8")  # type: ignore[union-attr]
    finally:
        _string_free(out)


# Outputs are passed as the object itself, not byref(object): for a POINTER(T) parameter ctypes passes a T
# instance by reference on its own, and skipping the byref() call saves about a tenth of a short call's cost.


def _string_call(function: Callable[..., int], *args: Any) -> Optional[str]:
    """Calls a function whose last parameter is `char **out` and returns the string (None for NULL)."""
    out = c_void_p()
    status = function(*args, out)
    if status:
        _raise(status)
    return _copy_out(out)


# ------------------------------------------------------------------------------------------------------
# Handles
# ------------------------------------------------------------------------------------------------------
#
# ctypes releases the GIL for the length of every C call, so one thread may close() a handle while another
# is inside C with it; the C contract forbids freeing a handle then. So every C call that takes a handle
# enters it first (counting a call in flight; refused with InvalidArgument once closed) and leaves it when C
# returns. close() marks the handle closed at once, and the C free happens when no call is in flight: in
# close() itself when the handle is idle (the usual case), else on the thread of the last call in flight, as
# that call returns.
#
# Deferring the free to the last call out, rather than making close() wait for the calls in flight as the JNI
# binding does (NativeObject.java), because in Python waiting would deadlock or hang where deferring cannot:
#   - close() from inside a call on the same handle: an AuthState change callback or a LineAuth socket hook
#     runs inside a C call, and may close that handle or any other handle the thread is inside a call on
#     (line_auth.apply(request) holds the request too). Telling those apart from a call on another thread,
#     to raise instead of deadlocking as JNI does, would need the thread's identity recorded on every call.
#   - weakref.finalize runs the finalizers of live objects at interpreter exit, when a daemon thread may be
#     blocked in C (LoopbackListener.wait, up to its timeout): waiting would hang the exit, freeing would be a
#     use after free; deferred, the handle is left to the process's end.
# The price: close() may return before the C handle is freed (and its secrets wiped) when another thread is
# mid-call; it is freed the moment that call returns.
#
# The count: entering takes a lock (the check that the handle is open and the count must be one step, or a
# close() could come between them); leaving does not: it is one list.pop(), atomic on its own, and takes the
# lock only when the handle was closed meanwhile (to decide, with close(), who frees). One plain lock pair a
# call, no object allocated. (Under the GIL this is exact. In a free-threaded build the unlocked check after
# the pop could miss a close() made at that moment: the handle would then leak, never be freed under a call.) One lock for all handles, not one each: a lock per handle would be one more allocation
# per handle (Pkce.new is on the benchmarked path); it guards a few attribute reads and a list.append only,
# never a C call, a free or Python code that could re-enter the binding, so sharing it costs nothing under the
# GIL and little without it, and cannot deadlock. `with`, not acquire()/release(): a KeyboardInterrupt between
# those two would leave every handle locked for good.
_lock = threading.Lock()


class _Native(list):  # type: ignore[type-arg]
    """A handle's C pointer, and (as the list's entries, one per call) its calls in flight. The handle's
    weakref.finalize holds this, not the handle, so that close(), garbage collection and interpreter exit all
    free through the same count. A list subclass so that handle and count are one allocation."""

    __slots__ = ("pointer", "owned", "release")

    pointer: Any  # None once closed: new calls are refused
    owned: Optional[Tuple[Any, ...]]  # release's arguments; None once released
    release: Callable[..., None]

    def close(self) -> None:
        """Closes now; frees now unless calls are in flight (then the last of them frees). Idempotent."""
        with _lock:
            self.pointer = None
            if self:  # calls in flight: the last one out frees
                return
            owned, self.owned = self.owned, None
        if owned is not None:  # outside the lock: the free may run Python code (ctypes callbacks dropped)
            self.release(*owned)


def _leave(native: _Native) -> None:
    """Ends a call entered as _Handle says, or with _enter_argument; frees a handle closed during the call."""
    native.pop()
    if native.pointer is None:
        _free_if_idle(native)


def _free_if_idle(native: _Native) -> None:
    """After a call on a closed handle returned: frees it if that was the last call (decided under the lock,
    so that exactly one of close() and the calls frees)."""
    with _lock:
        if native:
            return
        owned, native.owned = native.owned, None
    if owned is not None:
        native.release(*owned)


_H = TypeVar("_H", bound="_Handle")


class _Handle:
    """Owns one C handle, released once: by close(), the end of a ``with`` block or garbage collection.

    Every C call that takes its pointer enters it first: under _lock, read ``native.pointer`` (None: closed,
    raise) and ``native.append(None)``; then the C call inside ``try``; then ``finally: native.pop()`` and,
    when ``native.pointer`` became None meanwhile, ``_free_if_idle(native)``. The helpers _call and
    _string_call (this handle), _enter_argument/_leave and _call_on (a handle passed as an argument) do that;
    the methods on the benchmarked path inline it. Never hand the pointer to C without entering.
    """

    __slots__ = ("_native", "_parents", "_finalizer", "__weakref__")
    _free: Callable[[Any], None]

    _native: _Native
    _parents: Tuple[Any, ...]
    _finalizer: "weakref.finalize[Any, Any]"

    def __init__(self) -> None:  # pragma: no cover - subclasses construct through _adopt
        raise TypeError(f"{type(self).__name__} objects are made by the library; see the class documentation")

    @classmethod
    def _adopt(cls: Type[_H], pointer: Any, *parents: Any) -> _H:
        self = object.__new__(cls)
        self._parents = parents  # what this was made from stays referenced, as the C side keeps it alive
        self._own(pointer, cls._free)
        return self

    def _own(self, pointer: Any, release: Callable[..., None], *extra: Any) -> None:
        """Takes ownership of pointer, released by ``release(pointer, *extra)``."""
        native = self._native = _Native()  # attributes set here, not by an __init__: a call less per handle
        native.pointer = pointer
        native.owned = (pointer,) + extra
        native.release = release
        # weakref.finalize calls its function at most once, whoever asks first (close() or garbage
        # collection), and also at interpreter exit, wiping secrets; _Native.close frees at most once anyway.
        self._finalizer = weakref.finalize(self, native.close)

    @property
    def _pointer(self) -> Any:
        """The C pointer without entering a call (None once closed): for tests and benchmarks only."""
        return self._native.pointer

    def _enter(self) -> Any:
        """Enters a call (see the class documentation): the C pointer, counted as in flight until _leave."""
        native = self._native
        with _lock:
            pointer = native.pointer
            if pointer is not None:
                native.append(None)
        if pointer is None:
            self._closed()
        return pointer

    def _call(self, function: Callable[..., int], *args: Any) -> None:
        """``function(handle, *args)``, raising on a non-zero status."""
        pointer = self._enter()
        try:
            status = function(pointer, *args)
            if status:
                _raise(status)  # inside the call: the error is this thread's last, read before anything else
        finally:
            _leave(self._native)

    def _string_call(self, function: Callable[..., int], *args: Any) -> Optional[str]:
        """``function(handle, *args, &out)``'s string (None for NULL)."""
        pointer = self._enter()
        try:
            return _string_call(function, pointer, *args)
        finally:
            _leave(self._native)

    def _closed(self) -> NoReturn:
        raise InvalidArgument(f"this {type(self).__name__} is closed")

    @property
    def closed(self) -> bool:
        return self._native.pointer is None

    def close(self) -> None:
        """Releases the C handle (wiping any secrets it holds): now, or when calls that other threads have in
        flight on it return. Later calls raise InvalidArgument; a second close() does nothing."""
        self._finalizer()

    def __enter__(self: _H) -> _H:
        if self._native.pointer is None:
            self._closed()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._finalizer()  # close(), inlined: this is on every `with` block's path

    def __repr__(self) -> str:
        return f"<telenorid.{type(self).__name__}{' closed' if self._native.pointer is None else ''}>"


def _enter_argument(value: Any, cls: Type[_Handle], name: str) -> Any:
    """Entering (see _Handle) a handle passed as an argument: its C pointer, counted as a call in flight until
    _leave(value._native), so that closing it mid-call is as safe as closing the handle called."""
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be a telenorid.{cls.__name__}, not {type(value).__name__}")
    native = value._native
    with _lock:
        pointer = native.pointer
        if pointer is not None:
            native.append(None)
            return pointer
    raise InvalidArgument(f"{name}: this {cls.__name__} is closed")


def _call_on(value: Any, cls: Type[_Handle], name: str, function: Callable[..., int], *args: Any) -> None:
    """``function(handle, *args)`` on a handle passed as an argument (``value``), raising on a non-zero status."""
    pointer = _enter_argument(value, cls, name)
    try:
        status = function(pointer, *args)
        if status:
            _raise(status)
    finally:
        _leave(value._native)


_SettingValue = Union[str, int, bool, None]


class Config(_Handle):
    """An immutable client configuration; share it between threads.

    Make one with :meth:`from_settings` or :meth:`from_json`.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_config_free)

    @classmethod
    def from_settings(cls, **settings: _SettingValue) -> "Config":
        """``Config.from_settings(issuer=..., client_id=..., redirect_uri=..., scope="openid profile", ...)``

        Names are the header's TELENORID_CONFIG_* keys in lower case. Values are str; ``allow_plain_pkce``
        also takes a bool and the numeric settings (``*_ms``, ``*_s``, ``max_response_bytes``) an int;
        None leaves a setting unset. The library checks the values.
        """
        values = []
        for name, value in settings.items():
            key = _ffi.CONFIG_KEYS.get(name)
            if key is None:
                raise TypeError(f"unknown configuration setting {name!r}")
            if isinstance(value, bool):
                if key != _ffi.CONFIG_KEYS["allow_plain_pkce"]:
                    raise TypeError(f"{name} must be a str, not bool")
                value = "true" if value else "false"
            elif isinstance(value, int) and key in _NUMERIC_SETTINGS:
                value = str(value)
            values.append((key, _opt_str(value, name)))
        builder = _ffi.ConfigBuilderP()
        status = _lib.telenorid_config_builder_new(builder)
        if status:
            _raise(status)
        try:
            for key, encoded in values:
                status = _lib.telenorid_config_builder_set(builder, key, encoded)
                if status:
                    _raise(status)
            config = _ffi.ConfigP()
            status = _lib.telenorid_config_builder_build(builder, config)
            if status:
                _raise(status)
        finally:
            _lib.telenorid_config_builder_free(builder)
        return cls._adopt(config)

    @classmethod
    def from_json(cls, text: str, environment: Optional[str] = None) -> "Config":
        """A configuration from a JSON document: one object of settings, or
        ``{"default_environment": ..., "environments": {name: {...}}}`` with ``environment`` choosing one."""
        config = _ffi.ConfigP()
        status = _lib.telenorid_config_from_json(_str(text, "text"), _opt_str(environment, "environment"),
                                                 config)
        if status:
            _raise(status)
        return cls._adopt(config)

    def get(self, key: str) -> Optional[str]:
        """The value of a setting by name (e.g. "client_id"), or None when it is not set."""
        number = _name(key, _ffi.CONFIG_KEYS, "configuration key")
        return self._string_call(_lib.telenorid_config_get, number)


_NUMERIC_SETTINGS = frozenset(_ffi.CONFIG_KEYS[name] for name in (
    "connect_timeout_ms", "timeout_ms", "max_response_bytes", "clock_tolerance_s", "clock_offset_s",
    "jwks_max_age_s",
    "refresh_margin_s"))


class Pkce(_Handle):
    """A PKCE verifier (a secret, wiped when closed) and its S256 challenge (RFC 7636).

    ``Pkce.new(length=0)`` (or ``Pkce(length)``) draws a verifier of 43-128 characters (0: the library's
    default, 64); ``Pkce.from_verifier(text)`` takes one the caller has.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_pkce_free)

    def __new__(cls, length: int = 0) -> "Pkce":
        return cls.new(length)

    def __init__(self, length: int = 0) -> None:
        pass

    @classmethod
    def new(cls, length: int = 0) -> "Pkce":
        if type(length) is not int:
            length = _int(length, "length")  # an int subclass passes (not bool); anything else is TypeError
        if not 0 <= length <= _SIZE_MAX:  # size_t: a negative int would wrap around in ctypes
            raise InvalidArgument(f"length must be 0 or 43 to 128, not {length}")
        pointer = _PkceP()
        status = _lib.telenorid_pkce_new(length, pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @classmethod
    def from_verifier(cls, verifier: str) -> "Pkce":
        pointer = _ffi.PkceP()
        status = _lib.telenorid_pkce_from_verifier(_str(verifier, "verifier"), pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @property
    def verifier(self) -> str:
        """The verifier: send it only to the token endpoint."""
        return self._string_call(_pkce_verifier) or ""

    @property
    def challenge(self) -> str:
        """The S256 challenge."""
        return self._string_call(_pkce_challenge) or ""


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_PkceP = _ffi.PkceP
_pkce_verifier = _lib.telenorid_pkce_verifier
_pkce_challenge = _lib.telenorid_pkce_challenge

_ParamValue = Union[str, int, None]


class AuthorizationRequest(_Handle):
    """An authorization request being put together for a :class:`Config`; the library serializes calls on it.

    ``AuthorizationRequest(config, prompt="login", max_age=600)`` sets known parameters as keywords;
    :meth:`set` does the same one at a time. Every setter returns the request, so calls chain.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_auth_request_free)

    def __new__(cls, config: Config, **params: _ParamValue) -> "AuthorizationRequest":
        pointer = _ffi.AuthRequestP()
        _call_on(config, Config, "config", _lib.telenorid_auth_request_new, pointer)
        self = cls._adopt(pointer, config)
        if params:
            try:
                self.update(**params)
            except BaseException:
                self.close()
                raise
        return self

    def __init__(self, config: Config, **params: _ParamValue) -> None:
        pass

    @property
    def config(self) -> Config:
        """The configuration this request was made for."""
        config: Config = self._parents[0]
        return config

    def set(self, param: str, value: _ParamValue) -> "AuthorizationRequest":
        """Sets a known parameter — scope, prompt, login_hint, ui_locales, acr_values, max_age (an int or
        decimal str), aloha_token, claims_purpose, response_mode — or clears it with None."""
        number = _name(param, _ffi.AUTH_PARAMS, "authorization parameter")
        if isinstance(value, int) and not isinstance(value, bool) and number == _ffi.AUTH_PARAMS["max_age"]:
            value = str(value)
        encoded = _opt_str(value, param)
        self._call(_lib.telenorid_auth_request_set, number, encoded)
        return self

    def update(self, **params: _ParamValue) -> "AuthorizationRequest":
        """Sets several known parameters: ``request.update(prompt="login", ui_locales="nb en")``."""
        for param, value in params.items():
            if param not in _ffi.AUTH_PARAMS:
                raise TypeError(f"unknown authorization parameter {param!r}; use add_parameter for extra ones")
            self.set(param, value)
        return self

    def add_parameter(self, name: str, value: str) -> "AuthorizationRequest":
        """Adds an extra parameter, sent as given; one the library owns raises :class:`ParameterConflict`."""
        encoded_name, encoded_value = _str(name, "name"), _str(value, "value")
        self._call(_lib.telenorid_auth_request_add_parameter, encoded_name, encoded_value)
        return self

    def add_parameters(self, parameters: Union[Mapping[str, str], Iterable[Sequence[str]]]) -> "AuthorizationRequest":
        items = parameters.items() if isinstance(parameters, Mapping) else parameters
        for name, value in items:
            self.add_parameter(name, value)
        return self

    def add_claim(self, target: str, name: str, essential: Optional[bool] = None, purpose: Optional[str] = None,
                  value: Any = None, values: Optional[Sequence[Any]] = None) -> "AuthorizationRequest":
        """Requests one claim in the OIDC ``claims`` parameter, for ``target`` "id_token" or "userinfo".
        ``value`` (any JSON value) and ``values`` (a list) are sent as JSON (``json.dumps``)."""
        import json

        number = _name(target, _ffi.CLAIM_TARGETS, "claim target")
        if essential is not None and not isinstance(essential, bool):
            raise TypeError(f"essential must be a bool or None, not {type(essential).__name__}")
        if values is not None and (isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence)):
            raise TypeError(f"values must be a list, not {type(values).__name__}")
        encoded_name, encoded_purpose = _str(name, "name"), _opt_str(purpose, "purpose")
        value_json = None if value is None else _str(json.dumps(value), "value")
        values_json = None if values is None else _str(json.dumps(list(values)), "values")
        self._call(_lib.telenorid_auth_request_add_claim, number, encoded_name,
                   -1 if essential is None else int(essential), encoded_purpose, value_json, values_json)
        return self

    def set_app_to_app(self, app_callback_uri: str) -> "AuthorizationRequest":
        """Asks for Vipps/MobilePay's app-to-app flow, returning to ``app_callback_uri``."""
        encoded = _str(app_callback_uri, "app_callback_uri")
        self._call(_lib.telenorid_auth_request_set_app_to_app, encoded)
        return self

    def set_pkce_method(self, method: str) -> "AuthorizationRequest":
        """"S256" (the default) or "plain" (refused unless the configuration allows it)."""
        number = _name(method, _ffi.PKCE_METHODS, "PKCE method")
        self._call(_lib.telenorid_auth_request_set_pkce_method, number)
        return self

    def build(self) -> "PendingAuthorization":
        """Draws state, nonce and PKCE verifier and builds the URL. The request stays usable."""
        pending = _ffi.PendingAuthP()
        self._call(_auth_request_build, pending)
        return PendingAuthorization._adopt(pending, self._parents[0])


_auth_request_build = _lib.telenorid_auth_request_build


class PendingAuthorization(_Handle):
    """The authorization URL to open and the secrets to check its answer with; shareable between threads.

    Made by :meth:`AuthorizationRequest.build` or :meth:`restore`.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_pending_auth_free)

    def _string(self, function: Callable[..., int]) -> str:
        return self._string_call(function) or ""

    @property
    def url(self) -> str:
        """The authorization URL to open in the system browser."""
        return self._string(_pending_url)

    @property
    def state(self) -> str:
        return self._string(_pending_state)

    @property
    def nonce(self) -> str:
        return self._string(_pending_nonce)

    @property
    def code_verifier(self) -> str:
        """The PKCE verifier (a secret) for the token request."""
        return self._string(_pending_code_verifier)

    def serialize(self) -> str:
        """Versioned JSON to restore from after the app was killed; it holds the verifier: keep it private."""
        return self._string(_lib.telenorid_pending_auth_serialize)

    @classmethod
    def restore(cls, config: Config, json: str) -> "PendingAuthorization":
        """Restores :meth:`serialize`'s output for ``config``."""
        encoded = _str(json, "json")
        pending = _ffi.PendingAuthP()
        _call_on(config, Config, "config", _lib.telenorid_pending_auth_restore, encoded, pending)
        return cls._adopt(pending, config)

    def handle_callback(self, url: str) -> "Callback":
        """Validates the redirect the app received; consumes this pending authorization on success.
        An OAuth ``error`` answer raises :class:`AuthorizationError` with the provider's fields."""
        encoded = _str(url, "url")
        callback = _ffi.CallbackP()
        self._call(_handle_callback, encoded, callback)
        return Callback._adopt(callback, self)

    def handle_app_callback(self, url: str, allowed_resume_host: Optional[str] = None) -> "AppCallback":
        """Checks what the Vipps/MobilePay app opened at the app callback URI. Does not consume."""
        encoded, host = _str(url, "url"), _opt_str(allowed_resume_host, "allowed_resume_host")
        callback = _ffi.AppCallbackP()
        self._call(_lib.telenorid_pending_auth_handle_app_callback, encoded, host, callback)
        return AppCallback._adopt(callback, self)

    def handle_idp_response(self, response: Union[str, Dict[str, str]],
                             allowed_login_hosts: Sequence[str] = ()) -> Callback:
        """SP side: checks the IdP app's response (a URL or a bundle); consumes this pending authorization."""
        if self._native.pointer is None:  # refused before the arguments are converted, as before
            self._closed()
        array, count = _string_array(allowed_login_hosts, "allowed_login_hosts")
        callback = _ffi.CallbackP()
        if isinstance(response, str):
            self._call(_lib.telenorid_pending_auth_handle_idp_response_url, _str(response, "url"), array, count,
                       callback)
        else:
            params = _params_in(response)
            try:
                self._call(_lib.telenorid_pending_auth_handle_idp_response_params, params, array, count, callback)
            finally:
                _lib.telenorid_params_free(params)
        return Callback._adopt(callback, self)


_pending_url = _lib.telenorid_pending_auth_url
_pending_state = _lib.telenorid_pending_auth_state
_pending_nonce = _lib.telenorid_pending_auth_nonce
_pending_code_verifier = _lib.telenorid_pending_auth_code_verifier
_handle_callback = _lib.telenorid_pending_auth_handle_callback


class Callback(_Handle):
    """A validated redirect; :meth:`Client.exchange_code` takes it."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_callback_free)

    @property
    def code(self) -> str:
        """The authorization code."""
        return self._string_call(_callback_code) or ""

    def parameter(self, name: str) -> Optional[str]:
        """Any parameter of the callback by name (e.g. "scope"), or None when absent."""
        encoded = _str(name, "name")
        return self._string_call(_lib.telenorid_callback_parameter, encoded)


_callback_code = _lib.telenorid_callback_code


class AppCallback(_Handle):
    """The Vipps/MobilePay app's return to the merchant app."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_app_callback_free)

    @property
    def resume_uri(self) -> Optional[str]:
        """The ``resume_uri`` to open in the same browser, or None when the provider sent none."""
        return self._string_call(_lib.telenorid_app_callback_resume_uri)


# ------------------------------------------------------------------------------------------------------
# Identity-provider app flow (Salesforce Mobile SDK identity provider). Bundles are dict[str, str]; the pairs cross as telenorid_params.
# ------------------------------------------------------------------------------------------------------


def _params_in(bundle: Any) -> Any:
    """A new telenorid_params holding a dict's pairs; the caller frees it."""
    if not isinstance(bundle, dict):
        raise TypeError(f"bundle must be a dict[str, str], not {type(bundle).__name__}")
    pointer = _ffi.ParamsP()
    status = _lib.telenorid_params_new(pointer)
    if status:
        _raise(status)
    for name, value in bundle.items():
        status = _lib.telenorid_params_add(pointer, _str(name, "bundle key"), _str(value, "bundle value"))
        if status:
            _lib.telenorid_params_free(pointer)
            _raise(status)
    return pointer


def _params_out(pointer: Any) -> Dict[str, str]:
    """The pairs of a telenorid_params as a dict, freeing it."""
    try:
        count = c_size_t()
        status = _lib.telenorid_params_count(pointer, ctypes.byref(count))
        if status:
            _raise(status)
        return {_string_call(_lib.telenorid_params_name, pointer, index) or "":
                _string_call(_lib.telenorid_params_value, pointer, index) or ""
                for index in range(count.value)}
    finally:
        _lib.telenorid_params_free(pointer)


def _string_array(values: Sequence[str], name: str) -> Tuple[Any, int]:
    if isinstance(values, str):
        raise TypeError(f"{name} must be a sequence of str, not one str")
    encoded = [_str(value, name) for value in values]
    return (c_char_p * len(encoded))(*encoded), len(encoded)


class IdPAppRequest(_Handle):
    """The request a service-provider app sends an identity-provider app. The SP makes it with
    :meth:`for_pending`; the IdP app parses it with :meth:`parse_url` or :meth:`parse_bundle`."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_idp_request_free)

    @classmethod
    def for_pending(cls, pending: PendingAuthorization, login_host: Optional[str] = None,
                    user_hint: Optional[str] = None) -> "IdPAppRequest":
        host, hint = _opt_str(login_host, "login_host"), _opt_str(user_hint, "user_hint")
        pointer = _ffi.IdPRequestP()
        _call_on(pending, PendingAuthorization, "pending", _lib.telenorid_idp_request_new, host, hint, pointer)
        return cls._adopt(pointer, pending)

    @classmethod
    def parse_url(cls, url: str, idp_app_uri: str, caller_redirect_uris: Sequence[str]) -> "IdPAppRequest":
        array, count = _string_array(caller_redirect_uris, "caller_redirect_uris")
        pointer = _ffi.IdPRequestP()
        status = _lib.telenorid_idp_request_parse_url(_str(url, "url"), _str(idp_app_uri, "idp_app_uri"),
                                                      array, count, pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @classmethod
    def parse_bundle(cls, bundle: Dict[str, str], caller_redirect_uris: Sequence[str]) -> "IdPAppRequest":
        array, count = _string_array(caller_redirect_uris, "caller_redirect_uris")
        params = _params_in(bundle)
        try:
            pointer = _ffi.IdPRequestP()
            status = _lib.telenorid_idp_request_parse_params(params, array, count, pointer)
        finally:
            _lib.telenorid_params_free(params)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    def url(self, idp_app_uri: str) -> str:
        """The request as a URL on the IdP app's URI (iOS)."""
        return self._string_call(_lib.telenorid_idp_request_url, _str(idp_app_uri, "idp_app_uri")) or ""

    def bundle(self) -> Dict[str, str]:
        """The request as key-value pairs (an Android intent bundle)."""
        pointer = _ffi.ParamsP()
        self._call(_lib.telenorid_idp_request_params, pointer)
        return _params_out(pointer)

    def authorization_url(self, authorization_endpoint: str) -> str:
        """IdP side: the provider URL that asks for a code on the SP's behalf."""
        return self._string_call(_lib.telenorid_idp_request_authorization_url,
                            _str(authorization_endpoint, "authorization_endpoint")) or ""

    def respond(self, provider_redirect_url: str, login_host: str) -> "IdPAppResponse":
        """IdP side: the provider's redirect turned into the response for the SP."""
        pointer = _ffi.IdPResponseP()
        self._call(_lib.telenorid_idp_request_respond, _str(provider_redirect_url, "provider_redirect_url"),
                   _str(login_host, "login_host"), pointer)
        return IdPAppResponse._adopt(pointer, self)


class IdPAppResponse(_Handle):
    """What the IdP app sends back: the code (or an error), the login host and the SP's state."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_idp_response_free)

    def url(self) -> str:
        """The response as a URL on the SP's redirect URI (iOS)."""
        return self._string_call(_lib.telenorid_idp_response_url) or ""

    def bundle(self) -> Dict[str, str]:
        """The response as key-value pairs (an Android intent bundle)."""
        pointer = _ffi.ParamsP()
        self._call(_lib.telenorid_idp_response_params, pointer)
        return _params_out(pointer)


class Client(_Handle):
    """One provider: discovery, keys and HTTP connections. Share it between threads. Its calls block."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_client_free)

    def __new__(cls, config: Config) -> "Client":
        pointer = _ffi.ClientP()
        _call_on(config, Config, "config", _lib.telenorid_client_new, pointer)
        return cls._adopt(pointer, config)

    def __init__(self, config: Config) -> None:
        pass

    def discover(self) -> None:
        """Fetches and checks the provider's metadata now."""
        self._call(_lib.telenorid_client_discover)

    def config(self) -> Config:
        """The configuration with discovered endpoints filled in, for :class:`AuthorizationRequest`."""
        config = _ffi.ConfigP()
        self._call(_lib.telenorid_client_config, config)
        return Config._adopt(config)

    def exchange_code(self, callback: Callback) -> "AuthState":
        """Exchanges a validated callback's code for tokens and validates the ID token."""
        state = _ffi.AuthStateP()
        callback_pointer = _enter_argument(callback, Callback, "callback")  # closing it mid-call is safe too
        try:
            self._call(_lib.telenorid_client_exchange_code, callback_pointer, state)
        finally:
            _leave(callback._native)
        return AuthState._adopt(state, self)

    def verify_id_token(self, id_token: str, nonce: Optional[str] = None) -> Dict[str, Any]:
        """Validates an ID token with the provider's keys (signature, iss, aud, azp, exp, iat, nbf and the
        nonce when given) and returns ``{"header": {...}, "claims": {...}}``; raises TokenInvalid."""
        import json

        text = self._string_call(_lib.telenorid_client_verify_id_token, _str(id_token, "id_token"),
                            _opt_str(nonce, "nonce"))
        verified: Dict[str, Any] = json.loads(text or "{}")
        return verified

    def restore(self, json: str) -> "AuthState":
        """Restores :meth:`AuthState.serialize`'s output for this client."""
        encoded = _str(json, "json")
        state = _ffi.AuthStateP()
        self._call(_lib.telenorid_auth_state_restore, encoded, state)
        return AuthState._adopt(state, self)

    def open_auth_state_file(self, path: str) -> "AuthState":
        """The auth state kept in the file at ``path`` (signed out when there is none yet), bound to it: see
        :meth:`AuthState.bind_file`. Processes that open the same file share one sign-in safely."""
        encoded = _str(path, "path")
        state = _ffi.AuthStateP()
        self._call(_lib.telenorid_auth_state_open_file, encoded, state)
        return AuthState._adopt(state, self)


def _free_auth_state(pointer: Any, keep_alive: List[Any]) -> None:
    _lib.telenorid_auth_state_free(pointer)
    keep_alive.clear()  # the change callback may go only once C can no longer call it


class AuthState(_Handle):
    """A signed-in user's tokens; shareable between threads. Made by :class:`Client`."""

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_lib.telenorid_auth_state_free)
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
        return self._string_call(_lib.telenorid_auth_state_fresh_access_token) or ""

    def refresh(self) -> None:
        self._call(_lib.telenorid_auth_state_refresh)

    @property
    def signed_in(self) -> bool:
        flag = c_int32()
        self._call(_lib.telenorid_auth_state_is_signed_in, flag)
        return bool(flag.value)

    def get(self, field: str) -> Optional[str]:
        """access_token, refresh_token, id_token, id_token_claims (JSON), scope or token_type; None if absent."""
        number = _name(field, _ffi.TOKEN_FIELDS, "token field")
        return self._string_call(_lib.telenorid_auth_state_get, number)

    @property
    def id_token_claims(self) -> Optional[Dict[str, Any]]:
        import json

        text = self.get("id_token_claims")
        claims: Optional[Dict[str, Any]] = json.loads(text) if text else None
        return claims

    @property
    def expires_at(self) -> Optional[int]:
        """The access token's expiry in Unix seconds, or None when unknown or signed out."""
        value = c_int64()
        self._call(_lib.telenorid_auth_state_expires_at, value)
        return value.value or None

    def userinfo(self) -> Dict[str, Any]:
        import json

        claims: Dict[str, Any] = json.loads(self._string_call(_lib.telenorid_auth_state_userinfo) or "{}")
        return claims

    def check(self) -> None:
        """Is the grant still alive? Asks userinfo (rotating nothing) and refreshes only when it must.
        Returns when alive; raises AuthorizationLost (now signed out), NotSignedIn, or a transient error."""
        self._call(_lib.telenorid_auth_state_check)

    def access_token_rejected(self, access_token: Optional[str] = None) -> None:
        """Reports that a resource server refused ``access_token`` (None: the current one) with 401, so the
        next :meth:`fresh_access_token` refreshes. A token already replaced changes nothing."""
        self._call(_lib.telenorid_auth_state_access_token_rejected, _opt_str(access_token, "access_token"))

    def revoke(self) -> None:
        """Signs out, then revokes the grant at the provider; the state stays signed out if that fails."""
        self._call(_lib.telenorid_auth_state_revoke)

    def bind_file(self, path: str) -> None:
        """Keeps the state in the file at ``path`` from now on (0600, replaced atomically); every refresh
        locks it and uses another process's refresh instead of redeeming one refresh token twice."""
        self._call(_lib.telenorid_auth_state_bind_file, _str(path, "path"))

    def end_session_url(self, post_logout_redirect_uri: Optional[str] = None, state: Optional[str] = None) -> str:
        redirect = _opt_str(post_logout_redirect_uri, "post_logout_redirect_uri")
        logout_state = _opt_str(state, "state")
        return self._string_call(_lib.telenorid_auth_state_end_session_url, redirect, logout_state) or ""

    def serialize(self) -> str:
        """Versioned JSON holding the refresh token: keep it in secure storage."""
        return self._string_call(_lib.telenorid_auth_state_serialize) or ""

    def on_change(self, callback: Optional[Callable[[], None]]) -> None:
        """Calls ``callback()`` after every change to persist (refresh, rotation, sign-out), on the thread
        that made it. None removes it. An exception it raises is reported by sys.unraisablehook."""
        if self._native.pointer is None:  # refused before the callback is checked
            self._closed()
        if callback is None:
            self._call(_lib.telenorid_auth_state_set_change_callback, _ffi.AuthStateCallback(), None)
            return
        if not callable(callback):
            raise TypeError("callback must be callable or None")

        def trampoline(_user_data: Any) -> None:
            try:
                callback()
            except BaseException as error:  # an exception cannot unwind through C
                sys.unraisablehook(_Unraisable(error, callback))  # type: ignore[arg-type]

        c_callback = _ffi.AuthStateCallback(trampoline)
        self._call(_lib.telenorid_auth_state_set_change_callback, c_callback, None)
        # Kept until the C state is freed (by the finalizer), not just until the next on_change: C may be
        # calling the previous one on another thread right now.
        self._keep_alive.append(c_callback)


class _Unraisable:
    def __init__(self, error: BaseException, obj: Any) -> None:
        self.exc_type = type(error)
        self.exc_value = error
        self.exc_traceback = error.__traceback__
        self.err_msg = "Exception ignored in telenorid AuthState.on_change callback"
        self.object = obj


def _free_line_auth(pointer: Any, keep_alive: List[Any]) -> None:
    _lib.telenorid_line_auth_free(pointer)
    keep_alive.clear()  # the socket hook may go only once C can no longer call it


class LineAuth(_Handle):
    """TelenorID+ line authentication through Aloha; shareable between threads, its calls block.

    ``run()`` in a background thread before sign-in; ``apply(request)`` at sign-in sets ``aloha_token``
    from a still-valid session or runs the exchange first. Needs the ``aloha_url`` setting.
    """

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_lib.telenorid_line_auth_free)
    _keep_alive: List[Any]

    def __new__(cls, config: Config) -> "LineAuth":
        pointer = _ffi.LineAuthP()
        _call_on(config, Config, "config", _lib.telenorid_line_auth_new, pointer)
        self = object.__new__(cls)
        self._parents = (config,)
        self._keep_alive = []
        self._own(pointer, _free_line_auth, self._keep_alive)
        return self

    def __init__(self, config: Config) -> None:
        pass

    def run(self) -> None:
        """Runs one whole exchange now and keeps the session."""
        self._call(_lib.telenorid_line_auth_run)

    @property
    def valid_for(self) -> int:
        """Seconds the kept session is still valid for; 0 when there is none."""
        value = c_int64()
        self._call(_lib.telenorid_line_auth_valid_for, value)
        return value.value

    def apply(self, request: "AuthorizationRequest") -> None:
        """Sets ``aloha_token`` on ``request``; on failure raises and leaves the request as it was, so the
        caller may catch the error, tell the user, and sign in without line authentication."""
        request_pointer = _enter_argument(request, AuthorizationRequest, "request")  # closing it mid-call is safe too
        try:
            self._call(_lib.telenorid_line_auth_apply, request_pointer)
        finally:
            _leave(request._native)

    def set_socket_hook(self, hook: Optional[Callable[[int], str]]) -> None:
        """Calls ``hook(fd)`` with each socket before it connects; it returns "allow", "refuse" or
        "not_cellular" (anything else, or an exception, refuses). None removes it."""
        if self._native.pointer is None:  # refused before the hook is checked
            self._closed()
        if hook is None:
            self._call(_lib.telenorid_line_auth_set_socket_hook, _ffi.SocketHook(), None)
            return
        if not callable(hook):
            raise TypeError("hook must be callable or None")

        def trampoline(_user_data: Any, fd: int) -> int:
            try:
                return _ffi.SOCKET_VERDICTS.get(hook(fd), 1)
            except BaseException as error:  # an exception cannot unwind through C
                sys.unraisablehook(_Unraisable(error, hook))  # type: ignore[arg-type]
                return 1

        c_hook = _ffi.SocketHook(trampoline)
        self._call(_lib.telenorid_line_auth_set_socket_hook, c_hook, None)
        # Kept until the C handle is freed: an exchange on another thread may still hold the old hook.
        self._keep_alive.append(c_hook)


class LoopbackListener(_Handle):
    """A loopback redirect listener (RFC 8252 §7.3) on 127.0.0.1, for desktop and command-line sign-in:
    configure :attr:`redirect_uri` as the redirect URI, open the authorization URL in a browser, then
    :meth:`wait` for the redirect and pass it to :meth:`PendingAuthorization.handle_callback`."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_loopback_free)

    def __new__(cls, port: int = 0, path: Optional[str] = None) -> "LoopbackListener":
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise TypeError("port must be an int from 0 to 65535")
        pointer = _ffi.LoopbackP()
        status = _lib.telenorid_loopback_new(port, _opt_str(path, "path"), pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    def __init__(self, port: int = 0, path: Optional[str] = None) -> None:
        pass

    @property
    def redirect_uri(self) -> str:
        """``http://127.0.0.1:<port><path>``."""
        return self._string_call(_lib.telenorid_loopback_redirect_uri) or ""

    def wait(self, timeout: float = 300.0) -> str:
        """Blocks until the browser's redirect arrives (its full URL) or raises Timeout, after which it can
        wait again. A listener hands out one redirect; a later wait raises Consumed."""
        milliseconds = int(timeout * 1000)
        if not 0 < milliseconds <= 0x7FFFFFFF:
            raise ValueError("timeout must be positive and under 24 days")
        return self._string_call(_lib.telenorid_loopback_wait, milliseconds) or ""

    def expect_state(self, state: Optional[str]) -> None:
        """Only a callback whose query carries exactly ``state`` (the pending request's) ends the wait; others
        are answered 400 and the wait goes on. None accepts any. Also from another thread during a wait.
        Query responses only: with ``response_mode=fragment`` the state never reaches the listener."""
        self._call(_lib.telenorid_loopback_expect_state, _opt_str(state, "state"))

