"""telenorid: an OpenID Connect client for native apps, through libtelenorid's C API.

Every class wraps one C handle; the protocol work happens in the library. Handles close when their
`with` block ends, on `close()` (idempotent) or, as a safety net, when garbage-collected.
"""
from __future__ import annotations

import ctypes
import json
import weakref
from typing import Any, Callable, Mapping, Optional

from . import _ffi
from .errors import (AuthorizationError, AuthorizationLost, ConfigurationError, Consumed, HTTPStatusError, Insecure,
                     InvalidArgument, InvalidResponse, IssuerMismatch, Malformed, NetworkError, NotSignedIn,
                     ParameterConflict, RandomFailure, RedirectMismatch, ResponseTooLarge, StateMismatch,
                     TelenoridError, Timeout, TLSError, TokenInvalid, Unsupported, VersionError, check)

__all__ = [
    "AuthState", "AuthorizationLost", "Client", "HTTPStatusError", "InvalidResponse", "NetworkError", "NotSignedIn",
    "ResponseTooLarge", "Timeout", "TLSError", "TokenInvalid",
    "AppCallback", "AuthorizationError", "AuthorizationRequest", "Callback", "Config", "ConfigurationError",
    "Consumed", "Insecure", "InvalidArgument", "IssuerMismatch", "Malformed", "ParameterConflict",
    "PendingAuthorization", "Pkce", "RandomFailure", "RedirectMismatch", "StateMismatch", "TelenoridError",
    "Unsupported", "VersionError", "library_version",
]

_lib = _ffi.lib


def library_version() -> str:
    return _lib.telenorid_version_string().decode()


def _encode(value: Optional[str], name: str) -> Optional[bytes]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\x00" in value:
        raise InvalidArgument(f"{name} contains a NUL character", 1)
    return value.encode("utf-8")


def _take_string(call: Callable[[Any], int]) -> Optional[str]:
    """Runs a call with a `char **out`, copies the string and lets the library wipe and free its copy."""
    out = ctypes.c_void_p()
    check(call(ctypes.byref(out)))
    if not out.value:
        return None
    try:
        return ctypes.string_at(out.value).decode("utf-8")
    finally:
        _lib.telenorid_string_free(out)


class _Handle:
    """Owns one C handle: closed once, by close(), the end of a `with` block or garbage collection."""

    _free: Callable[[Any], None]

    def __init__(self, pointer: Any, *parents: Any) -> None:
        self._pointer = pointer
        self._parents = parents  # children keep what they were made from alive, as the C side does
        # weakref.finalize runs its function at most once, whichever thread calls it first: that makes
        # close() idempotent and thread-safe without a lock of our own.
        self._finalizer = weakref.finalize(self, type(self)._free, pointer)

    @property
    def _ptr(self) -> Any:
        pointer = self._pointer
        if pointer is None:
            raise ValueError(f"{type(self).__name__} is closed")
        return pointer

    def close(self) -> None:
        self._pointer = None
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


class Config(_Handle):
    """An immutable client configuration; share it between threads."""

    _free = staticmethod(_lib.telenorid_config_free)

    @classmethod
    def from_settings(cls, **settings: Any) -> "Config":
        """Config.from_settings(issuer=..., client_id=..., redirect_uri=..., scope=..., ...)"""
        builder = _ffi.ConfigBuilderP()
        check(_lib.telenorid_config_builder_new(ctypes.byref(builder)))
        try:
            for name, value in settings.items():
                if name not in _ffi.CONFIG_KEYS:
                    raise TypeError(f"unknown configuration setting {name!r}")
                if isinstance(value, bool):
                    value = "true" if value else "false"
                check(_lib.telenorid_config_builder_set(builder, _ffi.CONFIG_KEYS[name], _encode(value, name)))
            config = _ffi.ConfigP()
            check(_lib.telenorid_config_builder_build(builder, ctypes.byref(config)))
        finally:
            _lib.telenorid_config_builder_free(builder)
        return cls(config)

    @classmethod
    def from_json(cls, document: str, environment: Optional[str] = None) -> "Config":
        config = _ffi.ConfigP()
        check(_lib.telenorid_config_from_json(_encode(document, "document"), _encode(environment, "environment"),
                                              ctypes.byref(config)))
        return cls(config)

    def get(self, name: str) -> Optional[str]:
        if name not in _ffi.CONFIG_KEYS:
            raise TypeError(f"unknown configuration setting {name!r}")
        return _take_string(lambda out: _lib.telenorid_config_get(self._ptr, _ffi.CONFIG_KEYS[name], out))


class Pkce(_Handle):
    """A PKCE verifier (secret) and its S256 challenge."""

    _free = staticmethod(_lib.telenorid_pkce_free)

    def __init__(self, length: int = 0, *, _pointer: Any = None) -> None:
        if _pointer is None:
            if not isinstance(length, int):
                raise TypeError("length must be an int")
            if length < 0:
                raise InvalidArgument("length must not be negative", 1)
            _pointer = _ffi.PkceP()
            check(_lib.telenorid_pkce_new(length, ctypes.byref(_pointer)))
        super().__init__(_pointer)

    @classmethod
    def from_verifier(cls, verifier: str) -> "Pkce":
        pointer = _ffi.PkceP()
        check(_lib.telenorid_pkce_from_verifier(_encode(verifier, "verifier"), ctypes.byref(pointer)))
        return cls(_pointer=pointer)

    @property
    def verifier(self) -> str:
        return _take_string(lambda out: _lib.telenorid_pkce_verifier(self._ptr, out)) or ""

    @property
    def challenge(self) -> str:
        return _take_string(lambda out: _lib.telenorid_pkce_challenge(self._ptr, out)) or ""


class AuthorizationRequest(_Handle):
    """An authorization request being put together; use from one thread at a time."""

    _free = staticmethod(_lib.telenorid_auth_request_free)

    def __init__(self, config: Config) -> None:
        if not isinstance(config, Config):
            raise TypeError("config must be a telenorid.Config")
        pointer = _ffi.AuthRequestP()
        check(_lib.telenorid_auth_request_new(config._ptr, ctypes.byref(pointer)))
        super().__init__(pointer, config)

    def set(self, name: str, value: Optional[str]) -> "AuthorizationRequest":
        """Sets a known parameter: scope, prompt, login_hint, ui_locales, acr_values, max_age, aloha_token,
        claims_purpose, response_mode."""
        if name not in _ffi.AUTH_PARAMS:
            raise TypeError(f"unknown authorization parameter {name!r}; use add_parameter for extra ones")
        check(_lib.telenorid_auth_request_set(self._ptr, _ffi.AUTH_PARAMS[name], _encode(value, name)))
        return self

    def add_parameter(self, name: str, value: str) -> "AuthorizationRequest":
        check(_lib.telenorid_auth_request_add_parameter(self._ptr, _encode(name, "name"), _encode(value, "value")))
        return self

    def add_parameters(self, parameters: Mapping[str, str]) -> "AuthorizationRequest":
        for name, value in parameters.items():
            self.add_parameter(name, value)
        return self

    def add_claim(self, target: str, name: str, *, essential: Optional[bool] = None, purpose: Optional[str] = None,
                  value: Any = None, values: Optional[list] = None) -> "AuthorizationRequest":
        if target not in _ffi.CLAIM_TARGETS:
            raise TypeError("target must be 'id_token' or 'userinfo'")
        flag = -1 if essential is None else int(bool(essential))
        check(_lib.telenorid_auth_request_add_claim(
            self._ptr, _ffi.CLAIM_TARGETS[target], _encode(name, "name"), flag, _encode(purpose, "purpose"),
            None if value is None else json.dumps(value).encode(),
            None if values is None else json.dumps(list(values)).encode()))
        return self

    def set_app_to_app(self, app_callback_uri: str) -> "AuthorizationRequest":
        check(_lib.telenorid_auth_request_set_app_to_app(self._ptr, _encode(app_callback_uri, "app_callback_uri")))
        return self

    def set_pkce_method(self, method: str) -> "AuthorizationRequest":
        if method not in _ffi.PKCE_METHODS:
            raise TypeError("method must be 'S256' or 'plain'")
        check(_lib.telenorid_auth_request_set_pkce_method(self._ptr, _ffi.PKCE_METHODS[method]))
        return self

    def build(self) -> "PendingAuthorization":
        pointer = _ffi.PendingAuthP()
        check(_lib.telenorid_auth_request_build(self._ptr, ctypes.byref(pointer)))
        return PendingAuthorization(pointer, self._parents[0])


class PendingAuthorization(_Handle):
    """The URL to open and the secrets its answer is checked with; shareable between threads."""

    _free = staticmethod(_lib.telenorid_pending_auth_free)

    def _string(self, function: Callable[..., int]) -> str:
        return _take_string(lambda out: function(self._ptr, out)) or ""

    @property
    def url(self) -> str:
        return self._string(_lib.telenorid_pending_auth_url)

    @property
    def state(self) -> str:
        return self._string(_lib.telenorid_pending_auth_state)

    @property
    def nonce(self) -> str:
        return self._string(_lib.telenorid_pending_auth_nonce)

    @property
    def code_verifier(self) -> str:
        return self._string(_lib.telenorid_pending_auth_code_verifier)

    def serialize(self) -> str:
        return self._string(_lib.telenorid_pending_auth_serialize)

    @classmethod
    def restore(cls, config: Config, document: str) -> "PendingAuthorization":
        if not isinstance(config, Config):
            raise TypeError("config must be a telenorid.Config")
        pointer = _ffi.PendingAuthP()
        check(_lib.telenorid_pending_auth_restore(config._ptr, _encode(document, "document"), ctypes.byref(pointer)))
        return cls(pointer, config)

    def handle_callback(self, redirect_url: str) -> "Callback":
        pointer = _ffi.CallbackP()
        check(_lib.telenorid_pending_auth_handle_callback(self._ptr, _encode(redirect_url, "redirect_url"),
                                                          ctypes.byref(pointer)))
        return Callback(pointer, self)

    def handle_app_callback(self, callback_url: str, allowed_resume_host: Optional[str] = None) -> "AppCallback":
        pointer = _ffi.AppCallbackP()
        check(_lib.telenorid_pending_auth_handle_app_callback(
            self._ptr, _encode(callback_url, "callback_url"), _encode(allowed_resume_host, "allowed_resume_host"),
            ctypes.byref(pointer)))
        return AppCallback(pointer, self)


class Callback(_Handle):
    """A validated redirect: its code is the only thing the token exchange accepts."""

    _free = staticmethod(_lib.telenorid_callback_free)

    @property
    def code(self) -> str:
        return _take_string(lambda out: _lib.telenorid_callback_code(self._ptr, out)) or ""

    def parameter(self, name: str) -> Optional[str]:
        return _take_string(lambda out: _lib.telenorid_callback_parameter(self._ptr, _encode(name, "name"), out))


class AppCallback(_Handle):
    """The Vipps/MobilePay app's return to the merchant app."""

    _free = staticmethod(_lib.telenorid_app_callback_free)

    @property
    def resume_uri(self) -> Optional[str]:
        return _take_string(lambda out: _lib.telenorid_app_callback_resume_uri(self._ptr, out))


class Client(_Handle):
    """One provider: discovery, keys and HTTP connections. Share it between threads."""

    _free = staticmethod(_lib.telenorid_client_free)

    def __init__(self, config: Config) -> None:
        if not isinstance(config, Config):
            raise TypeError("config must be a telenorid.Config")
        pointer = _ffi.ClientP()
        check(_lib.telenorid_client_new(config._ptr, ctypes.byref(pointer)))
        super().__init__(pointer, config)

    def discover(self) -> None:
        check(_lib.telenorid_client_discover(self._ptr))

    def config(self) -> Config:
        """The configuration with discovered endpoints filled in, for AuthorizationRequest."""
        pointer = _ffi.ConfigP()
        check(_lib.telenorid_client_config(self._ptr, ctypes.byref(pointer)))
        return Config(pointer)

    def exchange_code(self, callback: "Callback") -> "AuthState":
        if not isinstance(callback, Callback):
            raise TypeError("callback must be a telenorid.Callback from PendingAuthorization.handle_callback")
        pointer = _ffi.AuthStateP()
        check(_lib.telenorid_client_exchange_code(self._ptr, callback._ptr, ctypes.byref(pointer)))
        return AuthState(pointer, self)

    def restore(self, document: str) -> "AuthState":
        pointer = _ffi.AuthStateP()
        check(_lib.telenorid_auth_state_restore(self._ptr, _encode(document, "document"), ctypes.byref(pointer)))
        return AuthState(pointer, self)


class AuthState(_Handle):
    """A signed-in user's tokens, handed out fresh; shareable between threads."""

    _free = staticmethod(_lib.telenorid_auth_state_free)

    def __init__(self, pointer: Any, client: Client) -> None:
        super().__init__(pointer, client)
        self._callback: Optional[Any] = None

    def fresh_access_token(self) -> str:
        return _take_string(lambda out: _lib.telenorid_auth_state_fresh_access_token(self._ptr, out)) or ""

    def refresh(self) -> None:
        check(_lib.telenorid_auth_state_refresh(self._ptr))

    @property
    def signed_in(self) -> bool:
        flag = ctypes.c_int32()
        check(_lib.telenorid_auth_state_is_signed_in(self._ptr, ctypes.byref(flag)))
        return bool(flag.value)

    def get(self, field: str) -> Optional[str]:
        if field not in _ffi.TOKEN_FIELDS:
            raise TypeError(f"unknown token field {field!r}")
        return _take_string(lambda out: _lib.telenorid_auth_state_get(self._ptr, _ffi.TOKEN_FIELDS[field], out))

    @property
    def id_token_claims(self) -> Optional[dict]:
        text = self.get("id_token_claims")
        return json.loads(text) if text else None

    @property
    def expires_at(self) -> Optional[int]:
        value = ctypes.c_int64()
        check(_lib.telenorid_auth_state_expires_at(self._ptr, ctypes.byref(value)))
        return value.value or None

    def userinfo(self) -> dict:
        return json.loads(_take_string(lambda out: _lib.telenorid_auth_state_userinfo(self._ptr, out)) or "{}")

    def revoke(self) -> None:
        check(_lib.telenorid_auth_state_revoke(self._ptr))

    def end_session_url(self, post_logout_redirect_uri: Optional[str] = None, state: Optional[str] = None) -> str:
        return _take_string(lambda out: _lib.telenorid_auth_state_end_session_url(
            self._ptr, _encode(post_logout_redirect_uri, "post_logout_redirect_uri"), _encode(state, "state"), out)) or ""

    def serialize(self) -> str:
        return _take_string(lambda out: _lib.telenorid_auth_state_serialize(self._ptr, out)) or ""

    def on_change(self, callback: Optional[Callable[[], None]]) -> None:
        """Calls `callback()` after every change to persist (rotation, sign-out), on the changing thread."""
        if callback is None:
            check(_lib.telenorid_auth_state_set_change_callback(self._ptr, _ffi.AuthStateCallback(), None))
            self._callback = None
            return

        def trampoline(_user_data: Any) -> None:
            try:
                callback()
            except Exception:  # an exception can't cross back into C
                import traceback
                traceback.print_exc()

        c_callback = _ffi.AuthStateCallback(trampoline)
        check(_lib.telenorid_auth_state_set_change_callback(self._ptr, c_callback, None))
        self._callback = c_callback  # kept alive as long as C may call it
