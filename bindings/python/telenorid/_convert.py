"""Conversion for C calls: Python arguments checked and turned into what the header's types take (wrong
types refused here, before C sees them; _int is in errors.py), strings the library hands out copied and
freed, and the key-value bundles and string arrays of the identity-provider app flow. Every function is
called through _ffi.functions, without argtypes, so these conversions are the only ones made. Nothing here
is public API.
"""
from __future__ import annotations

from ctypes import addressof, byref, c_char_p, c_size_t, c_void_p
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from . import _bindings, _ffi, logs
from .errors import InvalidArgumentError, _raise

_c = _ffi.functions
# The library's log goes to logging.getLogger("telenorid") from its first use, at that logger's level (logs.py).
logs.sync_level()
_string_free = _c.telenorid_string_free  # takes a c_void_p or c_char_p as it is; NULL is a no-op
_char_p_at = c_char_p.from_address  # reads the char* held by a c_void_p without a ctypes call


def _str(value: Any, name: str) -> bytes:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise InvalidArgumentError(f"{name} contains a NUL character, which a C string cannot carry")
    return value.encode("utf-8", "surrogatepass")  # a lone surrogate reaches C as invalid UTF-8, refused there


def _opt_str(value: Any, name: str) -> Optional[bytes]:
    return None if value is None else _str(value, name)


def _name(value: Any, table: Mapping[str, int], what: str) -> int:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    try:
        return table[value]
    except KeyError:
        raise ValueError(f"unknown {what} {value!r}; one of: {', '.join(table)}") from None


def _copy_out(out: c_void_p) -> Optional[str]:
    """Copies a string the library handed out, then lets the library wipe and free it."""
    if out.value is None:
        return None
    try:
        return _char_p_at(addressof(out)).value.decode("utf-8")  # type: ignore[union-attr]
    finally:
        _string_free(out)


def _string_call(function: Callable[..., int], *args: Any) -> Optional[str]:
    """Calls a function whose last parameter is `char **out` and returns the string (None for NULL)."""
    out = c_void_p()
    status = function(*args, byref(out))
    if status:
        _raise(status)
    return _copy_out(out)


def _params_in(bundle: Any) -> Any:
    """A new telenorid_params holding a dict's pairs; the caller frees it."""
    if not isinstance(bundle, dict):
        raise TypeError(f"bundle must be a dict[str, str], not {type(bundle).__name__}")
    pointer = _bindings.ParamsP()
    status = _c.telenorid_params_new(byref(pointer))
    if status:
        _raise(status)
    for name, value in bundle.items():
        status = _c.telenorid_params_add(pointer, _str(name, "bundle key"), _str(value, "bundle value"))
        if status:
            _c.telenorid_params_free(pointer)
            _raise(status)
    return pointer


def _params_out(pointer: Any) -> Dict[str, str]:
    """The pairs of a telenorid_params as a dict, freeing it."""
    try:
        count = c_size_t()
        status = _c.telenorid_params_count(pointer, byref(count))
        if status:
            _raise(status)
        return {_string_call(_c.telenorid_params_name, pointer, c_size_t(index)) or "":
                _string_call(_c.telenorid_params_value, pointer, c_size_t(index)) or ""
                for index in range(count.value)}
    finally:
        _c.telenorid_params_free(pointer)


def _string_array(values: Sequence[str], name: str) -> Tuple[Any, c_size_t]:
    """A ``const char *const *`` array of the strings, and its length as the size_t the header takes."""
    if isinstance(values, str):
        raise TypeError(f"{name} must be a sequence of str, not one str")
    encoded = [_str(value, name) for value in values]
    return (c_char_p * len(encoded))(*encoded), c_size_t(len(encoded))
