"""telenorid: an OpenID Connect client for native apps, through libtelenorid's C API (include/telenorid.h).

A thin binding: every class wraps one C handle and every method is one C call (plus copying strings out
and mapping status codes to exceptions). The protocol work — PKCE, URL building, callback validation,
tokens — happens in the library.

Handles are released at the end of a ``with`` block, on ``close()`` (idempotent) or, as a safety net,
when garbage-collected. A closed object refuses further use with :class:`InvalidArgument` (a
``ValueError``) before reaching C. An object made from another (a request from a configuration, a
callback from a pending authorization) keeps it referenced, so objects may be closed in any order.
An object may be closed while other threads are calling it: their calls finish (or fail) on the intact
C handle, which is freed when the last of them returns.

The blocking calls have asyncio counterparts in :mod:`telenorid.aio`, whose task cancellation cancels the
call in the library.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

__version__ = "0.5.0"

# Each public name and the module defining it (the rest of __all__, the errors, is errors'). Importing the
# package imports none of them (PEP 562 module __getattr__): the library is loaded on first use of a name
# that needs it, so `import telenorid`, `telenorid.__version__` and `telenorid --help` / `--version` work
# (and are quick) without it.
_EXPORTS: Dict[str, str] = {
    **dict.fromkeys(["AuthState"], "auth_state"),
    **dict.fromkeys(["AppCallback", "AuthorizationCallback", "AuthorizationRequest", "PendingAuthorization"],
                    "authorization"),
    **dict.fromkeys(["BackchannelAuthentication", "login_hint_form", "login_hint_ip_port",
                     "login_hint_operator_token", "login_hint_phone_number"], "ciba"),
    **dict.fromkeys(["Client"], "client"),
    **dict.fromkeys(["Config"], "config"),
    **dict.fromkeys(["IdPAppRequest", "IdPAppResponse"], "idp_app"),
    **dict.fromkeys(["library_version", "library_version_number"], "library"),
    **dict.fromkeys(["LineAuthenticator"], "line_auth"),
    **dict.fromkeys(["LoopbackListener"], "loopback"),
    **dict.fromkeys(["Pkce"], "pkce"),
}

if TYPE_CHECKING:  # type checkers and IDEs see the names as if imported eagerly
    from .auth_state import AuthState
    from .authorization import AppCallback, AuthorizationCallback, AuthorizationRequest, PendingAuthorization
    from .ciba import (BackchannelAuthentication, login_hint_form, login_hint_ip_port, login_hint_operator_token,
                       login_hint_phone_number)
    from .client import Client
    from .config import Config
    from .errors import (AuthorizationError, AuthorizationLost, Cancelled, ClientRejected, ConfigurationError, Consumed,
                         ExpiredError,
                         HTTPStatusError, Insecure, InvalidArgument, InvalidResponse, IssuerMismatch,
                         LineAuthUnavailable, Malformed, NetworkError, NotSignedIn, ParameterConflict, ProviderError,
                         ProviderUnsupported, PushRefused, RandomFailure, RedirectMismatch, ResponseTooLarge, StateMismatch, TelenoridError,
                         TemporarilyUnavailable, Timeout, TLSError, TokenInvalid, TransportError, Unsupported,
                         UsageError, ValidationError, VersionError, status_is_transient, status_str)
    from .idp_app import IdPAppRequest, IdPAppResponse
    from .library import library_version, library_version_number
    from .line_auth import LineAuthenticator
    from .loopback import LoopbackListener
    from .pkce import Pkce


__all__ = [
    # objects
    "Config", "Pkce", "AuthorizationRequest", "PendingAuthorization", "AuthorizationCallback", "AppCallback",
    "Client", "IdPAppRequest", "IdPAppResponse", "AuthState", "LineAuthenticator", "LoopbackListener",
    "BackchannelAuthentication",
    # errors: the base, the four families, one class per status code
    "TelenoridError",
    "UsageError", "TransportError", "ProviderError", "ValidationError",
    "InvalidArgument", "Malformed", "ConfigurationError", "Insecure", "Unsupported",
    "ParameterConflict", "RandomFailure", "StateMismatch", "RedirectMismatch", "IssuerMismatch",
    "AuthorizationError", "Consumed", "VersionError", "Timeout", "NetworkError", "TLSError", "HTTPStatusError",
    "ResponseTooLarge", "InvalidResponse", "TokenInvalid", "AuthorizationLost", "NotSignedIn",
    "LineAuthUnavailable", "ClientRejected", "TemporarilyUnavailable", "PushRefused", "ProviderUnsupported",
    "Cancelled", "ExpiredError",
    # functions
    "library_version", "library_version_number", "status_str", "status_is_transient",
    "login_hint_phone_number", "login_hint_ip_port", "login_hint_operator_token", "login_hint_form",
]


if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        module = _EXPORTS.get(name, "errors" if name in __all__ else None)
        if module is not None:
            value = getattr(importlib.import_module(f".{module}", __name__), name)
            globals()[name] = value  # once is enough
            return value
        if not name.startswith("__"):
            # A submodule (telenorid.errors, telenorid._ffi), as an eager import used to leave them bound.
            try:
                return importlib.import_module(f".{name}", __name__)
            except ModuleNotFoundError as error:
                if error.name != f"{__name__}.{name}":
                    raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
