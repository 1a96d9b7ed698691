"""Pkce: a PKCE verifier and its S256 challenge (RFC 7636)."""
from __future__ import annotations

import ctypes
import threading
from typing import Tuple

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


def generate(length: int = 43) -> Tuple[str, str]:
    """A fresh ``(verifier, challenge)`` pair as plain strings, in one foreign call with no handle.

    The verifier has ``length`` characters (43 to 128; 0: the library's default, 64) from the unreserved
    set; the challenge is its S256 challenge (RFC 7636 §4.2). The verifier is a secret: send it only to the
    token endpoint. Its bytes in this module's buffer are wiped before returning (a Python str can't be).
    Thread-safe: each thread writes into buffers of its own, as ctypes releases the GIL during the call.
    """
    if type(length) is not int:
        length = _int(length, "length")  # an int subclass passes (not bool); anything else is TypeError
    if not 0 <= length <= _SIZE_MAX:  # size_t: a negative int would wrap around in ctypes
        raise InvalidArgument(f"length must be 0 or 43 to 128, not {length}")
    try:
        verifier, challenge = _buffers.pair
    except AttributeError:
        verifier, challenge = _buffers.pair = (ctypes.create_string_buffer(_VERIFIER_SIZE),
                                               ctypes.create_string_buffer(_CHALLENGE_SIZE))
    status = _pkce_generate(length, verifier, _VERIFIER_SIZE, challenge, _CHALLENGE_SIZE)
    if status:
        _raise(status)
    try:
        return verifier.value.decode("ascii"), challenge.value.decode("ascii")
    finally:
        ctypes.memset(verifier, 0, _VERIFIER_SIZE)


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
# The longest verifier (RFC 7636 §4.1) and a 43-character challenge, each with its NUL.
_VERIFIER_SIZE = 129
_CHALLENGE_SIZE = 44
_buffers = threading.local()
_pkce_generate = _lib.telenorid_pkce_generate
_PkceP = _ffi.PkceP
_pkce_verifier = _lib.telenorid_pkce_verifier
_pkce_challenge = _lib.telenorid_pkce_challenge
