"""Stores: where bound auth states live, so that processes (and machines) share one sign-in safely.

A store keeps auth states under record keys (1 to 128 of ``A-Z a-z 0-9 . _ -``, not ending in ``.update``).
:class:`DirectoryStore` is the library's file store; any other storage (a keychain, a secret service, a
database) is a class with the four methods of :class:`Store`, subclassing it or not. The library calls them
on the thread of the library call that needs them, possibly on several threads at once; an exception inside
one fails that call with :class:`StoreFailedError` (the exception as its ``__cause__``), never crosses into C.
Inside them, the library's other calls are refused (``InvalidArgumentError``): the call they serve may hold
the state's locks.

Every refresh holds the record's lock ``key`` for its round trip and takes ``key + ".update"`` inside it, and
a sign-out takes ``key + ".update"`` alone: ``lock`` must exclude every holder of a name across all the
threads and processes sharing the store. Before a refresh request leaves, the record is written with a
marker, which the answer's state replaces; a process that finds a marker left by one that stopped refreshes
all the same, and a refusal then raises :class:`RotationPossiblyLostError` (see the C header's "Storage").
"""
from __future__ import annotations

import os
from ctypes import byref, c_size_t, c_uint8, memset, sizeof, string_at
from typing import Any, Optional, Union

from . import _bindings, _constants, _ffi
from ._callbacks import _shielded
from ._convert import _str
from ._handle import _Handle

_c = _ffi.functions
_FAILED = _constants.STATUS["STORE_FAILED"]
_TIMEOUT = _constants.STATUS["TIMEOUT"]


class Store:
    """The methods a host's store implements (a subclass, or any object with them). Each record's bytes hold
    the refresh token: keep them as secret as the platform allows."""

    def load(self, key: str) -> Optional[bytes]:
        """Record ``key``, or None when there is none."""
        raise NotImplementedError

    def store(self, key: str, data: bytes) -> None:
        """Replaces record ``key`` with ``data`` atomically: a load sees the old record or the new one."""
        raise NotImplementedError

    def lock(self, name: str, timeout_s: float) -> bool:
        """Takes the lock ``name``, waiting at most ``timeout_s`` seconds (the client's total HTTP timeout);
        False when it could not. Never asked for a lock this thread holds."""
        raise NotImplementedError

    def unlock(self, name: str) -> None:
        """Releases the lock ``name``, taken by :meth:`lock` on this thread."""
        raise NotImplementedError


class DirectoryStore:
    """The library's file store: record ``key`` is the file ``<directory>/<key>.json`` (mode 0600, replaced
    atomically) with its lock files beside it (see :meth:`AuthState.bind_file`). The directory must exist."""

    __slots__ = ("directory",)

    def __init__(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        self.directory = os.fspath(directory)
        _str(self.directory, "directory")

    def __repr__(self) -> str:
        return f"DirectoryStore({self.directory!r})"


HostStore = Union[Store, DirectoryStore, Any]


class _NativeStore(_Handle):
    """A telenorid_store for one bind or open, with the ctypes functions C calls, which live as long as it and
    the auth state it is kept with (AuthState._keep_alive)."""

    __slots__ = ("_functions",)
    _free = staticmethod(_c.telenorid_store_free)
    _functions: Any

    @classmethod
    def of(cls, store: HostStore) -> "_NativeStore":
        pointer = _bindings.StoreP()
        if isinstance(store, DirectoryStore):
            status = _c.telenorid_store_new_directory(_str(store.directory, "directory"), byref(pointer))
            functions = None
        else:
            functions = _functions(store)
            status = _c.telenorid_store_new(byref(functions), None, byref(pointer))
        if status:
            from .errors import _raise
            _raise(status)
        self = cls._adopt(pointer)
        self._functions = functions
        return self


def _functions(store: Any) -> _bindings.telenorid_store_functions:
    missing = [name for name in ("load", "store", "lock", "unlock") if not callable(getattr(store, name, None))]
    if missing:
        raise TypeError(f"store must have the methods of telenorid.Store; {type(store).__name__} lacks "
                        + ", ".join(missing))

    def load(_user_data: Any, key: bytes, record: Any) -> int:
        data = store.load(key.decode("ascii"))
        if data is None:
            return 0
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{type(store).__name__}.load returned {type(data).__name__}, not bytes or None")
        view = memoryview(data).cast("B")
        buffer = (c_uint8 * len(view)).from_buffer_copy(view) if len(view) else (c_uint8 * 1)()
        try:
            status: int = _c.telenorid_store_record_set(record, buffer, c_size_t(len(view)))
        finally:
            memset(buffer, 0, sizeof(buffer))  # the copy held the refresh token
        return status

    def save(_user_data: Any, key: bytes, data: Any, length: int) -> int:
        store.store(key.decode("ascii"), string_at(data, length) if length else b"")
        return 0

    def lock(_user_data: Any, name: bytes, timeout_ms: int) -> int:
        return 0 if store.lock(name.decode("ascii"), timeout_ms / 1000) else _TIMEOUT

    def unlock(_user_data: Any, name: bytes) -> int:
        store.unlock(name.decode("ascii"))
        return 0

    return _bindings.telenorid_store_functions(
        sizeof(_bindings.telenorid_store_functions),
        _bindings.StoreLoadFunction(_shielded(load, store.load, _FAILED, carried=True)),
        _bindings.StoreSaveFunction(_shielded(save, store.store, _FAILED, carried=True)),
        _bindings.StoreLockFunction(_shielded(lock, store.lock, _FAILED, carried=True)),
        _bindings.StoreUnlockFunction(_shielded(unlock, store.unlock, _FAILED, carried=True)),
        _bindings.StoreReleaseFunction())
