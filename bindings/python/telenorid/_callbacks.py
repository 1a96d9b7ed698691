"""Python functions that C calls (signers, socket hooks, change callbacks): an exception cannot unwind
through C, so each is wrapped to give C the documented failure value and keep or report the exception.
Nothing here is public API.
"""
from __future__ import annotations

import sys
import traceback
from typing import Any, Callable

from .errors import _callback_errors


# What sys.unraisablehook gets for an exception a Python callback raised while C called it (see _shielded).
class _Unraisable:
    def __init__(self, error: BaseException, obj: Any) -> None:
        self.exc_type = type(error)
        self.exc_value = error
        self.exc_traceback = error.__traceback__
        self.err_msg = "Exception ignored in a telenorid callback"
        self.object = obj


def _report_unraisable(error: BaseException, host_callable: Any) -> None:
    hook = sys.unraisablehook
    if hook is sys.__unraisablehook__:
        # The interpreter's own hook takes only its own argument type, which Python code cannot make.
        print(f"Exception ignored in a telenorid callback: {host_callable!r}", file=sys.stderr)
        traceback.print_exception(type(error), error, error.__traceback__)
    else:
        hook(_Unraisable(error, host_callable))  # type: ignore[arg-type]


def _shielded(body: Callable[..., Any], host_callable: Any, on_error: Any, carried: bool = False) -> Callable[..., Any]:
    """``body`` as a function C may call: an exception cannot unwind through C, so C gets ``on_error`` (the
    failure the header documents) and the exception is kept: ``carried``, for the failing call it ran in
    to raise from (errors._raise; a signer's or socket hook's failure fails that call), else reported to
    sys.unraisablehook naming ``host_callable``, the host's function. Nothing escapes: an exception leaving
    a ctypes callback would hand C an undefined value."""
    def trampoline(*args: Any) -> Any:
        try:
            return body(*args)
        except BaseException as error:
            try:
                if carried:
                    _callback_errors.error = error
                else:
                    _report_unraisable(error, host_callable)
            except BaseException:  # the report itself failed (stderr closed): C still gets its value
                pass
            return on_error
    return trampoline
