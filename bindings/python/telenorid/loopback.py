"""LoopbackListener: the loopback redirect listener (RFC 8252 §7.3) for desktop and command-line sign-in."""
from __future__ import annotations

import time
from ctypes import byref, c_uint16
from typing import Optional

from . import _bindings, _ffi
from ._convert import _opt_str
from ._handle import _Handle
from .errors import NetworkTimeoutError, _raise

_c = _ffi.functions

# The longest single C wait. Python runs signal handlers only between C calls, so a KeyboardInterrupt
# (Ctrl-C) waits for the slice under way to end: at most this long.
_SLICE_MS = 250


class LoopbackListener(_Handle):
    """A loopback redirect listener (RFC 8252 §7.3) on 127.0.0.1, for desktop and command-line sign-in:
    configure :attr:`redirect_uri` as the redirect URI, open the authorization URL in a browser, then
    :meth:`wait` for the redirect and pass it to :meth:`PendingAuthorization.handle_callback`."""

    __slots__ = ()
    _free = staticmethod(_c.telenorid_loopback_listener_free)

    def __new__(cls, port: int = 0, path: Optional[str] = None) -> "LoopbackListener":
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise TypeError("port must be an int from 0 to 65535")
        pointer = _bindings.LoopbackListenerP()
        status = _c.telenorid_loopback_listener_new(c_uint16(port), _opt_str(path, "path"), byref(pointer))
        if status:
            _raise(status)
        return cls._adopt(pointer)

    def __init__(self, port: int = 0, path: Optional[str] = None) -> None:
        pass

    @property
    def redirect_uri(self) -> str:
        """``http://127.0.0.1:<port><path>``."""
        return self._string_call(_c.telenorid_loopback_listener_redirect_uri) or ""

    def wait(self, timeout: float = 300.0) -> str:
        """Blocks until the browser's redirect arrives (its full URL) or raises NetworkTimeoutError, after which
        it can wait again. Ctrl-C (KeyboardInterrupt) ends it within 0.25 s. A listener hands out one redirect; a
        later wait raises ConsumedError."""
        milliseconds = int(timeout * 1000)
        if not 0 < milliseconds <= 0x7FFFFFFF:
            raise ValueError("timeout must be positive and under 24 days")
        # In slices, as the C wait allows (it may be repeated after a timeout), so Ctrl-C interrupts it
        # within a slice; the deadline is the whole timeout's.
        deadline = time.monotonic() + milliseconds / 1000
        while True:
            left = int((deadline - time.monotonic()) * 1000)
            try:
                return self._string_call(_c.telenorid_loopback_listener_wait, max(1, min(_SLICE_MS, left))) or ""
            except NetworkTimeoutError:
                if time.monotonic() < deadline:
                    continue
            # Outside the handler: the last slice's error (which names the slice) is not this one's cause.
            raise NetworkTimeoutError(f"no redirect reached {self.redirect_uri} within {timeout:g} s",
                                      NetworkTimeoutError.code)

    def cancel(self) -> None:
        """Ends a :meth:`wait` under way on another thread within 100 ms: it raises :class:`CancelledError`, and the
        listener can wait again. A later wait runs normally. Any thread; never blocks."""
        self._call(_c.telenorid_loopback_listener_cancel)

    def expect_state(self, state: Optional[str]) -> None:
        """Only a callback whose query carries exactly ``state`` (the pending request's) ends the wait; others
        are answered 400 and the wait goes on. None accepts any. Also from another thread during a wait.
        Query responses only: with ``response_mode=fragment`` the state never reaches the listener."""
        self._call(_c.telenorid_loopback_listener_expect_state, _opt_str(state, "state"))
