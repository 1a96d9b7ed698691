"""telenorid: an OpenID Connect client for native apps, through libtelenorid's C API (include/telenorid.h).

A thin binding: every class wraps one C handle and every method is one C call (plus copying strings out
and mapping status codes to exceptions). The protocol work — PKCE, URL building, callback validation,
tokens — happens in the library.

Handles are released at the end of a ``with`` block, on ``close()`` (idempotent) or, as a safety net,
when garbage-collected. A closed object refuses further use with :class:`InvalidArgument` (a
``ValueError``) before reaching C. An object made from another (a request from a configuration, a
callback from a pending authorization) keeps it referenced, so objects may be closed in any order.
Do not ``close()`` an object while another thread is still calling it.
"""
from __future__ import annotations

import ctypes
import sys
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
    "LineAuthUnavailable",
    # functions
    "library_version", "library_version_number", "status_str",
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
    there was none).
    """

    code: int = -1  # the TELENORID_E_* value of the subclass

    def __init__(self, message: str, status: Optional[int] = None, oauth_error: Optional[str] = None,
                 oauth_error_description: Optional[str] = None, oauth_error_uri: Optional[str] = None,
                 http_status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status: int = type(self).code if status is None else status
        self.oauth_error = oauth_error
        self.oauth_error_description = oauth_error_description
        self.oauth_error_uri = oauth_error_uri
        self.http_status = http_status

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


_BY_STATUS: Dict[int, Type[TelenoridError]] = {
    cls.code: cls for cls in (
        InvalidArgument, Malformed, ConfigurationError, Insecure, Unsupported, ParameterConflict, RandomFailure,
        StateMismatch, RedirectMismatch, IssuerMismatch, AuthorizationError, Consumed, VersionError, Timeout,
        NetworkError, TLSError, HTTPStatusError, ResponseTooLarge, InvalidResponse, TokenInvalid,
        AuthorizationLost, NotSignedIn, LineAuthUnavailable)
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
                   _lib.telenorid_error_http_status(error) or None)
    finally:
        _lib.telenorid_error_free(error)


def _raise(status: int) -> NoReturn:
    raise _error_for(status)


def status_str(status: int) -> str:
    """The library's readable name for a status code, e.g. "state mismatch"."""
    text: bytes = _lib.telenorid_status_str(_int(status, "status"))
    return text.decode("utf-8", "replace")


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

_H = TypeVar("_H", bound="_Handle")


class _Handle:
    """Owns one C handle, released once: by close(), the end of a ``with`` block or garbage collection."""

    __slots__ = ("_pointer", "_parents", "_finalizer", "__weakref__")
    _free: Callable[[Any], None]

    _pointer: Any
    _parents: Tuple[Any, ...]
    _finalizer: "weakref.finalize[Any, Any]"

    def __init__(self) -> None:  # pragma: no cover - subclasses construct through _adopt
        raise TypeError(f"{type(self).__name__} objects are made by the library; see the class documentation")

    @classmethod
    def _adopt(cls: Type[_H], pointer: Any, *parents: Any) -> _H:
        self = object.__new__(cls)
        self._pointer = pointer
        self._parents = parents  # what this was made from stays referenced, as the C side keeps it alive
        # weakref.finalize calls its function at most once, whoever asks first: close() and garbage
        # collection can't free twice. It also runs at interpreter exit, wiping secrets.
        self._finalizer = weakref.finalize(self, cls._free, pointer)
        return self

    def _ptr(self) -> Any:
        pointer = self._pointer
        if pointer is None:
            self._closed()
        return pointer

    def _closed(self) -> NoReturn:
        raise InvalidArgument(f"this {type(self).__name__} is closed")

    @property
    def closed(self) -> bool:
        return self._pointer is None

    def close(self) -> None:
        """Releases the C handle now (wiping any secrets it holds). Further calls are no-ops."""
        self._pointer = None
        self._finalizer()

    def __enter__(self: _H) -> _H:
        if self._pointer is None:
            self._closed()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._pointer = None  # close(), inlined: this is on every `with` block's path
        self._finalizer()

    def __repr__(self) -> str:
        return f"<telenorid.{type(self).__name__}{' closed' if self._pointer is None else ''}>"


def _handle_of(value: Any, cls: Type[_Handle], name: str) -> Any:
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be a telenorid.{cls.__name__}, not {type(value).__name__}")
    pointer = value._pointer
    if pointer is None:
        raise InvalidArgument(f"{name}: this {cls.__name__} is closed")
    return pointer


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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        return _string_call(_lib.telenorid_config_get, pointer, number)


_NUMERIC_SETTINGS = frozenset(_ffi.CONFIG_KEYS[name] for name in (
    "connect_timeout_ms", "timeout_ms", "max_response_bytes", "clock_tolerance_s", "clock_offset_s",
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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        out = c_void_p()
        status = _pkce_verifier(pointer, out)
        if status:
            _raise(status)
        return _copy_out(out) or ""

    @property
    def challenge(self) -> str:
        """The S256 challenge."""
        pointer = self._pointer
        if pointer is None:
            self._closed()
        out = c_void_p()
        status = _pkce_challenge(pointer, out)
        if status:
            _raise(status)
        return _copy_out(out) or ""


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_PkceP = _ffi.PkceP
_pkce_verifier = _lib.telenorid_pkce_verifier
_pkce_challenge = _lib.telenorid_pkce_challenge

_ParamValue = Union[str, int, None]


class AuthorizationRequest(_Handle):
    """An authorization request being put together for a :class:`Config`; one thread at a time.

    ``AuthorizationRequest(config, prompt="login", max_age=600)`` sets known parameters as keywords;
    :meth:`set` does the same one at a time. Every setter returns the request, so calls chain.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_auth_request_free)

    def __new__(cls, config: Config, **params: _ParamValue) -> "AuthorizationRequest":
        pointer = _ffi.AuthRequestP()
        status = _lib.telenorid_auth_request_new(_handle_of(config, Config, "config"), pointer)
        if status:
            _raise(status)
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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        status = _lib.telenorid_auth_request_set(pointer, number, encoded)
        if status:
            _raise(status)
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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        status = _lib.telenorid_auth_request_add_parameter(pointer, encoded_name, encoded_value)
        if status:
            _raise(status)
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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        status = _lib.telenorid_auth_request_add_claim(pointer, number, encoded_name,
                                                       -1 if essential is None else int(essential),
                                                       encoded_purpose, value_json, values_json)
        if status:
            _raise(status)
        return self

    def set_app_to_app(self, app_callback_uri: str) -> "AuthorizationRequest":
        """Asks for Vipps/MobilePay's app-to-app flow, returning to ``app_callback_uri``."""
        encoded = _str(app_callback_uri, "app_callback_uri")
        pointer = self._pointer
        if pointer is None:
            self._closed()
        status = _lib.telenorid_auth_request_set_app_to_app(pointer, encoded)
        if status:
            _raise(status)
        return self

    def set_pkce_method(self, method: str) -> "AuthorizationRequest":
        """"S256" (the default) or "plain" (refused unless the configuration allows it)."""
        number = _name(method, _ffi.PKCE_METHODS, "PKCE method")
        pointer = self._pointer
        if pointer is None:
            self._closed()
        status = _lib.telenorid_auth_request_set_pkce_method(pointer, number)
        if status:
            _raise(status)
        return self

    def build(self) -> "PendingAuthorization":
        """Draws state, nonce and PKCE verifier and builds the URL. The request stays usable."""
        pointer = self._pointer
        if pointer is None:
            self._closed()
        pending = _ffi.PendingAuthP()
        status = _auth_request_build(pointer, pending)
        if status:
            _raise(status)
        return PendingAuthorization._adopt(pending, self._parents[0])


_auth_request_build = _lib.telenorid_auth_request_build


class PendingAuthorization(_Handle):
    """The authorization URL to open and the secrets to check its answer with; shareable between threads.

    Made by :meth:`AuthorizationRequest.build` or :meth:`restore`.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_pending_auth_free)

    def _string(self, function: Callable[..., int]) -> str:
        pointer = self._pointer
        if pointer is None:
            self._closed()
        out = c_void_p()
        status = function(pointer, out)
        if status:
            _raise(status)
        return _copy_out(out) or ""

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
        config_pointer = _handle_of(config, Config, "config")
        pending = _ffi.PendingAuthP()
        status = _lib.telenorid_pending_auth_restore(config_pointer, _str(json, "json"), pending)
        if status:
            _raise(status)
        return cls._adopt(pending, config)

    def handle_callback(self, url: str) -> "Callback":
        """Validates the redirect the app received; consumes this pending authorization on success.
        An OAuth ``error`` answer raises :class:`AuthorizationError` with the provider's fields."""
        encoded = _str(url, "url")
        pointer = self._pointer
        if pointer is None:
            self._closed()
        callback = _ffi.CallbackP()
        status = _handle_callback(pointer, encoded, callback)
        if status:
            _raise(status)
        return Callback._adopt(callback, self)

    def handle_app_callback(self, url: str, allowed_resume_host: Optional[str] = None) -> "AppCallback":
        """Checks what the Vipps/MobilePay app opened at the app callback URI. Does not consume."""
        encoded, host = _str(url, "url"), _opt_str(allowed_resume_host, "allowed_resume_host")
        pointer = self._pointer
        if pointer is None:
            self._closed()
        callback = _ffi.AppCallbackP()
        status = _lib.telenorid_pending_auth_handle_app_callback(pointer, encoded, host, callback)
        if status:
            _raise(status)
        return AppCallback._adopt(callback, self)

    def handle_idp_response(self, response: Union[str, Dict[str, str]],
                             allowed_login_hosts: Sequence[str] = ()) -> Callback:
        """SP side: checks the IdP app's response (a URL or a bundle); consumes this pending authorization."""
        pointer = self._pointer
        if pointer is None:
            self._closed()
        array, count = _string_array(allowed_login_hosts, "allowed_login_hosts")
        callback = _ffi.CallbackP()
        if isinstance(response, str):
            status = _lib.telenorid_pending_auth_handle_idp_response_url(pointer, _str(response, "url"), array, count,
                                                                         callback)
        else:
            params = _params_in(response)
            try:
                status = _lib.telenorid_pending_auth_handle_idp_response_params(pointer, params, array, count, callback)
            finally:
                _lib.telenorid_params_free(params)
        if status:
            _raise(status)
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
        pointer = self._pointer
        if pointer is None:
            self._closed()
        out = c_void_p()
        status = _callback_code(pointer, out)
        if status:
            _raise(status)
        return _copy_out(out) or ""

    def parameter(self, name: str) -> Optional[str]:
        """Any parameter of the callback by name (e.g. "scope"), or None when absent."""
        encoded = _str(name, "name")
        pointer = self._pointer
        if pointer is None:
            self._closed()
        return _string_call(_lib.telenorid_callback_parameter, pointer, encoded)


_callback_code = _lib.telenorid_callback_code


class AppCallback(_Handle):
    """The Vipps/MobilePay app's return to the merchant app."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_app_callback_free)

    @property
    def resume_uri(self) -> Optional[str]:
        """The ``resume_uri`` to open in the same browser, or None when the provider sent none."""
        pointer = self._pointer
        if pointer is None:
            self._closed()
        return _string_call(_lib.telenorid_app_callback_resume_uri, pointer)


# ------------------------------------------------------------------------------------------------------
# Identity-provider app flow (seed 003). Bundles are dict[str, str]; the pairs cross as telenorid_params.
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
        pointer = _ffi.IdPRequestP()
        status = _lib.telenorid_idp_request_new(_handle_of(pending, PendingAuthorization, "pending"),
                                                _opt_str(login_host, "login_host"), _opt_str(user_hint, "user_hint"),
                                                pointer)
        if status:
            _raise(status)
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
        return _string_call(_lib.telenorid_idp_request_url, self._ptr(), _str(idp_app_uri, "idp_app_uri")) or ""

    def bundle(self) -> Dict[str, str]:
        """The request as key-value pairs (an Android intent bundle)."""
        pointer = _ffi.ParamsP()
        status = _lib.telenorid_idp_request_params(self._ptr(), pointer)
        if status:
            _raise(status)
        return _params_out(pointer)

    def authorization_url(self, authorization_endpoint: str) -> str:
        """IdP side: the provider URL that asks for a code on the SP's behalf."""
        return _string_call(_lib.telenorid_idp_request_authorization_url, self._ptr(),
                            _str(authorization_endpoint, "authorization_endpoint")) or ""

    def respond(self, provider_redirect_url: str, login_host: str) -> "IdPAppResponse":
        """IdP side: the provider's redirect turned into the response for the SP."""
        pointer = _ffi.IdPResponseP()
        status = _lib.telenorid_idp_request_respond(self._ptr(), _str(provider_redirect_url, "provider_redirect_url"),
                                                    _str(login_host, "login_host"), pointer)
        if status:
            _raise(status)
        return IdPAppResponse._adopt(pointer, self)


class IdPAppResponse(_Handle):
    """What the IdP app sends back: the code (or an error), the login host and the SP's state."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_idp_response_free)

    def url(self) -> str:
        """The response as a URL on the SP's redirect URI (iOS)."""
        return _string_call(_lib.telenorid_idp_response_url, self._ptr()) or ""

    def bundle(self) -> Dict[str, str]:
        """The response as key-value pairs (an Android intent bundle)."""
        pointer = _ffi.ParamsP()
        status = _lib.telenorid_idp_response_params(self._ptr(), pointer)
        if status:
            _raise(status)
        return _params_out(pointer)


class Client(_Handle):
    """One provider: discovery, keys and HTTP connections. Share it between threads. Its calls block."""

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_client_free)

    def __new__(cls, config: Config) -> "Client":
        pointer = _ffi.ClientP()
        status = _lib.telenorid_client_new(_handle_of(config, Config, "config"), pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer, config)

    def __init__(self, config: Config) -> None:
        pass

    def discover(self) -> None:
        """Fetches and checks the provider's metadata now."""
        status = _lib.telenorid_client_discover(self._ptr())
        if status:
            _raise(status)

    def config(self) -> Config:
        """The configuration with discovered endpoints filled in, for :class:`AuthorizationRequest`."""
        config = _ffi.ConfigP()
        status = _lib.telenorid_client_config(self._ptr(), config)
        if status:
            _raise(status)
        return Config._adopt(config)

    def exchange_code(self, callback: Callback) -> "AuthState":
        """Exchanges a validated callback's code for tokens and validates the ID token."""
        callback_pointer = _handle_of(callback, Callback, "callback")
        state = _ffi.AuthStateP()
        status = _lib.telenorid_client_exchange_code(self._ptr(), callback_pointer, state)
        if status:
            _raise(status)
        return AuthState._adopt(state, self)

    def verify_id_token(self, id_token: str, nonce: Optional[str] = None) -> Dict[str, Any]:
        """Validates an ID token with the provider's keys (signature, iss, aud, azp, exp, iat, nbf and the
        nonce when given) and returns ``{"header": {...}, "claims": {...}}``; raises TokenInvalid."""
        import json

        text = _string_call(_lib.telenorid_client_verify_id_token, self._ptr(), _str(id_token, "id_token"),
                            _opt_str(nonce, "nonce"))
        verified: Dict[str, Any] = json.loads(text or "{}")
        return verified

    def restore(self, json: str) -> "AuthState":
        """Restores :meth:`AuthState.serialize`'s output for this client."""
        encoded = _str(json, "json")
        state = _ffi.AuthStateP()
        status = _lib.telenorid_auth_state_restore(self._ptr(), encoded, state)
        if status:
            _raise(status)
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
        self._pointer = pointer
        self._parents = parents
        self._keep_alive = []
        self._finalizer = weakref.finalize(self, _free_auth_state, pointer, self._keep_alive)
        return self

    def _call(self, function: Callable[..., int]) -> None:
        status = function(self._ptr())
        if status:
            _raise(status)

    def fresh_access_token(self) -> str:
        """An access token valid for at least the refresh margin, refreshing first when needed."""
        return _string_call(_lib.telenorid_auth_state_fresh_access_token, self._ptr()) or ""

    def refresh(self) -> None:
        self._call(_lib.telenorid_auth_state_refresh)

    @property
    def signed_in(self) -> bool:
        flag = c_int32()
        status = _lib.telenorid_auth_state_is_signed_in(self._ptr(), flag)
        if status:
            _raise(status)
        return bool(flag.value)

    def get(self, field: str) -> Optional[str]:
        """access_token, refresh_token, id_token, id_token_claims (JSON), scope or token_type; None if absent."""
        number = _name(field, _ffi.TOKEN_FIELDS, "token field")
        return _string_call(_lib.telenorid_auth_state_get, self._ptr(), number)

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
        status = _lib.telenorid_auth_state_expires_at(self._ptr(), value)
        if status:
            _raise(status)
        return value.value or None

    def userinfo(self) -> Dict[str, Any]:
        import json

        claims: Dict[str, Any] = json.loads(_string_call(_lib.telenorid_auth_state_userinfo, self._ptr()) or "{}")
        return claims

    def revoke(self) -> None:
        self._call(_lib.telenorid_auth_state_revoke)

    def end_session_url(self, post_logout_redirect_uri: Optional[str] = None, state: Optional[str] = None) -> str:
        redirect = _opt_str(post_logout_redirect_uri, "post_logout_redirect_uri")
        logout_state = _opt_str(state, "state")
        return _string_call(_lib.telenorid_auth_state_end_session_url, self._ptr(), redirect, logout_state) or ""

    def serialize(self) -> str:
        """Versioned JSON holding the refresh token: keep it in secure storage."""
        return _string_call(_lib.telenorid_auth_state_serialize, self._ptr()) or ""

    def on_change(self, callback: Optional[Callable[[], None]]) -> None:
        """Calls ``callback()`` after every change to persist (refresh, rotation, sign-out), on the thread
        that made it. None removes it. An exception it raises is reported by sys.unraisablehook."""
        pointer = self._ptr()
        if callback is None:
            status = _lib.telenorid_auth_state_set_change_callback(pointer, _ffi.AuthStateCallback(), None)
            if status:
                _raise(status)
            return
        if not callable(callback):
            raise TypeError("callback must be callable or None")

        def trampoline(_user_data: Any) -> None:
            try:
                callback()
            except BaseException as error:  # an exception cannot unwind through C
                sys.unraisablehook(_Unraisable(error, callback))  # type: ignore[arg-type]

        c_callback = _ffi.AuthStateCallback(trampoline)
        status = _lib.telenorid_auth_state_set_change_callback(pointer, c_callback, None)
        if status:
            _raise(status)
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
        status = _lib.telenorid_line_auth_new(_handle_of(config, Config, "config"), pointer)
        if status:
            _raise(status)
        self = object.__new__(cls)
        self._pointer = pointer
        self._parents = (config,)
        self._keep_alive = []
        self._finalizer = weakref.finalize(self, _free_line_auth, pointer, self._keep_alive)
        return self

    def __init__(self, config: Config) -> None:
        pass

    def run(self) -> None:
        """Runs one whole exchange now and keeps the session."""
        status = _lib.telenorid_line_auth_run(self._ptr())
        if status:
            _raise(status)

    @property
    def valid_for(self) -> int:
        """Seconds the kept session is still valid for; 0 when there is none."""
        value = c_int64()
        status = _lib.telenorid_line_auth_valid_for(self._ptr(), value)
        if status:
            _raise(status)
        return value.value

    def apply(self, request: "AuthorizationRequest") -> None:
        """Sets ``aloha_token`` on ``request``; on failure raises and leaves the request as it was, so the
        caller may catch the error, tell the user, and sign in without line authentication."""
        request_pointer = _handle_of(request, AuthorizationRequest, "request")
        status = _lib.telenorid_line_auth_apply(self._ptr(), request_pointer)
        if status:
            _raise(status)

    def set_socket_hook(self, hook: Optional[Callable[[int], str]]) -> None:
        """Calls ``hook(fd)`` with each socket before it connects; it returns "allow", "refuse" or
        "not_cellular" (anything else, or an exception, refuses). None removes it."""
        pointer = self._ptr()
        if hook is None:
            status = _lib.telenorid_line_auth_set_socket_hook(pointer, _ffi.SocketHook(), None)
            if status:
                _raise(status)
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
        status = _lib.telenorid_line_auth_set_socket_hook(pointer, c_hook, None)
        if status:
            _raise(status)
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
        return _string_call(_lib.telenorid_loopback_redirect_uri, self._ptr()) or ""

    def wait(self, timeout: float = 300.0) -> str:
        """Blocks until the browser's redirect arrives (its full URL) or raises Timeout, after which it can
        wait again. A listener hands out one redirect; a later wait raises Consumed."""
        milliseconds = int(timeout * 1000)
        if not 0 < milliseconds <= 0x7FFFFFFF:
            raise ValueError("timeout must be positive and under 24 days")
        return _string_call(_lib.telenorid_loopback_wait, self._ptr(), milliseconds) or ""

