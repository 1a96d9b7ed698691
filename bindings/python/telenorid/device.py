"""DeviceAuthorization: the device authorization grant (RFC 8628), sign-in on a device without a browser.

    device = client.start_device_authorization()
    print(f"go to {device.verification_uri} and enter {device.user_code}")
    state = device.wait()
"""
from __future__ import annotations

from ctypes import byref, c_int32, c_int64
from typing import Optional

from . import _bindings, _constants, _ffi
from ._handle import _Handle
from ._interruptible import Cancellable, interruptible
from .auth_state import AuthState

_c = _ffi.functions





class DeviceAuthorization(_Handle):
    """A device authorization grant under way (RFC 8628): show :attr:`user_code` and
    :attr:`verification_uri` (or :attr:`verification_uri_complete` as a QR code), then :meth:`wait` for the
    user's approval on another device. Made by :meth:`Client.start_device_authorization`. The properties
    may be read from any thread, also during a wait; one wait at a time."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_device_authorization_free)

    def _field(self, name: str) -> Optional[str]:
        return self._string_call(_c.telenorid_device_authorization_get, _constants.DEVICE_FIELDS[name])

    @property
    def user_code(self) -> str:
        """The code the user types at :attr:`verification_uri`. Show it; don't log it."""
        return self._field("user_code") or ""

    @property
    def verification_uri(self) -> str:
        """Where the user types the code (https)."""
        return self._field("verification_uri") or ""

    @property
    def verification_uri_complete(self) -> Optional[str]:
        """The verification URI with the code in it, for a QR code; None when the provider gives none."""
        return self._field("verification_uri_complete")

    @property
    def expires_at(self) -> int:
        """When the client gives up waiting (:class:`ExpiredError`), in Unix seconds: the provider's
        ``expires_in`` after its answer, at most an hour."""
        value = c_int64()
        self._call(_c.telenorid_device_authorization_expires_at, byref(value))
        return value.value

    @property
    def interval(self) -> int:
        """Seconds between polls now: the provider's ``interval`` (5 when it gave none), grown by 5 after
        each ``slow_down``."""
        value = c_int32()
        self._call(_c.telenorid_device_authorization_interval, byref(value))
        return value.value

    def wait(self) -> AuthState:
        """Blocks until the user approves and returns the signed-in :class:`AuthState` (as
        :meth:`Client.exchange_code` makes it). Raises :class:`AuthorizationError` (``oauth_error``
        ``access_denied``) when the user refused, :class:`ExpiredError` when the code expired,
        :class:`CancelledError` after :meth:`Client.cancel`. Ctrl-C (KeyboardInterrupt) cancels it within 0.25 s.
        A failed wait may be started again; after a successful one, :class:`ConsumedError`."""
        client: Cancellable = self._parents[0]  # the Client that made it
        return interruptible(client, self._wait)

    def _wait(self) -> AuthState:
        state = _bindings.AuthStateP()
        self._call(_c.telenorid_device_authorization_wait, byref(state))
        return AuthState._adopt(state, self._parents[0])
