"""The identity-provider app flow (Salesforce Mobile SDK identity provider): IdPAppRequest,
IdPAppResponse and the IdP-initiated sign-in's IdPAppInitiation. Bundles are dict[str, str]; the pairs cross as telenorid_params."""
from __future__ import annotations

from ctypes import byref, c_void_p
from typing import Dict, NamedTuple, Optional, Sequence

from . import _bindings, _ffi
from ._convert import _copy_out, _opt_str, _params_in, _params_out, _str, _string_array, _string_call
from ._handle import _call_on, _Handle
from .authorization import PendingAuthorization
from .errors import _raise

_c = _ffi.functions


class IdPAppRequest(_Handle):
    """The request a service-provider app sends an identity-provider app. The SP makes it with
    :meth:`for_pending`; the IdP app parses it with :meth:`parse_url` or :meth:`parse_bundle`."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_idp_request_free)

    @classmethod
    def for_pending(cls, pending: PendingAuthorization, login_host: Optional[str] = None,
                    user_hint: Optional[str] = None) -> "IdPAppRequest":
        """SP side: the request for the IdP app from ``pending`` (built with S256 PKCE), carrying its
        challenge, never its verifier. ``login_host`` and ``user_hint`` are sent when given."""
        host, hint = _opt_str(login_host, "login_host"), _opt_str(user_hint, "user_hint")
        pointer = _bindings.IdpRequestP()
        _call_on(pending, PendingAuthorization, "pending", _c.telenorid_idp_request_new, host, hint, byref(pointer))
        return cls._adopt(pointer, pending)

    @classmethod
    def parse_url(cls, url: str, idp_app_uri: str, caller_redirect_uris: Sequence[str]) -> "IdPAppRequest":
        """IdP side: parses and checks an SP app's request URL, which must be on ``idp_app_uri``; its
        redirect URI must be exactly one of ``caller_redirect_uris`` (else :class:`RedirectMismatchError`)."""
        array, count = _string_array(caller_redirect_uris, "caller_redirect_uris")
        pointer = _bindings.IdpRequestP()
        status = _c.telenorid_idp_request_parse_url(_str(url, "url"), _str(idp_app_uri, "idp_app_uri"),
                                                      array, count, byref(pointer))
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @classmethod
    def parse_bundle(cls, bundle: Dict[str, str], caller_redirect_uris: Sequence[str]) -> "IdPAppRequest":
        """IdP side: :meth:`parse_url` for a request that came as a bundle of pairs instead of a URL."""
        array, count = _string_array(caller_redirect_uris, "caller_redirect_uris")
        params = _params_in(bundle)
        try:
            pointer = _bindings.IdpRequestP()
            status = _c.telenorid_idp_request_parse_params(params, array, count, byref(pointer))
        finally:
            _c.telenorid_params_free(params)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    def url(self, idp_app_uri: str) -> str:
        """The request as a URL on the IdP app's URI (iOS)."""
        return self._string_call(_c.telenorid_idp_request_url, _str(idp_app_uri, "idp_app_uri")) or ""

    def bundle(self) -> Dict[str, str]:
        """The request as key-value pairs (an Android intent bundle)."""
        pointer = _bindings.ParamsP()
        self._call(_c.telenorid_idp_request_params, byref(pointer))
        return _params_out(pointer)

    def authorization_url(self, authorization_endpoint: str) -> str:
        """IdP side: the provider URL that asks for a code on the SP's behalf."""
        return self._string_call(_c.telenorid_idp_request_authorization_url,
                            _str(authorization_endpoint, "authorization_endpoint")) or ""

    def respond(self, provider_redirect_url: str, login_host: str) -> "IdPAppResponse":
        """IdP side: the provider's redirect turned into the response for the SP."""
        pointer = _bindings.IdpResponseP()
        self._call(_c.telenorid_idp_request_respond, _str(provider_redirect_url, "provider_redirect_url"),
                   _str(login_host, "login_host"), byref(pointer))
        return IdPAppResponse._adopt(pointer, self)


class IdPAppResponse(_Handle):
    """What the IdP app sends back: the code (or an error), the login host and the SP's state."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_idp_response_free)

    def url(self) -> str:
        """The response as a URL on the SP's redirect URI (iOS)."""
        return self._string_call(_c.telenorid_idp_response_url) or ""

    def bundle(self) -> Dict[str, str]:
        """The response as key-value pairs (an Android intent bundle)."""
        pointer = _bindings.ParamsP()
        self._call(_c.telenorid_idp_response_params, byref(pointer))
        return _params_out(pointer)


class IdPAppInitiation(NamedTuple):
    """IdP-initiated sign-in: the IdP app launches an SP app for a user chosen among those signed in to it.
    The IdP app sends :meth:`url` (iOS) or :meth:`bundle` (Android); the SP app reads it with
    :meth:`parse_url` or :meth:`parse_bundle` and passes both fields to :meth:`IdPAppRequest.for_pending`.
    ``user_hint`` is 1 to 255 printable ASCII characters, ``login_host`` a host or host:port."""

    user_hint: str
    login_host: str

    def url(self, sp_app_uri: str) -> str:
        """IdP side: the message as a URL on the SP app's URI (no query or fragment)."""
        return _string_call(_c.telenorid_idp_initiation_url, _str(sp_app_uri, "sp_app_uri"),
                            _str(self.user_hint, "user_hint"), _str(self.login_host, "login_host")) or ""

    def bundle(self) -> Dict[str, str]:
        """IdP side: the message as key-value pairs (an Android intent bundle)."""
        pointer = _bindings.ParamsP()
        status = _c.telenorid_idp_initiation_params(_str(self.user_hint, "user_hint"),
                                                    _str(self.login_host, "login_host"), byref(pointer))
        if status:
            _raise(status)
        return _params_out(pointer)

    @classmethod
    def parse_url(cls, url: str, sp_app_uri: str) -> "IdPAppInitiation":
        """SP side: reads the IdP app's URL, which must be on ``sp_app_uri`` (else
        :class:`RedirectMismatchError`); a missing, repeated or ill-formed field raises :class:`MalformedError`."""
        hint, host = c_void_p(), c_void_p()
        status = _c.telenorid_idp_initiation_parse_url(_str(url, "url"), _str(sp_app_uri, "sp_app_uri"),
                                                       byref(hint), byref(host))
        if status:
            _raise(status)
        return cls(_copy_out(hint) or "", _copy_out(host) or "")

    @classmethod
    def parse_bundle(cls, bundle: Dict[str, str]) -> "IdPAppInitiation":
        """SP side: :meth:`parse_url` for a message that came as a bundle of pairs."""
        params = _params_in(bundle)
        hint, host = c_void_p(), c_void_p()
        try:
            status = _c.telenorid_idp_initiation_parse_params(params, byref(hint), byref(host))
        finally:
            _c.telenorid_params_free(params)
        if status:
            _raise(status)
        return cls(_copy_out(hint) or "", _copy_out(host) or "")
