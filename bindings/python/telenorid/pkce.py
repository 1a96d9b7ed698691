"""Pkce: a PKCE verifier and its S256 challenge (RFC 7636)."""
from __future__ import annotations

import ctypes
import threading
from ctypes import byref
from typing import Tuple

from . import _bindings, _ffi
from ._convert import _str
from ._handle import _Handle
from .errors import InvalidArgumentError, _int, _raise

_c = _ffi.functions


class Pkce(_Handle):
    """A PKCE verifier (a secret, wiped when closed) and its S256 challenge (RFC 7636).

    ``Pkce.new(length=0)`` (or ``Pkce(length)``) draws a verifier of 43-128 characters (0: the library's
    default, 64); ``Pkce.from_verifier(text)`` takes one the caller has.
    """

    __slots__ = ()
    _free = staticmethod(_c.telenorid_pkce_free)

    def __new__(cls, length: int = 0) -> "Pkce":
        return cls.new(length)

    def __init__(self, length: int = 0) -> None:
        pass

    @classmethod
    def new(cls, length: int = 0) -> "Pkce":
        """A fresh verifier of ``length`` characters (43 to 128; 0: 64) from the system's CSPRNG, and its
        S256 challenge."""
        if type(length) is not int:
            length = _int(length, "length")  # an int subclass passes (not bool); anything else is TypeError
        if not 0 <= length <= _SIZE_MAX:  # size_t: a negative int would wrap around in ctypes
            raise InvalidArgumentError(f"length must be 0 or 43 to 128, not {length}")
        pointer = _PkceP()
        size = _LENGTHS[length] if length <= _MAX_LENGTH else ctypes.c_size_t(length)  # the library refuses it
        status = _pkce_new(size, byref(pointer))
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @classmethod
    def from_verifier(cls, verifier: str) -> "Pkce":
        """The pair for a verifier the caller has (43-128 unreserved characters), e.g. a test vector."""
        pointer = _PkceP()
        status = _c.telenorid_pkce_from_verifier(_str(verifier, "verifier"), byref(pointer))
        if status:
            _raise(status)
        return cls._adopt(pointer)

    @property
    def verifier(self) -> str:
        """The verifier: send it only to the token endpoint."""
        return self._text(_pkce_verifier)

    @property
    def challenge(self) -> str:
        """The S256 challenge."""
        return self._text(_pkce_challenge)


def generate(length: int = 43) -> Tuple[str, str]:
    """A fresh ``(verifier, challenge)`` pair as plain strings, in one foreign call with no handle.

    The verifier has ``length`` characters (43 to 128; 0: the library's default, 64) from the unreserved
    set; the challenge is its S256 challenge (RFC 7636 §4.2). The verifier is a secret: send it only to the
    token endpoint. Its bytes in this module's buffer are wiped before returning (the str and the bytes it
    was decoded from can't be).
    Thread-safe: each thread writes into buffers of its own, as ctypes releases the GIL during the call.
    """
    if type(length) is not int:
        length = _int(length, "length")  # an int subclass passes (not bool); anything else is TypeError
    if not 0 <= length <= _MAX_LENGTH:
        raise InvalidArgumentError(f"length must be 0 or 43 to 128, not {length}")
    try:
        verifier, challenge = _buffers.pair
    except AttributeError:
        verifier, challenge = _buffers.pair = (ctypes.create_string_buffer(_VERIFIER_SIZE.value),
                                               ctypes.create_string_buffer(_CHALLENGE_SIZE.value))
    status = _pkce_generate(_LENGTHS[length], verifier, _VERIFIER_SIZE, challenge, _CHALLENGE_SIZE)
    if status:
        _raise(status)
    try:
        return verifier.value.decode("ascii"), challenge.value.decode("ascii")
    finally:
        verifier.raw = _ZEROS  # an in-place copy: a third of the time of a ctypes.memset call


_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
# The longest verifier (RFC 7636 §4.1) and a 43-character challenge, each with its NUL.
_MAX_LENGTH = 128
_VERIFIER_SIZE = ctypes.c_size_t(_MAX_LENGTH + 1)
_CHALLENGE_SIZE = ctypes.c_size_t(44)
_ZEROS = bytes(_VERIFIER_SIZE.value)
# Every length up to the longest, as ready size_t objects for generate() and Pkce.new (the library refuses 1
# to 42 itself).
_LENGTHS = tuple(ctypes.c_size_t(length) for length in range(_MAX_LENGTH + 1))
_buffers = threading.local()
# Module globals for the benchmarked path: one lookup each, not a module's and an attribute's. The arguments
# above are already ctypes objects of the header's types (size_t, or a char array passed as char *).
_pkce_generate = _c.telenorid_pkce_generate
_PkceP = _bindings.PkceP
_pkce_new = _c.telenorid_pkce_new
_pkce_verifier = _c.telenorid_pkce_verifier
_pkce_challenge = _c.telenorid_pkce_challenge
