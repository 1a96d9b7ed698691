"""The library, loaded and checked, and the header's constants. The declarations (handle types, callback
types, every function's restype and argtypes) are telenorid/_bindings.py's, generated from include/telenorid.h.

Two views of each function:
  - ``functions.<name>``: what the binding calls, with the header's restype and no argtypes. ctypes then
    converts no argument on the way in, where checking and converting by argtypes is about a third of a short
    call, so every argument must already be of the header's type: a handle's POINTER object, bytes or None for
    a ``const char *``, a ctypes integer of the exact width for ``size_t``, ``int64_t`` and ``uint16_t`` (a
    bare Python int goes as a C int), ``byref()`` of every output, a CFUNCTYPE object for a callback.
  - ``lib.<name>``: the same symbol with restype and argtypes both set, so ctypes checks and converts each
    argument (a PKCE pointer where a configuration belongs is refused): for exploring and testing from Python.

Where the library is looked for, and why in that order, is telenorid/library.py's; importing this module
loads it (on first use of anything that needs it, since telenorid/__init__.py imports lazily).
"""
from __future__ import annotations

from ctypes import c_uint32
from types import SimpleNamespace

from ._bindings import SIGNATURES as SIGNATURES
from .library import HINT, LIBRARY_ENV, load

# The header this package was written against (TELENORID_VERSION_MAJOR / _MINOR).
EXPECTED_MAJOR = 0
EXPECTED_MINOR = 6

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

# The library's log goes to logging.getLogger("telenorid") from the start, at that logger's level (logs.py).
from .logs import sync_level  # noqa: E402
sync_level()

# ------------------------------------------------------------------------------------------------------
# Constants of the header, by value (append-only there, so safe to mirror).
# ------------------------------------------------------------------------------------------------------

OK = 0
STATUS = {
    "INVALID_ARGUMENT": 1, "MALFORMED": 2, "CONFIGURATION": 3, "INSECURE": 4, "UNSUPPORTED": 5,
    "PARAMETER_CONFLICT": 6, "RANDOM": 7, "STATE_MISMATCH": 8, "REDIRECT_MISMATCH": 9, "ISSUER_MISMATCH": 10,
    "AUTHORIZATION_ERROR": 11, "CONSUMED": 12, "VERSION": 13, "TIMEOUT": 14, "NETWORK": 15, "TLS": 16,
    "HTTP_STATUS": 17, "RESPONSE_TOO_LARGE": 18, "INVALID_RESPONSE": 19, "TOKEN_INVALID": 20,
    "AUTHORIZATION_LOST": 21, "NOT_SIGNED_IN": 22, "LINE_AUTH_UNAVAILABLE": 23, "CLIENT_REJECTED": 24,
    "TEMPORARILY_UNAVAILABLE": 25,
    "PUSH_REFUSED": 26,
    "PROVIDER_UNSUPPORTED": 27,
    "CANCELLED": 28,
    "EXPIRED": 29,
    "STORE_FAILED": 30,
    "ROTATION_POSSIBLY_LOST": 31,
}
MAX_INPUT = 1024 * 1024

CONFIG_KEYS = {
    "issuer": 1, "client_id": 2, "redirect_uri": 3, "scope": 4, "authorization_endpoint": 5,
    "token_endpoint": 6, "userinfo_endpoint": 7, "revocation_endpoint": 8, "end_session_endpoint": 9,
    "jwks_uri": 10, "environment": 11, "allow_plain_pkce": 12, "client_secret": 13,
    "token_endpoint_auth_method": 14, "client_private_key": 15, "ca_file": 16, "ca_path": 17, "proxy": 18,
    "connect_timeout_ms": 19, "timeout_ms": 20, "max_response_bytes": 21, "clock_tolerance_s": 22,
    "clock_offset_s": 23, "trusted_audiences": 24, "id_token_signing_algs": 25, "refresh_margin_s": 26,
    "aloha_url": 27,
    "jwks_max_age_s": 28, "client_assertion_audience": 29, "pushed_authorization_request_endpoint": 30,
    "push_authorization_requests": 31, "dpop_signing_alg": 32, "dpop_bind_authorization_code": 33,
    "allow_bearer_downgrade": 34, "sign_authorization_requests": 35, "security_profile": 36,
    "client_key_id": 37,
    "device_authorization_endpoint": 38,
    "backchannel_authentication_endpoint": 39, "backchannel_token_delivery_mode": 40,
    "introspection_endpoint": 41,
}
SOCKET_VERDICTS = {"allow": 0, "refuse": 1, "not_cellular": 2}
PKCE_METHODS = {"S256": 0, "plain": 1}
AUTH_PARAMS = {
    "scope": 1, "prompt": 2, "login_hint": 3, "ui_locales": 4, "acr_values": 5, "max_age": 6,
    "aloha_token": 7, "claims_purpose": 8, "response_mode": 9,
    "login_hint_token": 10, "id_token_hint": 11, "binding_message": 12, "user_code": 13, "requested_expiry": 14,
}
CLAIM_TARGETS = {"id_token": 1, "userinfo": 2}
TOKEN_FIELDS = {"access_token": 1, "refresh_token": 2, "id_token": 3, "id_token_claims": 4, "scope": 5,
                "token_type": 6, "dpop_thumbprint": 7, "authorization_details": 8}
DEVICE_FIELDS = {"user_code": 1, "verification_uri": 2, "verification_uri_complete": 3}
LOGIN_HINT_FORMS = {"phone_number": 1, "ip_port": 2, "operator_token": 3}
