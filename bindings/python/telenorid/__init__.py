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

# Neither typing nor importlib at run time: `import telenorid` alone imports nothing else (typing brings re,
# collections, functools and more; what a program then uses imports what it needs). The annotations below
# are never evaluated (PEP 563), and type checkers take any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List

__version__ = "0.8.0"

# Each public name and the module defining it (the rest of __all__, the errors, is errors'). Importing the
# package imports none of them (PEP 562 module __getattr__): the library is loaded on first use of a name
# that needs it, so `import telenorid`, `telenorid.__version__` and `telenorid --help` / `--version` work
# (and are quick) without it.
_EXPORTS: Dict[str, str] = {
    **dict.fromkeys(["Account", "Accounts"], "accounts"),
    **dict.fromkeys(["AuthState"], "auth_state"),
    **dict.fromkeys(["AppCallback", "AuthorizationCallback", "AuthorizationRequest", "PendingAuthorization"],
                    "authorization"),
    **dict.fromkeys(["BackchannelAuthentication", "login_hint_form", "login_hint_ip_port",
                     "login_hint_operator_token", "login_hint_phone_number"], "ciba"),
    **dict.fromkeys(["Client", "HostKeySigner"], "client"),
    **dict.fromkeys(["Config"], "config"),
    **dict.fromkeys(["Store", "DirectoryStore"], "store"),
    **dict.fromkeys(["DeviceAuthorization"], "device"),
    **dict.fromkeys(["IdPAppRequest", "IdPAppResponse", "IdPAppInitiation"], "idp_app"),
    **dict.fromkeys(["library_version", "library_version_number"], "_ffi"),
    **dict.fromkeys(["LineAuthenticator"], "line_auth"),
    **dict.fromkeys(["LoopbackListener"], "loopback"),
    **dict.fromkeys(["Pkce"], "pkce"),
    **dict.fromkeys(["ClientCredentials", "DPoPReplayCache", "ResourceServer", "TokenInfo"], "resource_server"),
    **dict.fromkeys(["BackchannelLogout", "LogoutToken"], "backchannel_logout"),
    **dict.fromkeys(["IssuedToken", "TokenExchange", "TokenType"], "token_exchange"),
    # The HTTP clients' auths, each needing its optional extra (telenorid[requests], telenorid[httpx]); not
    # in __all__, so that `from telenorid import *` works without them.
    **dict.fromkeys(["RequestsAuth"], "requests_auth"),
    **dict.fromkeys(["HttpxAuth"], "httpx_auth"),
    # The exception names of 0.4 and before: deprecated aliases (errors.py), not in __all__, gone at 1.0.
    **dict.fromkeys(["AuthorizationLost", "Cancelled", "ClientRejected", "Consumed", "Insecure", "InvalidArgument",
                     "InvalidResponse", "IssuerMismatch", "LineAuthUnavailable", "Malformed", "NotSignedIn",
                     "ParameterConflict", "ProviderUnsupported", "PushRefused", "RandomFailure", "RedirectMismatch",
                     "ResponseTooLarge", "StateMismatch", "TemporarilyUnavailable", "Timeout", "TokenInvalid",
                     "Unsupported"], "errors"),
}

if TYPE_CHECKING:  # type checkers and IDEs see the names as if imported eagerly
    from .accounts import Account, Accounts
    from .auth_state import AuthState
    from .backchannel_logout import BackchannelLogout, LogoutToken
    from .authorization import AppCallback, AuthorizationCallback, AuthorizationRequest, PendingAuthorization
    from .ciba import (BackchannelAuthentication, login_hint_form, login_hint_ip_port, login_hint_operator_token,
                       login_hint_phone_number)
    from .client import Client, HostKeySigner
    from .config import Config
    from .device import DeviceAuthorization
    from .token_exchange import IssuedToken, TokenExchange, TokenType
    from .store import DirectoryStore, Store
    from .errors import (AuthorizationError, AuthorizationLostError, CallbackMismatchError, CancelledError,
                         ClientRejectedError, ConfigurationError, ConsumedError, ExpiredError, HTTPStatusError,
                         InsecureError, RotationPossiblyLostError, StoreFailedError,
                         InvalidArgumentError, InvalidResponseError, IssuerMismatchError, LineAuthUnavailableError,
                         MalformedError, NetworkError, NetworkTimeoutError, NotSignedInError,
                         ParameterConflictError, ProviderError, ProviderUnsupportedError, PushRefusedError,
                         RandomError, RedirectMismatchError, ResponseTooLargeError, StateMismatchError,
                         TelenoridError, TemporarilyUnavailableError, TLSError, TokenInvalidError, TransportError,
                         UnsupportedError, UsageError, ValidationError, VersionError, status_is_transient,
                         status_str)
    # the deprecated names of 0.4 (errors.py), re-exported for type checkers though not in __all__
    from .errors import (AuthorizationLost as AuthorizationLost, Cancelled as Cancelled,
                         ClientRejected as ClientRejected, Consumed as Consumed, Insecure as Insecure,
                         InvalidArgument as InvalidArgument, InvalidResponse as InvalidResponse,
                         IssuerMismatch as IssuerMismatch, LineAuthUnavailable as LineAuthUnavailable,
                         Malformed as Malformed, NotSignedIn as NotSignedIn, ParameterConflict as ParameterConflict,
                         ProviderUnsupported as ProviderUnsupported, PushRefused as PushRefused,
                         RandomFailure as RandomFailure, RedirectMismatch as RedirectMismatch,
                         ResponseTooLarge as ResponseTooLarge, StateMismatch as StateMismatch,
                         TemporarilyUnavailable as TemporarilyUnavailable, Timeout as Timeout,
                         TokenInvalid as TokenInvalid, Unsupported as Unsupported)
    from .httpx_auth import HttpxAuth
    from ._ffi import library_version, library_version_number
    from .idp_app import IdPAppInitiation, IdPAppRequest, IdPAppResponse
    from .line_auth import LineAuthenticator
    from .loopback import LoopbackListener
    from .pkce import Pkce
    from .requests_auth import RequestsAuth
    from .resource_server import ClientCredentials, DPoPReplayCache, ResourceServer, TokenInfo


__all__ = [
    # objects
    "Config", "Pkce", "AuthorizationRequest", "PendingAuthorization", "AuthorizationCallback", "AppCallback",
    "Client", "IdPAppRequest", "IdPAppResponse", "AuthState", "LineAuthenticator", "LoopbackListener",
    "IdPAppInitiation",
    "Store", "DirectoryStore", "Accounts", "Account",
    "DeviceAuthorization",
    "BackchannelAuthentication",
    "ResourceServer", "TokenInfo", "ClientCredentials", "DPoPReplayCache",
    "BackchannelLogout", "LogoutToken",
    "TokenExchange", "IssuedToken", "TokenType",
    # types
    "HostKeySigner",
    # errors: the base, the four families, one class per status code (and the callback mismatch group)
    "TelenoridError",
    "UsageError", "TransportError", "ProviderError", "ValidationError",
    "InvalidArgumentError", "MalformedError", "ConfigurationError", "InsecureError", "UnsupportedError",
    "ParameterConflictError", "RandomError", "CallbackMismatchError", "StateMismatchError", "RedirectMismatchError",
    "IssuerMismatchError", "AuthorizationError", "ConsumedError", "VersionError", "NetworkTimeoutError",
    "NetworkError", "TLSError", "HTTPStatusError", "ResponseTooLargeError", "InvalidResponseError",
    "TokenInvalidError", "AuthorizationLostError", "NotSignedInError", "LineAuthUnavailableError",
    "ClientRejectedError", "TemporarilyUnavailableError", "PushRefusedError", "ProviderUnsupportedError",
    "CancelledError", "ExpiredError", "StoreFailedError", "RotationPossiblyLostError",
    # functions
    "library_version", "library_version_number", "status_str", "status_is_transient",
    "login_hint_phone_number", "login_hint_ip_port", "login_hint_operator_token", "login_hint_form",
]


if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        module = _EXPORTS.get(name, "errors" if name in __all__ else None)
        if module is not None:
            value = getattr(_submodule(module), name)
            globals()[name] = value  # once is enough
            return value
        if not name.startswith("__"):
            # A submodule (telenorid.errors, telenorid._ffi), as an eager import used to leave them bound.
            try:
                return _submodule(name)
            except ModuleNotFoundError as error:
                if error.name != f"{__name__}.{name}":
                    raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


    def _submodule(name: str) -> Any:
        """``telenorid.<name>``, imported on first use by the builtin __import__ (importlib itself is not
        needed for it); sys is always loaded already."""
        import sys
        qualified = f"{__name__}.{name}"
        __import__(qualified)
        return sys.modules[qualified]


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
