"""The loaded library's version."""
from __future__ import annotations

from . import _ffi

_lib = _ffi.lib


def library_version() -> str:
    """The loaded library's version string, e.g. "0.2.0"."""
    text: bytes = _lib.telenorid_version_string()
    return text.decode()


def library_version_number() -> int:
    """The loaded library's version as 0xMMmmpp."""
    return int(_lib.telenorid_version())
