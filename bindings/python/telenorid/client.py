"""Client: one provider — discovery, keys, HTTP — and the calls that make an AuthState."""
from __future__ import annotations

from ctypes import byref, memmove
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Union

from . import _bindings, _ffi
from ._callbacks import _shielded
from ._convert import _opt_str, _str
from ._handle import _call_on, _enter_argument, _Handle, _leave
from .auth_state import AuthState
from .authorization import AuthorizationCallback, AuthorizationRequest, PendingAuthorization
from .ciba import BackchannelAuthentication
from .config import Config
from .store import HostStore, _NativeStore

class HostKeySigner(Protocol):
    """A host key signer: a key the host holds (a hardware keystore, an HSM) that signs for the library (the C
    header's telenorid_host_key_signer, Java's HostKeySigner). Any callable of this shape will do."""

    def __call__(self, signing_input: bytes, /) -> bytes:
        """The signature over a JWS signing input (ASCII ``header.payload``) as JWS carries it (RFC 7518 §3):
        raw r||s for ECDSA, not the DER a keystore gives; the plain signature for RSA and EdDSA."""

if TYPE_CHECKING:
    from .accounts import Accounts
    from .device import DeviceAuthorization

_c = _ffi.functions


class Client(_Handle):
    """One provider: discovery, keys and HTTP connections. Share it between threads. Its calls block."""

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_c.telenorid_client_free)
    _keep_alive: List[Any]

    def __new__(cls, config: Config) -> "Client":
        pointer = _bindings.ClientP()
        _call_on(config, Config, "config", _c.telenorid_client_new, byref(pointer))
        self = object.__new__(cls)
        self._parents = (config,)
        self._keep_alive = []
        self._own(pointer, _c.telenorid_client_free)
        return self

    def set_dpop_signer(self, algorithm: str, public_jwk: Union[str, Dict[str, Any]],
                        host_key_signer: Optional[HostKeySigner]) -> None:
        """Proves possession (RFC 9449) with a key you hold for every sign-in from now on: the host key signer
        ``host_key_signer(input)`` gets the JWS signing input and returns the signature as JWS carries it (raw
        r||s for ES256); ``public_jwk`` is the public key. ``host_key_signer`` None removes it. Auth states bound
        to such a key are restored only while it is set; removing it, or setting another key's, makes their
        requests fail. What the signer raises fails the request, whose error is raised from it. From inside the
        signer the library refuses calls on its objects (InvalidArgumentError)."""
        self._set_signer(_c.telenorid_client_set_dpop_signer, algorithm, public_jwk, host_key_signer)

    def set_client_signer(self, algorithm: str, public_jwk: Union[str, Dict[str, Any]],
                          host_key_signer: Optional[HostKeySigner]) -> None:
        """Signs as the client (private_key_jwt assertions, RFC 7523; request objects, RFC 9101) with a key
        you hold instead of ``client_private_key``; ``host_key_signer`` and ``public_jwk`` as for
        :meth:`set_dpop_signer` (the JWK's ``kid`` goes into the JWS header). ``host_key_signer`` None goes back
        to the configured key."""
        self._set_signer(_c.telenorid_client_set_client_signer, algorithm, public_jwk, host_key_signer)

    def _set_signer(self, setter: Any, algorithm: str, public_jwk: Union[str, Dict[str, Any]],
                    host_key_signer: Optional[HostKeySigner]) -> None:
        import json

        if self._native.pointer is None:
            self._closed()
        if host_key_signer is None:
            self._call(setter, None, None, _bindings.HostKeySigner(), None)
            return
        if not callable(host_key_signer):
            raise TypeError("host_key_signer must be callable or None")
        jwk = public_jwk if isinstance(public_jwk, str) else json.dumps(public_jwk)

        def sign_into(_user_data: Any, data: Any, length: int, out: Any, out_length: Any) -> int:
            answer = host_key_signer(bytes(data[:length]))
            # bytes(n) of an int would be n zero bytes: only a byte string is a signature.
            if not isinstance(answer, (bytes, bytearray, memoryview)):
                raise TypeError(f"the signer returned {type(answer).__name__}, not bytes")
            signature = bytes(answer)
            if len(signature) > out_length[0]:
                raise ValueError(f"the signature is {len(signature)} bytes, more than the {out_length[0]} it may be")
            memmove(out, signature, len(signature))
            out_length[0] = len(signature)
            return 0

        # What the signer raises fails the request, which raises from it.
        c_sign = _bindings.HostKeySigner(_shielded(sign_into, host_key_signer, 1, carried=True))
        self._call(setter, _str(algorithm, "algorithm"), _str(jwk, "public_jwk"), c_sign, None)
        # Kept as long as this object, which every AuthState made from it references: requests in flight and
        # auth states outliving close() may still call it.
        self._keep_alive.append(c_sign)

    def __init__(self, config: Config) -> None:
        pass

    def cancel(self) -> None:
        """Ends every blocking call of this client and its auth states under way on other threads (discovery,
        token, userinfo, revocation, pushed requests, polling waits) within 100 ms: they raise
        :class:`CancelledError` and change nothing. A refresh or code exchange whose request has been sent is
        the exception: its answer is awaited within the ``timeout_ms`` and kept (a refresh's new tokens saved;
        exchanging the same callback again gives the state), then it raises :class:`CancelledError`. Calls that
        start afterwards run normally. Any thread; never blocks."""
        self._call(_c.telenorid_client_cancel)

    def discover(self) -> None:
        """Fetches and checks the provider's metadata now."""
        self._call(_c.telenorid_client_discover)

    def config(self) -> Config:
        """The configuration with discovered endpoints filled in, for :class:`AuthorizationRequest`."""
        config = _bindings.ConfigP()
        self._call(_c.telenorid_client_config, byref(config))
        return Config._adopt(config)

    def build_authorization(self, request: AuthorizationRequest) -> PendingAuthorization:
        """Builds ``request`` with this client's endpoints (configured or discovered) and, when the
        configuration sets ``push_authorization_requests`` or the provider requires it, pushes it first
        (RFC 9126): the URL then carries only ``client_id`` and ``request_uri``. Blocks on the network."""
        pending = _bindings.PendingAuthP()
        request_pointer = _enter_argument(request, AuthorizationRequest, "request")
        try:
            self._call(_c.telenorid_client_build_auth_request, request_pointer, byref(pending))
        finally:
            _leave(request._native)
        return PendingAuthorization._adopt(pending, request._parents[0])

    def start_backchannel_authentication(self, request: AuthorizationRequest) -> BackchannelAuthentication:
        """Asks the provider to authenticate the user ``request`` names (OpenID CIBA Core 1.0 §7.1): exactly one
        of ``login_hint``, ``login_hint_token``, ``id_token_hint``, with its scope (must include openid),
        ``acr_values``, ``binding_message``, ``user_code``, ``requested_expiry``; then
        :meth:`BackchannelAuthentication.wait`. Blocks on the network."""
        auth = _bindings.BackchannelAuthP()
        request_pointer = _enter_argument(request, AuthorizationRequest, "request")
        try:
            self._call(_c.telenorid_client_start_backchannel_authentication, request_pointer, byref(auth))
        finally:
            _leave(request._native)
        return BackchannelAuthentication._adopt(auth, self)

    def exchange_code(self, callback: AuthorizationCallback) -> "AuthState":
        """Exchanges a validated callback's code for tokens and validates the ID token."""
        state = _bindings.AuthStateP()
        # Entered as an argument: closing the callback mid-call is safe too.
        callback_pointer = _enter_argument(callback, AuthorizationCallback, "callback")
        try:
            self._call(_c.telenorid_client_exchange_code, callback_pointer, byref(state))
        finally:
            _leave(callback._native)
        return AuthState._adopt(state, self)

    def native_sso(self, id_token: str, device_secret: str, scope: Optional[str] = None) -> "AuthState":
        """Signs the user of ``id_token`` in for this client from another app's sign-in (OpenID Connect Native
        SSO for Mobile Apps 1.0 §4): ``id_token`` and ``device_secret`` are that app's (``state.get("id_token")``,
        ``state.get("device_secret")``, from the platform's shared storage). The pair is checked first (the
        ID token's issuer and ``ds_hash``: :class:`InvalidArgumentError`), then exchanged at the token endpoint
        for ``scope`` (None: the configuration's; it must include openid); the new ID token is validated as a
        sign-in's, with its ``ds_hash`` and subject (:class:`TokenInvalidError`). Blocks on the network."""
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_client_native_sso, _str(id_token, "id_token"), _str(device_secret, "device_secret"),
                   _opt_str(scope, "scope"), byref(state))
        return AuthState._adopt(state, self)

    def start_device_authorization(self, request: Optional[AuthorizationRequest] = None) -> "DeviceAuthorization":
        """Starts a device authorization grant (RFC 8628) at the device authorization endpoint (configured as
        ``device_authorization_endpoint``, else discovered), for ``request``'s scope, resources,
        authorization details and extra parameters (None: the configuration's scope). Show the result's
        user code and verification URI, then :meth:`DeviceAuthorization.wait`. Blocks on the network."""
        from .device import DeviceAuthorization

        device = _bindings.DeviceAuthorizationP()
        if request is None:
            self._call(_c.telenorid_client_start_device_authorization, None, byref(device))
        else:
            request_pointer = _enter_argument(request, AuthorizationRequest, "request")
            try:
                self._call(_c.telenorid_client_start_device_authorization, request_pointer, byref(device))
            finally:
                _leave(request._native)
        return DeviceAuthorization._adopt(device, self)

    def verify_id_token(self, id_token: str, nonce: Optional[str] = None) -> Dict[str, Any]:
        """Validates an ID token with the provider's keys (signature, iss, aud, azp, exp, iat, nbf and the
        nonce when given) and returns ``{"header": {...}, "claims": {...}}``; raises TokenInvalidError."""
        import json

        text = self._string_call(_c.telenorid_client_verify_id_token, _str(id_token, "id_token"),
                            _opt_str(nonce, "nonce"))
        verified: Dict[str, Any] = json.loads(text or "{}")
        return verified

    def restore(self, json: str) -> "AuthState":
        """Restores :meth:`AuthState.serialize`'s output for this client."""
        encoded = _str(json, "json")
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_auth_state_restore, encoded, byref(state))
        return AuthState._adopt(state, self)

    def open_store(self, store: HostStore, key: str) -> "AuthState":
        """The auth state kept in record ``key`` of ``store`` (a :class:`DirectoryStore` or the host's own
        :class:`Store`), bound to it: signed out when there is no record yet. See :meth:`AuthState.bind_store`."""
        encoded = _str(key, "key")
        native = _NativeStore.of(store)
        state = _bindings.AuthStateP()
        pointer = _enter_argument(native, _NativeStore, "store")
        try:
            self._call(_c.telenorid_auth_state_open_store, pointer, encoded, byref(state))
        finally:
            _leave(native._native)
        adopted = AuthState._adopt(state, self)
        adopted._keep_alive.append(native)  # the functions C calls live as long as the state
        return adopted

    def open_accounts(self, store: HostStore, name: str) -> "Accounts":
        """The registry of accounts ``name`` of ``store`` (see :class:`~telenorid.accounts.Accounts`)."""
        from .accounts import Accounts
        return Accounts._open(self, _NativeStore.of(store), name)

    def open_auth_state_file(self, path: str) -> "AuthState":
        """The auth state kept in the file at ``path`` (signed out when there is none yet), bound to it: see
        :meth:`AuthState.bind_file`. Processes that open the same file share one sign-in safely."""
        encoded = _str(path, "path")
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_auth_state_open_file, encoded, byref(state))
        return AuthState._adopt(state, self)
