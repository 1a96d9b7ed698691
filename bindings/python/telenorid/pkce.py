"""Pkce: a PKCE verifier and its S256 challenge (RFC 7636)."""
from __future__ import annotations

import ctypes

from . import _ffi
from ._handle import _Handle, _str
from .errors import InvalidArgument, _int, _raise

_lib = _ffi.lib


class Pkce(_Handle):
    """A PKCE verifier (a secret, wiped when closed) and its S256 challenge (RFC 7636).

    ``Pkce.new(length=0)`` (or ``Pkce(length)``) draws a verifier of 43-128 characters (0: the library's
    default, 64); ``Pkce.from_verifier(text)`` takes one the caller has.
    """

    __slots__ = ()
    _free = staticmethod(_lib.telenorid_pkce_free)

    def __new__(cls, length: int = 0) -> "Pkce":
        return cls.new(length)

    def __init__(self, length: int = 0) -> None:
        pass

    @classmethod
    def new(cls, length: int = 0) -> "Pkce":
        if type(length) is not int:
            length = _int(length, "length")  # an int subclass passes (not bool); anything else is TypeError
        if not 0 <= length <= _SIZE_MAX:  # size_t: a negative int would wrap around in ctypes
            raise InvalidArgument(f"length must be 0 or 43 to 128, not {length}")
        pointer = _PkceP()
        status = _lib.telenorid_pkce_new(length, pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @classmethod
    def from_verifier(cls, verifier: str) -> "Pkce":
        pointer = _ffi.PkceP()
        status = _lib.telenorid_pkce_from_verifier(_str(verifier, "verifier"), pointer)
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @property
    def verifier(self) -> str:
        """The verifier: send it only to the token endpoint."""
        return self._string_call(_pkce_verifier) or ""

    @property
    def challenge(self) -> str:
        """The S256 challenge."""
        return self._string_call(_pkce_challenge) or ""


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_PkceP = _ffi.PkceP
_pkce_verifier = _lib.telenorid_pkce_verifier
_pkce_challenge = _lib.telenorid_pkce_challenge
