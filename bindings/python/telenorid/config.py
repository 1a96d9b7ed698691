"""Config: an immutable client configuration, from settings or a JSON document."""
from __future__ import annotations

from ctypes import byref
from typing import Optional, Union

from . import _bindings, _ffi
from ._convert import _name, _opt_str, _str
from ._handle import _Handle
from .errors import _raise

_c = _ffi.functions


_SettingValue = Union[str, int, bool, None]


class Config(_Handle):
    """An immutable client configuration; share it between threads.

    Make one with :meth:`from_settings` or :meth:`from_json`.
    """

    __slots__ = ()
    _free = staticmethod(_c.telenorid_config_free)

    @classmethod
    def from_settings(cls, **settings: _SettingValue) -> "Config":
        """``Config.from_settings(issuer=..., client_id=..., redirect_uri=..., scope="openid profile", ...)``

        Names are the header's TELENORID_CONFIG_* keys in lower case. Values are str; the yes/no settings
        (``allow_plain_pkce``, ``push_authorization_requests``) also take a bool and the numeric settings (``*_ms``, ``*_s``, ``max_response_bytes``) an int;
        None leaves a setting unset. The library checks the values.
        """
        values = []
        for name, value in settings.items():
            key = _ffi.CONFIG_KEYS.get(name)
            if key is None:
                raise TypeError(f"unknown configuration setting {name!r}")
            if isinstance(value, bool):
                if key not in _FLAG_SETTINGS:
                    raise TypeError(f"{name} must be a str, not bool")
                value = "true" if value else "false"
            elif isinstance(value, int) and key in _NUMERIC_SETTINGS:
                value = str(value)
            values.append((key, _opt_str(value, name)))
        builder = _bindings.ConfigBuilderP()
        status = _c.telenorid_config_builder_new(byref(builder))
        if status:
            _raise(status)
        try:
            for key, encoded in values:
                status = _c.telenorid_config_builder_set(builder, key, encoded)
                if status:
                    _raise(status)
            config = _bindings.ConfigP()
            status = _c.telenorid_config_builder_build(builder, byref(config))
            if status:
                _raise(status)
        finally:
            _c.telenorid_config_builder_free(builder)
        return cls._adopt(config)

    @classmethod
    def from_json(cls, text: str, environment: Optional[str] = None) -> "Config":
        """A configuration from a JSON document: one object of settings, or
        ``{"default_environment": ..., "environments": {name: {...}}}`` with ``environment`` choosing one."""
        config = _bindings.ConfigP()
        status = _c.telenorid_config_from_json(_str(text, "text"), _opt_str(environment, "environment"),
                                               byref(config))
        if status:
            _raise(status)
        return cls._adopt(config)

    def get(self, key: str) -> Optional[str]:
        """The value of a setting by name (e.g. "client_id"), or None when it is not set."""
        number = _name(key, _ffi.CONFIG_KEYS, "configuration key")
        return self._string_call(_c.telenorid_config_get, number)


_NUMERIC_SETTINGS = frozenset(_ffi.CONFIG_KEYS[name] for name in (
    "connect_timeout_ms", "timeout_ms", "max_response_bytes", "clock_tolerance_s", "clock_offset_s",
    "jwks_max_age_s",
    "refresh_margin_s"))
_FLAG_SETTINGS = frozenset(_ffi.CONFIG_KEYS[name] for name in (
    "allow_plain_pkce", "push_authorization_requests", "dpop_bind_authorization_code", "allow_bearer_downgrade",
    "sign_authorization_requests"))
