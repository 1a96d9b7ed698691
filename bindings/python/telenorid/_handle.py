"""_Handle, which owns one C handle and counts the calls in flight on it so that close() never frees a handle
under a running call, and the helpers that enter a handle around a C call. Nothing here is public API.
"""
from __future__ import annotations

import atexit
import sys
import threading
from ctypes import byref, c_char_p
from typing import Any, Callable, Dict, NoReturn, Optional, Tuple, Type, TypeVar

from ._convert import _string_call, _string_free
from .errors import InvalidArgument, _raise

# ctypes releases the GIL for the length of every C call, so one thread may close() a handle while another
# is inside C with it; the C contract forbids freeing a handle then. So every C call that takes a handle
# enters it first (counting a call in flight; refused with InvalidArgument once closed) and leaves it when C
# returns. close() marks the handle closed at once, and the C free happens when no call is in flight: in
# close() itself when the handle is idle (the usual case), else on the thread of the last call in flight, as
# that call returns.
#
# Deferring the free to the last call out, rather than making close() wait for the calls in flight as the JNI
# binding does (NativeObject.java), because in Python waiting would deadlock or hang where deferring cannot:
#   - close() from inside a call on the same handle: an AuthState change callback or a LineAuthenticator socket hook
#     runs inside a C call, and may close that handle or any other handle the thread is inside a call on
#     (line_auth.apply(request) holds the request too). Telling those apart from a call on another thread,
#     to raise instead of deadlocking as JNI does, would need the thread's identity recorded on every call.
#   - _close_at_exit closes the handles still open at interpreter exit, when a daemon thread may be
#     blocked in C (LoopbackListener.wait, up to its timeout): waiting would hang the exit, freeing would be a
#     use after free; deferred, the handle is left to the process's end.
# The price: close() may return before the C handle is freed (and its secrets wiped) when another thread is
# mid-call; it is freed the moment that call returns.
#
# The count: entering takes a lock (the check that the handle is open and the count must be one step, or a
# close() could come between them); leaving does not: it is one list.pop(), atomic on its own, and takes the
# lock only when the handle was closed meanwhile (to decide, with close(), who frees). One plain lock pair a
# call, no object allocated. (Under the GIL this is exact. In a free-threaded build the unlocked check after
# the pop could miss a close() made at that moment: the handle would then leak, never be freed under a call.)
# One lock for all handles, not one each: a lock per handle would be one more allocation per handle (Pkce.new
# is on the benchmarked path); it guards a few attribute reads, a list.append and a dict.pop only, never a C
# call, a free or Python code that could re-enter the binding, so sharing it costs nothing under the GIL and
# little without it, and cannot deadlock. `with`, not acquire()/release(): a KeyboardInterrupt between those
# two would leave every handle locked for good.
_lock = threading.Lock()


class _Native(list):  # type: ignore[type-arg]
    """A handle's C pointer, and (as the list's entries, one per call) its calls in flight. _open holds this,
    not the handle, so that close(), garbage collection and interpreter exit all free through the same count.
    A list subclass so that handle and count are one allocation."""

    __slots__ = ("pointer", "owned", "release")

    pointer: Any  # None once closed: new calls are refused
    owned: Any  # the pointer to release; None once released (tested with `is`: a NULL pointer is falsy)
    release: Callable[[Any], None]

    # By identity, to be a key of _open (one dict operation, no id() call). A list's own __eq__ stays, but a
    # dict compares keys only when their hashes are equal, and no two live objects' identity hashes are.
    __hash__ = object.__hash__  # type: ignore[assignment]

    def close(self) -> None:
        """Closes now; frees now unless calls are in flight (then the last of them frees). Idempotent."""
        with _lock:
            self.pointer = None
            _open.pop(self, None)
            if self:  # calls in flight: the last one out frees
                return
            owned, self.owned = self.owned, None
        if owned is not None:  # outside the lock: the free may run Python code (ctypes callbacks dropped)
            self.release(owned)


# The handles not yet closed (their _Native; the values are unused), so that _close_at_exit can reach them.
# Handles that become garbage are closed by _Handle.__del__ as they go, but at interpreter exit the ones still
# referenced (by a module, a reference cycle the collector never got to) would otherwise be left to module
# teardown, which replaces this module's globals with None before it gets to them, or never frees them.
# Holding the _Native, not the handle, keeps the handle collectable. One dict insert and one pop per handle,
# cheaper than a weakref.finalize each.
_open: Dict[_Native, None] = {}


@atexit.register
def _close_at_exit() -> None:
    """Closes every handle still open, wiping its secrets, before module teardown (atexit hooks run first):
    newest first, like weakref.finalize's exit hook did, so children go before their parents. A handle with a
    call in flight (a daemon thread blocked in C) is only marked closed: its last call out frees it, or the
    process's end does. One close() raising does not keep the others open."""
    while _open:
        native, _ = _open.popitem()
        try:
            native.close()
        except Exception:
            sys.excepthook(*sys.exc_info())


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
        native.release(owned)


_H = TypeVar("_H", bound="_Handle")


class _Handle:
    """Owns one C handle, released once: by close(), the end of a ``with`` block or garbage collection.

    Every C call that takes its pointer enters it first: under _lock, read ``native.pointer`` (None: closed,
    raise) and ``native.append(None)``; then the C call inside ``try``; then ``finally: native.pop()`` and,
    when ``native.pointer`` became None meanwhile, ``_free_if_idle(native)``. The helpers _call,
    _string_call and _text (this handle), _enter_argument/_leave and _call_on (a handle passed as an
    argument) do that; PendingAuthorization.handle_callback, the tightest benchmarked path, takes _enter and
    _leave around its function itself. Never hand the pointer to C without entering.
    """

    __slots__ = ("_native", "_parents", "__weakref__")
    _free: Callable[[Any], None]

    _native: _Native
    _parents: Tuple[Any, ...]

    def __init__(self) -> None:  # pragma: no cover - subclasses construct through _adopt
        raise TypeError(f"{type(self).__name__} objects are made by the library; see the class documentation")

    @classmethod
    def _adopt(cls: Type[_H], pointer: Any, *parents: Any) -> _H:
        self = object.__new__(cls)
        self._parents = parents  # what this was made from stays referenced, as the C side keeps it alive
        # self._own(pointer, cls._free), inlined: every handle on the benchmarked path is made here.
        native = self._native = _Native()
        native.pointer = pointer
        native.owned = pointer
        native.release = cls._free
        _open[native] = None
        return self

    def _own(self, pointer: Any, release: Callable[..., None], *extra: Any) -> None:
        """Takes ownership of pointer, released by ``release(pointer, *extra)``."""
        if extra:
            free = release
            release = lambda pointer: free(pointer, *extra)  # noqa: E731
        native = self._native = _Native()  # attributes set here, not by an __init__: a call less per handle
        native.pointer = pointer
        native.owned = pointer
        native.release = release
        _open[native] = None  # closed at interpreter exit unless closed before; _Native.close frees once

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

    def _text(self, function: Callable[..., int]) -> str:
        """``function(handle, &out)``'s string ("" for NULL), for the getters on the benchmarked path, with
        ``function`` one of _ffi.functions: _string_call with the copying inlined, and ``out`` a c_char_p,
        whose .value is the bytes without the from_address() read a c_void_p needs. The string is the
        caller's, not the handle's, so it is copied after leaving."""
        pointer = self._enter()
        native = self._native
        out = c_char_p()
        try:
            status = function(pointer, byref(out))
            if status:
                _raise(status)
        finally:
            _leave(native)
        try:
            value = out.value
            return "" if value is None else value.decode("utf-8")
        finally:
            _string_free(out)  # NULL is a no-op

    def _closed(self) -> NoReturn:
        raise InvalidArgument(f"this {type(self).__name__} is closed")

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (or the ``with`` block ended): further use is refused."""
        return self._native.pointer is None

    def close(self) -> None:
        """Releases the C handle (wiping any secrets it holds): now, or when calls that other threads have in
        flight on it return. Later calls raise InvalidArgument; a second close() does nothing."""
        self._native.close()

    def __del__(self) -> None:
        """Garbage collection closes what close() did not. __del__ rather than weakref.finalize (or a weakref
        with a callback): it costs nothing until the handle goes, and the common case, closed already, is one
        attribute test. At interpreter exit _close_at_exit has closed every handle before module teardown, so
        one that goes during the teardown stops at that test, before the globals it would need (a handle made
        after that hook, by an atexit hook registered before this module was imported, is not covered: as
        with weakref.finalize, whose hook ran at the same point, it is left to the process's end, or freed here
        while the module is still whole)."""
        try:
            native = self._native
        except AttributeError:  # made by object.__new__ but never owned a pointer (an error in between)
            return
        if native.owned is not None:
            native.close()

    def __enter__(self: _H) -> _H:
        if self._native.pointer is None:
            self._closed()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._native.close()  # close(), inlined: this is on every `with` block's path

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


