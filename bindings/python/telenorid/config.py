"""Config: an immutable client configuration, from settings or a JSON document."""
from __future__ import annotations

from ctypes import byref
from typing import TYPE_CHECKING, ForwardRef, FrozenSet, List, Mapping, Optional, Tuple, TypedDict, Union

from . import _bindings, _constants, _ffi
from ._convert import _name, _opt_str, _str
from ._handle import _Handle
from .errors import _raise

if TYPE_CHECKING:  # only annotations use it (never evaluated at run time), so no run-time dependency
    from typing_extensions import Unpack

_c = _ffi.functions


_Text = Optional[str]
_Flag = Optional[Union[str, bool]]  # "true"/"false" or a bool
_Number = Optional[Union[str, int]]  # a decimal str or an int


class Settings(TypedDict, total=False):
    """The keyword arguments of :meth:`Config.from_settings`: every TELENORID_CONFIG_* key of
    include/telenorid.h in lower case (scripts/check_facts.py checks the list against the header), with
    the types :meth:`Config.from_settings` takes: a yes/no setting also a bool, a number also an int. None
    leaves a setting unset. Annotate a dict of settings with it to have it checked too."""

    issuer: _Text
    client_id: _Text
    redirect_uri: _Text
    scope: _Text
    authorization_endpoint: _Text
    token_endpoint: _Text
    userinfo_endpoint: _Text
    revocation_endpoint: _Text
    end_session_endpoint: _Text
    jwks_uri: _Text
    environment: _Text
    allow_plain_pkce: _Flag
    client_secret: _Text
    token_endpoint_auth_method: _Text
    client_private_key: _Text
    ca_file: _Text
    ca_path: _Text
    proxy: _Text
    connect_timeout_ms: _Number
    timeout_ms: _Number
    max_response_bytes: _Number
    clock_tolerance_s: _Number
    clock_offset_s: _Number
    trusted_audiences: _Text
    id_token_signing_algs: _Text
    refresh_margin_s: _Number
    aloha_url: _Text
    jwks_max_age_s: _Number
    client_assertion_audience: _Text
    pushed_authorization_request_endpoint: _Text
    push_authorization_requests: _Flag
    dpop_signing_alg: _Text
    dpop_bind_authorization_code: _Flag
    allow_bearer_downgrade: _Flag
    sign_authorization_requests: _Flag
    security_profile: _Text
    client_key_id: _Text
    device_authorization_endpoint: _Text
    backchannel_authentication_endpoint: _Text
    backchannel_token_delivery_mode: _Text
    introspection_endpoint: _Text


class Config(_Handle):
    """An immutable client configuration; share it between threads.

    Make one with :meth:`from_settings` or :meth:`from_json`.
    """

    __slots__ = ()
    _free = staticmethod(_c.telenorid_config_free)

    @classmethod
    def from_settings(cls, **settings: Unpack[Settings]) -> "Config":
        """``Config.from_settings(issuer=..., client_id=..., redirect_uri=..., scope="openid profile", ...)``

        Names are the header's TELENORID_CONFIG_* keys in lower case. Values are str; the yes/no settings
        (``allow_plain_pkce``, ``push_authorization_requests``) also take a bool and the numeric settings (``*_ms``, ``*_s``, ``max_response_bytes``) an int;
        None leaves a setting unset. The library checks the values. Type checkers know the names and types
        (:class:`Settings`); an unknown name raises TypeError suggesting the closest known one.
        """
        values: List[Tuple[int, Optional[bytes]]] = []
        given: Mapping[str, object] = settings  # checked here too: callers need not be type-checked
        for name, value in given.items():
            key = _constants.CONFIG_KEYS.get(name)
            if key is None:
                import difflib  # only for this message: a first Config need not load it (bench/bench_import.py)

                close = difflib.get_close_matches(name, _constants.CONFIG_KEYS, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise TypeError(f"unknown configuration setting {name!r}{hint}")
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
        number = _name(key, _constants.CONFIG_KEYS, "configuration key")
        return self._string_call(_c.telenorid_config_get, number)


def _typed(alias: object, alias_name: str) -> FrozenSet[int]:
    """The settings Settings annotates with `alias`. Its annotations are read as written (under `from __future__
    import annotations` a TypedDict keeps them as ForwardRefs), not evaluated: get_type_hints took a first
    Config a millisecond or two (bench/bench_import.py)."""
    return frozenset(_constants.CONFIG_KEYS[name] for name, hint in Settings.__annotations__.items()
                     if (hint.__forward_arg__ == alias_name if isinstance(hint, ForwardRef) else hint == alias))


# The yes/no and numeric settings, as Settings types them.
_NUMERIC_SETTINGS = _typed(_Number, "_Number")
_FLAG_SETTINGS = _typed(_Flag, "_Flag")
