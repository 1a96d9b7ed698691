"""BackchannelAuthentication: OpenID Client-Initiated Backchannel Authentication (CIBA Core 1.0), poll and
ping modes, and the mobile operators' login hint forms (MODRNA / CAMARA).

    request = AuthorizationRequest(client.config()).set("login_hint", login_hint_phone_number("+4790000000"))
    auth = client.start_backchannel_authentication(request)
    state = auth.wait()                      # the user approves on their own device

In ping mode (``backchannel_token_delivery_mode="ping"``) the host's notification endpoint passes each call
to :meth:`BackchannelAuthentication.handle_ping`, which wakes the wait.
"""
from __future__ import annotations

from ctypes import byref, c_int32, c_int64
from typing import Union

from . import _bindings, _constants, _ffi
from ._convert import _str, _string_call
from ._handle import _Handle
from ._interruptible import Cancellable, interruptible
from .auth_state import AuthState
from .errors import InvalidArgumentError, _int, _raise

_c = _ffi.functions


_FORMS = {value: name for name, value in _constants.LOGIN_HINT_FORMS.items()}




class BackchannelAuthentication(_Handle):
    """A backchannel authentication under way: the provider is asking the user on their own device. Made by
    :meth:`Client.start_backchannel_authentication`. Any thread; one :meth:`wait` at a time."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_backchannel_auth_free)

    @property
    def auth_req_id(self) -> str:
        """The provider's id of this request."""
        return self._string_call(_c.telenorid_backchannel_auth_id) or ""

    @property
    def expires_at(self) -> int:
        """When the client gives up waiting (:class:`ExpiredError`), in Unix seconds: the provider's
        ``expires_in`` after its answer."""
        value = c_int64()
        self._call(_c.telenorid_backchannel_auth_expires_at, byref(value))
        return value.value

    @property
    def interval(self) -> int:
        """Seconds between polls now: the provider's ``interval`` (5 when it gave none), grown by each
        ``slow_down``."""
        value = c_int32()
        self._call(_c.telenorid_backchannel_auth_interval, byref(value))
        return value.value

    def handle_ping(self, authorization: str, body: Union[str, bytes]) -> None:
        """Ping mode: checks a call to the host's notification endpoint — ``authorization``, its
        Authorization header, must be ``Bearer`` and this request's notification token, and ``body`` (its
        JSON) must name this request's ``auth_req_id`` — and wakes :meth:`wait`; answer the provider 204.
        Raises :class:`StateMismatch` for another token or request (answer 401 or 400), :class:`Malformed`
        for a body that is not such JSON, :class:`ConfigurationError` in poll mode. A refused ping changes
        nothing. Any thread."""
        if isinstance(body, (bytes, bytearray)):
            body = bytes(body).decode("utf-8", "surrogateescape")
        self._call(_c.telenorid_backchannel_auth_handle_ping, _str(authorization, "authorization"),
                   _str(body, "body"))

    def wait(self) -> AuthState:
        """Blocks until the user approves and returns the signed-in :class:`AuthState` (its ID token
        validated, as :meth:`Client.exchange_code` makes it). Raises :class:`AuthorizationError`
        (``oauth_error`` ``access_denied``) when the user refused, :class:`ExpiredError` when the request
        expired, :class:`Cancelled` after :meth:`Client.cancel`. Ctrl-C (KeyboardInterrupt) cancels it within
        0.25 s. A failed wait may be started again; after a successful one, :class:`Consumed`."""
        client: Cancellable = self._parents[0]  # the Client that made it
        return interruptible(client, self._wait)

    def _wait(self) -> AuthState:
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_backchannel_auth_wait, byref(state))
        return AuthState._adopt(state, self._parents[0])


def login_hint_phone_number(e164: str) -> str:
    """``tel:`` and an E.164 number: ``+`` and 1 to 15 digits, the first not 0; anything else raises
    :class:`InvalidArgumentError`."""
    return _string_call(_c.telenorid_login_hint_phone_number, _str(e164, "e164")) or ""


def login_hint_ip_port(address: str, port: int) -> str:
    """``ipport:`` and the device's public IPv4 (dotted decimal) or IPv6 (without brackets) address and port
    (1-65535) as the operator's network sees it; anything else raises :class:`InvalidArgumentError`."""
    if not -2**31 <= _int(port, "port") < 2**31:  # c_int32 would wrap it into a port that looks valid
        raise InvalidArgumentError("port must be from 1 to 65535")
    return _string_call(_c.telenorid_login_hint_ip_port, _str(address, "address"), c_int32(port)) or ""


def login_hint_operator_token(token: str) -> str:
    """``operatortoken:`` and a token the operator issued (non-empty printable ASCII without spaces)."""
    return _string_call(_c.telenorid_login_hint_operator_token, _str(token, "token")) or ""


def login_hint_form(hint: str) -> str:
    """Which form ``hint`` is in: ``"phone_number"``, ``"ip_port"`` or ``"operator_token"``; a hint in none
    of them raises :class:`InvalidArgumentError`."""
    form = c_int32()
    status = _c.telenorid_login_hint_get_form(_str(hint, "hint"), byref(form))
    if status:
        _raise(status)
    return _FORMS[form.value]
