"""LineAuthenticator: TelenorID+ line authentication through Aloha."""
from __future__ import annotations

from ctypes import byref, c_int64, memmove
from typing import Any, Callable, List, Optional, Sequence, Union

from . import _bindings, _constants, _ffi
from ._callbacks import _shielded
from ._handle import _call_on, _enter_argument, _Handle, _leave
from .authorization import AuthorizationRequest
from .config import Config

_c = _ffi.functions


def _free_line_auth(pointer: Any, keep_alive: List[Any]) -> None:
    _c.telenorid_line_authenticator_free(pointer)
    keep_alive.clear()  # the socket hook may go only once C can no longer call it


class LineAuthenticator(_Handle):
    """TelenorID+ line authentication through Aloha; shareable between threads, its calls block.

    ``run()`` in a background thread before sign-in; ``apply(request)`` at sign-in sets ``aloha_token``
    from a still-valid session or runs the exchange first. Needs the ``aloha_url`` setting.
    """

    __slots__ = ("_keep_alive",)
    _free = staticmethod(_c.telenorid_line_authenticator_free)
    _keep_alive: List[Any]

    def __new__(cls, config: Config) -> "LineAuthenticator":
        pointer = _bindings.LineAuthenticatorP()
        _call_on(config, Config, "config", _c.telenorid_line_authenticator_new, byref(pointer))
        self = object.__new__(cls)
        self._parents = (config,)
        self._keep_alive = []
        self._own(pointer, _free_line_auth, self._keep_alive)
        return self

    def __init__(self, config: Config) -> None:
        pass

    def run(self) -> None:
        """Runs one whole exchange now and keeps the session."""
        self._call(_c.telenorid_line_authenticator_run)

    @property
    def valid_for(self) -> int:
        """Seconds the kept session is still valid for, less the margin (``set_margin``); 0 when there is none
        or it counts as expired."""
        value = c_int64()
        self._call(_c.telenorid_line_authenticator_valid_for, byref(value))
        return value.value

    def apply(self, request: "AuthorizationRequest") -> None:
        """Sets ``aloha_token`` on ``request``; on failure raises and leaves the request as it was, so the
        caller may catch the error, tell the user, and sign in without line authentication."""
        request_pointer = _enter_argument(request, AuthorizationRequest, "request")  # closing it mid-call is safe too
        try:
            self._call(_c.telenorid_line_authenticator_apply, request_pointer)
        finally:
            _leave(request._native)

    def set_socket_hook(self, hook: Optional[Callable[[int], str]]) -> None:
        """Calls ``hook(fd)`` with each socket before it connects; it returns "allow", "refuse" or
        "not_cellular" (anything else, or an exception, refuses: the run or apply then fails, raising from the
        exception). None removes it."""
        if self._native.pointer is None:  # refused before the hook is checked
            self._closed()
        if hook is None:
            self._call(_c.telenorid_line_authenticator_set_socket_hook, _bindings.SocketHook(), None)
            return
        if not callable(hook):
            raise TypeError("hook must be callable or None")

        # What the hook raises refuses the socket, and the failing run or apply raises from it.
        c_hook = _bindings.SocketHook(_shielded(lambda _user_data, fd: _constants.SOCKET_VERDICTS.get(hook(fd), 1), hook, 1,
                                           carried=True))
        self._call(_c.telenorid_line_authenticator_set_socket_hook, c_hook, None)
        # Kept until the C handle is freed: an exchange on another thread may still hold the old hook.
        self._keep_alive.append(c_hook)

    def set_margin(self, seconds: int) -> None:
        """A kept session with ``seconds`` or fewer left (0 to 86400; 30 by default) counts as expired:
        ``valid_for`` is then 0 and ``apply`` makes a fresh one."""
        if not isinstance(seconds, int) or isinstance(seconds, bool):
            raise TypeError("seconds must be an int")
        if not -(1 << 63) <= seconds < (1 << 63):
            raise ValueError("seconds is out of range")  # the library refuses anything outside 0..86400
        self._call(_c.telenorid_line_authenticator_set_margin, c_int64(seconds))

    def set_resolver(self, resolver: Optional[Callable[[str, int], Union[None, str, Sequence[str]]]]) -> None:
        """Calls ``resolver(host, port)`` for each name the exchange looks up, so it is resolved on the network
        the socket hook binds to; it returns the IP addresses (a list of strings, or one string of them separated
        by commas), None when the name cannot be resolved, or "not_cellular" (an exception refuses, and the run
        or apply raises from it). libcurl then connects only to those addresses. None removes it: the system
        resolver again. The exchange never uses a proxy, with or without one."""
        if self._native.pointer is None:
            self._closed()
        if resolver is None:
            self._call(_c.telenorid_line_authenticator_set_resolver, _bindings.HostResolver(), None)
            return
        if not callable(resolver):
            raise TypeError("resolver must be callable or None")

        def answer(_user_data: Any, host: bytes, port: int, out: Any, size: int) -> int:
            addresses = resolver(host.decode("ascii"), port)
            if addresses is None:
                return _constants.SOCKET_VERDICTS["refuse"]
            if addresses == "not_cellular":
                return _constants.SOCKET_VERDICTS["not_cellular"]
            text = addresses if isinstance(addresses, str) else ",".join(addresses)
            data = text.encode("ascii")
            if len(data) >= size:
                raise ValueError(f"the resolver's answer is longer than {size - 1} bytes")
            memmove(out, data, len(data))
            out[len(data)] = 0
            return _constants.SOCKET_VERDICTS["allow"]

        c_resolver = _bindings.HostResolver(_shielded(answer, resolver, _constants.SOCKET_VERDICTS["refuse"], carried=True))
        self._call(_c.telenorid_line_authenticator_set_resolver, c_resolver, None)
        self._keep_alive.append(c_resolver)  # kept until the C handle is freed, as the socket hook
