"""The authorization flow in the browser: AuthorizationRequest builds a PendingAuthorization (the URL to
open and the secrets to check the answer with), which validates the redirect into an AuthorizationCallback
(or the Vipps/MobilePay app's return into an AppCallback)."""
from __future__ import annotations

from ctypes import byref
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Union

from . import _bindings, _constants, _ffi
from ._convert import _name, _opt_str, _params_in, _str, _string_array
from ._handle import _call_on, _free_if_idle, _Handle, _Native, _open
from .config import Config
from .errors import _raise

_c = _ffi.functions


_ParamValue = Union[str, int, None]


class AuthorizationRequest(_Handle):
    """An authorization request being put together for a :class:`Config`; the library serializes calls on it.

    ``AuthorizationRequest(config, prompt="login", max_age=600)`` sets known parameters as keywords;
    :meth:`set` does the same one at a time. Every setter returns the request, so calls chain.
    """

    __slots__ = ()
    _free = staticmethod(_c.telenorid_auth_request_free)

    def __new__(cls, config: Config, **params: _ParamValue) -> "AuthorizationRequest":
        pointer = _bindings.AuthRequestP()
        _call_on(config, Config, "config", _c.telenorid_auth_request_new, byref(pointer))
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
        number = _name(param, _constants.AUTH_PARAMS, "authorization parameter")
        if isinstance(value, int) and not isinstance(value, bool) and number == _constants.AUTH_PARAMS["max_age"]:
            value = str(value)
        encoded = _opt_str(value, param)
        self._call(_c.telenorid_auth_request_set, number, encoded)
        return self

    def update(self, **params: _ParamValue) -> "AuthorizationRequest":
        """Sets several known parameters: ``request.update(prompt="login", ui_locales="nb en")``."""
        for param, value in params.items():
            if param not in _constants.AUTH_PARAMS:
                raise TypeError(f"unknown authorization parameter {param!r}; use add_parameter for extra ones")
            self.set(param, value)
        return self

    def add_parameter(self, name: str, value: str) -> "AuthorizationRequest":
        """Adds an extra parameter, sent as given; one the library owns raises :class:`ParameterConflictError`."""
        encoded_name, encoded_value = _str(name, "name"), _str(value, "value")
        self._call(_c.telenorid_auth_request_add_parameter, encoded_name, encoded_value)
        return self

    def add_parameters(self, parameters: Union[Mapping[str, str], Iterable[Sequence[str]]]) -> "AuthorizationRequest":
        """:meth:`add_parameter` for each pair of a mapping or of an iterable of (name, value)."""
        items = parameters.items() if isinstance(parameters, Mapping) else parameters
        for name, value in items:
            self.add_parameter(name, value)
        return self

    def add_claim(self, target: str, name: str, essential: Optional[bool] = None, purpose: Optional[str] = None,
                  value: Any = None, values: Optional[Sequence[Any]] = None) -> "AuthorizationRequest":
        """Requests one claim in the OIDC ``claims`` parameter, for ``target`` "id_token" or "userinfo".
        ``value`` (any JSON value) and ``values`` (a list) are sent as JSON (``json.dumps``)."""
        import json

        number = _name(target, _constants.CLAIM_TARGETS, "claim target")
        if essential is not None and not isinstance(essential, bool):
            raise TypeError(f"essential must be a bool or None, not {type(essential).__name__}")
        if values is not None and (isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence)):
            raise TypeError(f"values must be a list, not {type(values).__name__}")
        encoded_name, encoded_purpose = _str(name, "name"), _opt_str(purpose, "purpose")
        value_json = None if value is None else _str(json.dumps(value), "value")
        values_json = None if values is None else _str(json.dumps(list(values)), "values")
        self._call(_c.telenorid_auth_request_add_claim, number, encoded_name,
                   -1 if essential is None else int(essential), encoded_purpose, value_json, values_json)
        return self

    def add_resource(self, uri: str) -> "AuthorizationRequest":
        """Adds a resource indicator (RFC 8707), sent with the request and again with the code exchange."""
        self._call(_c.telenorid_auth_request_add_resource, _str(uri, "uri"))
        return self

    def set_authorization_details(self, details: Optional[Sequence[Mapping[str, Any]]]) -> "AuthorizationRequest":
        """Sets RFC 9396 ``authorization_details`` (a list of objects, each with a ``type``); None clears it.
        What the provider granted is ``AuthState.authorization_details``."""
        import json

        self._call(_c.telenorid_auth_request_set_authorization_details,
                   None if details is None else _str(json.dumps(details), "authorization_details"))
        return self

    def set_token_authorization_details(self, details: Optional[Sequence[Mapping[str, Any]]]) -> "AuthorizationRequest":
        """Sets the ``authorization_details`` the code exchange asks for (RFC 9396 §6.1), e.g. a subset of
        those authorized; None clears it. By default none is sent and the provider decides."""
        import json

        self._call(_c.telenorid_auth_request_set_token_authorization_details,
                   None if details is None else _str(json.dumps(details), "authorization_details"))
        return self

    def apply_step_up(self, www_authenticate: str) -> bool:
        """Applies a resource's RFC 9470 step-up challenge (its ``WWW-Authenticate`` value after a 401): the
        demanded acr values (also as an essential ``acr`` claim, checked at the exchange) and max_age. False,
        with the request unchanged, when the value is not a step-up challenge."""
        from ctypes import c_int32

        applied = c_int32()
        self._call(_c.telenorid_auth_request_apply_step_up, _str(www_authenticate, "www_authenticate"),
                   byref(applied))
        return bool(applied.value)

    def set_app_to_app(self, app_callback_uri: str) -> "AuthorizationRequest":
        """Asks for Vipps/MobilePay's app-to-app flow, returning to ``app_callback_uri``."""
        encoded = _str(app_callback_uri, "app_callback_uri")
        self._call(_c.telenorid_auth_request_set_app_to_app, encoded)
        return self

    def set_pkce_method(self, method: str) -> "AuthorizationRequest":
        """"S256" (the default) or "plain" (refused unless the configuration allows it)."""
        number = _name(method, _constants.PKCE_METHODS, "PKCE method")
        self._call(_c.telenorid_auth_request_set_pkce_method, number)
        return self

    def build(self) -> "PendingAuthorization":
        """Draws state, nonce and PKCE verifier and builds the URL. The request stays usable."""
        pending = _PendingAuthP()
        self._call(_auth_request_build, byref(pending))
        return PendingAuthorization._adopt(pending, self._parents[0])


# Module globals for the benchmarked path: one lookup each, not a module's and an attribute's.
_auth_request_build = _c.telenorid_auth_request_build
_PendingAuthP = _bindings.PendingAuthP


class PendingAuthorization(_Handle):
    """The authorization URL to open and the secrets to check its answer with; shareable between threads.

    Made by :meth:`AuthorizationRequest.build` or :meth:`restore`.
    """

    __slots__ = ()
    _free = staticmethod(_c.telenorid_pending_auth_free)

    @property
    def url(self) -> str:
        """The authorization URL to open in the system browser."""
        return self._text(_pending_url)

    @property
    def state(self) -> str:
        """The ``state`` sent with the request, which the redirect must carry back."""
        return self._text(_pending_state)

    @property
    def nonce(self) -> str:
        """The ``nonce`` sent with the request, which the ID token must carry."""
        return self._text(_pending_nonce)

    @property
    def code_verifier(self) -> str:
        """The PKCE verifier (a secret) for the token request."""
        return self._text(_pending_code_verifier)

    def serialize(self) -> str:
        """Versioned JSON to restore from after the app was killed; it holds the verifier: keep it private."""
        return self._string_call(_c.telenorid_pending_auth_serialize) or ""

    @classmethod
    def restore(cls, config: Config, json: str) -> "PendingAuthorization":
        """Restores :meth:`serialize`'s output for ``config``."""
        encoded = _str(json, "json")
        pending = _bindings.PendingAuthP()
        _call_on(config, Config, "config", _c.telenorid_pending_auth_restore, encoded, byref(pending))
        return cls._adopt(pending, config)

    def handle_callback(self, url: str) -> "AuthorizationCallback":
        """Validates the redirect the app received; consumes this pending authorization on success.
        An OAuth ``error`` answer raises :class:`AuthorizationError` with the provider's fields.

        ``url`` is the full redirect URL or, when the configured ``redirect_uri`` is http or https, what a
        web backend sees of it: the request's path and query (``"/callback?code=...&state=..."``), which
        is taken as relative to the configured redirect URI's scheme and authority."""
        if isinstance(url, str) and url.startswith("/"):
            url = self._origin() + url
        encoded = _str(url, "url")
        callback = _CallbackP()
        # self._call inlined, without its *args packing and frame: this is the hot call `make bench` times.
        # Entered without _lock (see _Handle for the protocol): the call is counted first and the pointer
        # read after, each one step under the GIL. A close() that set the pointer to None before the read
        # is seen here (the call then leaves as any other, and frees if it was the last); one after the
        # read finds the call counted and leaves the free to it. The lock is needed only where the check
        # comes first. Half the binding's time on this path was that lock pair.
        native = self._native
        native.append(None)
        pointer = native.pointer
        try:
            if pointer is None:
                self._closed()
            status = _handle_callback(pointer, encoded, byref(callback))
            if status:
                _raise(status)
        finally:
            native.pop()
            if native.pointer is None:
                _free_if_idle(native)
        # AuthorizationCallback._adopt(callback, self), inlined (no classmethod call, no *parents tuple packed):
        # with the enter above, 24.6k -> 20.4k instructions a call (callgrind, 5,000 calls), 9.2k of them C's.
        result = _new_object(AuthorizationCallback)
        result._parents = (self,)
        owned = result._native = _Native()
        owned.pointer = owned.owned = callback
        owned.release = _callback_free
        _open[owned] = None
        return result

    def _origin(self) -> str:
        """``scheme://authority`` of the configured redirect URI when it is http or https, else "" (the
        library then refuses the bare path: it is no URL)."""
        from urllib.parse import urlsplit

        config: Config = self._parents[0]
        parts = urlsplit(config.get("redirect_uri") or "")
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""

    def handle_app_callback(self, url: str, allowed_resume_host: Optional[str] = None) -> "AppCallback":
        """Checks what the Vipps/MobilePay app opened at the app callback URI. Does not consume."""
        encoded, host = _str(url, "url"), _opt_str(allowed_resume_host, "allowed_resume_host")
        callback = _bindings.AppCallbackP()
        self._call(_c.telenorid_pending_auth_handle_app_callback, encoded, host, byref(callback))
        return AppCallback._adopt(callback, self)

    def handle_idp_response(self, response: Union[str, Dict[str, str]],
                             allowed_login_hosts: Sequence[str] = ()) -> AuthorizationCallback:
        """SP side: checks the IdP app's response (a URL or a bundle); consumes this pending authorization."""
        if self._native.pointer is None:  # refused before the arguments are converted, as before
            self._closed()
        array, count = _string_array(allowed_login_hosts, "allowed_login_hosts")
        callback = _bindings.AuthorizationCallbackP()
        if isinstance(response, str):
            self._call(_c.telenorid_pending_auth_handle_idp_response_url, _str(response, "url"), array, count,
                       byref(callback))
        else:
            params = _params_in(response)
            try:
                self._call(_c.telenorid_pending_auth_handle_idp_response_params, params, array, count,
                           byref(callback))
            finally:
                _c.telenorid_params_free(params)
        return AuthorizationCallback._adopt(callback, self)


_pending_url = _c.telenorid_pending_auth_url
_pending_state = _c.telenorid_pending_auth_state
_pending_nonce = _c.telenorid_pending_auth_nonce
_pending_code_verifier = _c.telenorid_pending_auth_code_verifier
_handle_callback = _c.telenorid_pending_auth_handle_callback
_CallbackP = _bindings.AuthorizationCallbackP


class AuthorizationCallback(_Handle):
    """A validated redirect; :meth:`Client.exchange_code` takes it."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_authorization_callback_free)

    @property
    def code(self) -> str:
        """The authorization code."""
        return self._text(_callback_code)

    def parameter(self, name: str) -> Optional[str]:
        """Any parameter of the callback by name (e.g. "scope"), or None when absent."""
        encoded = _str(name, "name")
        return self._string_call(_c.telenorid_authorization_callback_parameter, encoded)


_callback_code = _c.telenorid_authorization_callback_code
_callback_free = AuthorizationCallback._free
_new_object = object.__new__


class AppCallback(_Handle):
    """The Vipps/MobilePay app's return to the merchant app."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_app_callback_free)

    @property
    def resume_uri(self) -> Optional[str]:
        """The ``resume_uri`` to open in the same browser, or None when the provider sent none."""
        return self._string_call(_c.telenorid_app_callback_resume_uri)
