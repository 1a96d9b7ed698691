"""The library's log (telenorid_set_log_callback), routed to ``logging.getLogger("telenorid")``.

The library's levels are Python's numbers (DEBUG 10: each HTTP exchange; INFO 20: discovery, the key set, code
exchanges, refreshes, sign-outs, DPoP nonce retries, the loopback redirect; WARNING 30: a failed refresh), so a
record has the level the library gave. Its message is ``"<event> <message>"`` and the event name is also the
record's ``telenorid_event`` attribute. No message carries a token, code, verifier, secret, key, assertion or
proof.

So that events nobody listens to cost the library nothing, it is told the lowest level the logger passes
(its effective level) when the library is first used (telenorid/_convert.py, which every module calling the
library imports, calls :func:`sync_level` when it is imported): logging configured at start
(``logging.basicConfig(level=logging.DEBUG)``) is honoured without another call. After changing the level
later, call :func:`sync_level`.

``logging`` itself (with the traceback, tokenize, textwrap and string modules it loads: two fifths of what a first
Config cost, callgrind) is imported only when a program uses it: a program that has not imported it has configured
no logging, so every logger is at the root's default level, WARNING, which is what the library is told; the logger
is made (with its NullHandler) when the library first sends a record, or when the program has imported logging.
"""
from __future__ import annotations

import sys
from ctypes import c_int32, c_void_p
from typing import TYPE_CHECKING, Optional

from ._bindings import LogCallback

if TYPE_CHECKING:  # argparse (and the textwrap and gettext it loads) only for the CLI: see add_verbose_option
    import argparse
    import logging

# logging.WARNING: the level of every logger until a program configures logging.
_DEFAULT_LEVEL = 30
_logger: Optional["logging.Logger"] = None


def _get_logger() -> "logging.Logger":
    """logging.getLogger("telenorid"), with its NullHandler: a library's logger prints nothing of itself (not
    even through logging's last-resort handler); the host decides, by configuring logging."""
    global _logger
    if _logger is None:
        import logging

        logger = logging.getLogger("telenorid")
        logger.addHandler(logging.NullHandler())
        _logger = logger
    return _logger


def __getattr__(name: str) -> "logging.Logger":
    """``telenorid.logs.logger``, made on first use like the rest (see the module's documentation)."""
    if name == "logger":
        return _get_logger()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _deliver(user_data: Optional[int], level: int, event: bytes, message: bytes) -> None:
    del user_data
    try:
        logger = _get_logger()
        if logger.isEnabledFor(level):
            name = event.decode("utf-8", "replace")
            logger.log(level, "%s %s", name, message.decode("utf-8", "replace"), extra={"telenorid_event": name})
    except BaseException as error:  # nothing may unwind into C (see _callbacks._shielded)
        try:
            # Imported here: importing this module must not load the library (the CLI's --help).
            from ._callbacks import _report_unraisable
            _report_unraisable(error, _get_logger())
        except BaseException:
            pass


# Made once, so the object the library holds lives as long as the module.
_callback = LogCallback(_deliver)


def sync_level() -> None:
    """Tells the library the logger's effective level, below which it sends nothing; no-op until it is loaded
    (loading it does this). Any thread; not from inside a logging handler the library's events reach."""
    module = sys.modules.get(f"{__package__}._ffi")
    if module is None:
        return
    # Without logging imported nothing has configured it: no need to load it to learn the level is the default.
    level = _DEFAULT_LEVEL if _logger is None and "logging" not in sys.modules else _get_logger().getEffectiveLevel()
    status = module.functions.telenorid_set_log_callback(_callback, c_void_p(None), c_int32(level))
    if status != 0:
        # Imported here, as _ffi is looked up above: importing this module must not load the library.
        from .errors import _raise
        _raise(status)


def add_verbose_option(parser: argparse.ArgumentParser) -> None:
    """The CLI's -v/--verbose: once for the library's INFO events, twice for DEBUG (each HTTP exchange)."""
    import argparse

    parser.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                        help="log the library's events to stderr (-vv: each HTTP exchange too)")


def log_to_stderr(verbosity: int) -> None:
    """What -v asked for: the logger's events on stderr at INFO (1) or DEBUG (2 or more); nothing for 0."""
    if verbosity <= 0:
        return
    import logging

    logger = _get_logger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("telenorid: %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbosity > 1 else logging.INFO)
    sync_level()
