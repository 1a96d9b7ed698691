"""The library, loaded and checked, and nothing else. The declarations (handle types, callback types, every
function's restype and argtypes) are telenorid/_bindings.py's and the header's constants telenorid/_constants.py's,
both generated from include/telenorid.h (scripts/gen).

Two views of each function:
  - ``functions.<name>``: what the binding calls, with the header's restype and no argtypes. ctypes then
    converts no argument on the way in, where checking and converting by argtypes is about a third of a short
    call, so every argument must already be of the header's type: a handle's POINTER object, bytes or None for
    a ``const char *``, a ctypes integer of the exact width for ``size_t``, ``int64_t`` and ``uint16_t`` (a
    bare Python int goes as a C int), ``byref()`` of every output, a CFUNCTYPE object for a callback.
  - ``lib.<name>``: the same symbol with restype and argtypes both set, so ctypes checks and converts each
    argument (a PKCE pointer where a configuration belongs is refused): for exploring and testing from Python.

Where the library is looked for, and why in that order, is telenorid/library.py's; importing this module
loads it (on first use of anything that needs it, since telenorid/__init__.py imports lazily). The library's
log is connected to Python's logging by telenorid/logs.py, when the first module that calls the library is
imported (_convert.py): this module imports no other of the package that could import it back.
"""
from __future__ import annotations

from ctypes import c_uint32
from types import SimpleNamespace

from ._bindings import SIGNATURES as SIGNATURES
from ._constants import VERSION_MAJOR as EXPECTED_MAJOR, VERSION_MINOR as EXPECTED_MINOR
from .library import HINT, LIBRARY_ENV, load

lib, library_path = load()


def _declare() -> SimpleNamespace:
    """Checks the library's version, declares every function on ``lib`` and returns ``functions``."""
    # The version first, so that an old library is reported as old rather than as missing a symbol.
    lib.telenorid_version.restype = c_uint32
    lib.telenorid_version.argtypes = []
    number = lib.telenorid_version()
    major, minor, patch = number >> 16, (number >> 8) & 0xFF, number & 0xFF
    if major != EXPECTED_MAJOR or minor < EXPECTED_MINOR:
        raise ImportError(
            f"telenorid: {library_path} is libtelenorid {major}.{minor}.{patch}, but this package needs "
            f"{EXPECTED_MAJOR}.{EXPECTED_MINOR} or a later {EXPECTED_MAJOR}.x. Rebuild the library "
            f"(`make build`), or point {LIBRARY_ENV} at a matching libtelenorid.so.")
    missing = []
    fast = {}
    for name, (restype, argtypes) in SIGNATURES.items():
        try:
            checked = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        checked.restype = restype
        checked.argtypes = argtypes
        function = lib[name]  # a function object of its own: the argtypes just set stay on lib.<name>
        function.restype = restype
        fast[name] = function
    if missing:
        raise ImportError(f"telenorid: {library_path} does not export {', '.join(missing)}; it is not a "
                          f"libtelenorid {EXPECTED_MAJOR}.{EXPECTED_MINOR} build. " + HINT)
    return SimpleNamespace(**fast)


functions = _declare()


def library_version() -> str:
    """The loaded library's version string, e.g. "0.8.0"."""
    text: bytes = functions.telenorid_version_string()
    return text.decode()


def library_version_number() -> int:
    """The loaded library's version as 0xMMmmpp."""
    return int(functions.telenorid_version())

