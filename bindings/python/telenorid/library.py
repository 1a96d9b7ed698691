"""Finding and loading libtelenorid, and the loaded library's version.

The library is looked for in this order; the first candidate that loads is used (as wasmtime-py and
llvmlite do):

1. ``$TELENORID_LIBRARY``: a path to the shared library. When it is set it is the only candidate: a
   variable that is silently ignored would hide a misconfigured deployment.
2. Inside this package: ``telenorid/libtelenorid.so.0``, where a wheel carries it (scripts/wheel.sh).
3. The system's dynamic loader, by soname: ``libtelenorid.so.0`` as ``make install`` leaves it (found through
   ``LD_LIBRARY_PATH`` and the ld.so cache, as dlopen(3) searches). The soname pins the major version.
4. A source checkout: ``<repository>/out/lib/libtelenorid.so.0``, relative to this file
   (``bindings/python/telenorid/library.py``), as ``make build`` leaves it.

Nothing here loads the library when imported: ``telenorid._ffi`` calls :func:`load` once, on first use of
anything that needs it, so ``import telenorid`` and ``telenorid --help`` work without it.
"""
from __future__ import annotations

import ctypes
import os
from typing import List, Tuple

LIBRARY_ENV = "TELENORID_LIBRARY"
SONAME = "libtelenorid.so.0"
HINT = (f"Install a wheel that bundles it (pip install telenorid-*.whl), install it with `make -C <repository> "
        f"install`, build it with `make -C <repository> build`, or set {LIBRARY_ENV} to the path of libtelenorid.so.")


def library_candidates() -> List[str]:
    """Where the library is looked for, in order: paths, and the bare soname for the system's loader."""
    configured = os.environ.get(LIBRARY_ENV)
    if configured:
        return [configured]
    # os.path, not pathlib: pathlib loads urllib.parse and ipaddress, a tenth of a first call's imports.
    here = os.path.dirname(os.path.realpath(__file__))
    return [
        os.path.join(here, SONAME),
        SONAME,
        # bindings/python/telenorid → the repository root → out/lib
        os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(here))), "out", "lib", SONAME),
    ]


def load() -> Tuple[ctypes.CDLL, str]:
    """The first candidate that loads, and where it came from; else ImportError naming each place tried and why."""
    tried = []
    for candidate in library_candidates():
        is_path = os.sep in candidate
        if is_path and not os.path.exists(candidate):
            tried.append(f"{candidate}: not found")
            continue
        try:
            library = ctypes.CDLL(candidate)
        except OSError as error:
            where = candidate if is_path else f"{candidate} (the system's dynamic loader)"
            tried.append(f"{where}: {error}")
            continue
        # A bare soname names no file; ldconfig -p says which one the loader picks.
        return library, candidate if is_path else f"{candidate} (as the system's dynamic loader found it; see `ldconfig -p`)"
    raise ImportError("telenorid: could not load libtelenorid. " + HINT + "\nTried:\n  " + "\n  ".join(tried))

