"""The ctypes declarations of include/telenorid.h: loading, types, argtypes/restype. Nothing else."""
from __future__ import annotations

import ctypes
import os
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_int32, c_int64, c_size_t, c_uint32, c_void_p
from pathlib import Path

EXPECTED_MAJOR = 0
EXPECTED_MINOR = 1


def _candidates() -> list[Path]:
    here = Path(__file__).resolve().parent
    found = []
    if os.environ.get("TELENORID_LIBRARY"):
        found.append(Path(os.environ["TELENORID_LIBRARY"]))
    found.append(here / "libtelenorid.so.0")
    found.append(here / "libtelenorid.so")
    # A source checkout: bindings/python/telenorid → out/lib of the repository.
    found.append(here.parent.parent.parent / "out" / "lib" / "libtelenorid.so.0")
    return found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        if path.exists():
            try:
                lib = ctypes.CDLL(str(path))
                break
            except OSError as error:
                tried.append(f"{path}: {error}")
        else:
            tried.append(f"{path}: not found")
    else:
        raise ImportError("telenorid: libtelenorid.so not found. Build it with `make build` in the repository, "
                          "or set TELENORID_LIBRARY to its path. Tried:\n  " + "\n  ".join(tried))
    lib.telenorid_version.restype = c_uint32
    lib.telenorid_version.argtypes = []
    version = lib.telenorid_version()
    major, minor = version >> 16, (version >> 8) & 0xFF
    if major != EXPECTED_MAJOR or minor < EXPECTED_MINOR:
        raise ImportError(f"telenorid: the loaded library is version {major}.{minor}, this package needs "
                          f"{EXPECTED_MAJOR}.{EXPECTED_MINOR} or a later {EXPECTED_MAJOR}.x; rebuild or point "
                          f"TELENORID_LIBRARY at a matching libtelenorid.so")
    return lib


# One distinct pointer type per handle, so a PKCE pair can't be passed where a configuration belongs.
class ConfigBuilderHandle(ctypes.Structure): pass
class ConfigHandle(ctypes.Structure): pass
class PkceHandle(ctypes.Structure): pass
class AuthRequestHandle(ctypes.Structure): pass
class PendingAuthHandle(ctypes.Structure): pass
class CallbackHandle(ctypes.Structure): pass
class AppCallbackHandle(ctypes.Structure): pass
class ErrorHandle(ctypes.Structure): pass
class ClientHandle(ctypes.Structure): pass
class AuthStateHandle(ctypes.Structure): pass

ConfigBuilderP = POINTER(ConfigBuilderHandle)
ConfigP = POINTER(ConfigHandle)
PkceP = POINTER(PkceHandle)
AuthRequestP = POINTER(AuthRequestHandle)
PendingAuthP = POINTER(PendingAuthHandle)
CallbackP = POINTER(CallbackHandle)
AppCallbackP = POINTER(AppCallbackHandle)
ErrorP = POINTER(ErrorHandle)
ClientP = POINTER(ClientHandle)
AuthStateP = POINTER(AuthStateHandle)
AuthStateCallback = CFUNCTYPE(None, c_void_p)

status = c_int32
# Strings the library hands out arrive as void* so they can be copied and then freed by the library.
out_string = POINTER(c_void_p)

lib = _load()

_SIGNATURES = {
    "telenorid_version_string": (c_char_p, []),
    "telenorid_status_str": (c_char_p, [status]),
    "telenorid_error_last": (ErrorP, []),
    "telenorid_error_status": (status, [ErrorP]),
    "telenorid_error_message": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_error": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_description": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_uri": (c_char_p, [ErrorP]),
    "telenorid_error_http_status": (c_int32, [ErrorP]),
    "telenorid_error_free": (None, [ErrorP]),
    "telenorid_string_free": (None, [c_void_p]),
    "telenorid_config_builder_new": (status, [POINTER(ConfigBuilderP)]),
    "telenorid_config_builder_set": (status, [ConfigBuilderP, c_int32, c_char_p]),
    "telenorid_config_builder_build": (status, [ConfigBuilderP, POINTER(ConfigP)]),
    "telenorid_config_builder_free": (None, [ConfigBuilderP]),
    "telenorid_config_from_json": (status, [c_char_p, c_char_p, POINTER(ConfigP)]),
    "telenorid_config_get": (status, [ConfigP, c_int32, out_string]),
    "telenorid_config_free": (None, [ConfigP]),
    "telenorid_pkce_new": (status, [c_size_t, POINTER(PkceP)]),
    "telenorid_pkce_from_verifier": (status, [c_char_p, POINTER(PkceP)]),
    "telenorid_pkce_verifier": (status, [PkceP, out_string]),
    "telenorid_pkce_challenge": (status, [PkceP, out_string]),
    "telenorid_pkce_free": (None, [PkceP]),
    "telenorid_auth_request_new": (status, [ConfigP, POINTER(AuthRequestP)]),
    "telenorid_auth_request_set": (status, [AuthRequestP, c_int32, c_char_p]),
    "telenorid_auth_request_add_parameter": (status, [AuthRequestP, c_char_p, c_char_p]),
    "telenorid_auth_request_add_claim": (status, [AuthRequestP, c_int32, c_char_p, c_int32, c_char_p, c_char_p, c_char_p]),
    "telenorid_auth_request_set_app_to_app": (status, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_pkce_method": (status, [AuthRequestP, c_int32]),
    "telenorid_auth_request_free": (None, [AuthRequestP]),
    "telenorid_auth_request_build": (status, [AuthRequestP, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_url": (status, [PendingAuthP, out_string]),
    "telenorid_pending_auth_state": (status, [PendingAuthP, out_string]),
    "telenorid_pending_auth_nonce": (status, [PendingAuthP, out_string]),
    "telenorid_pending_auth_code_verifier": (status, [PendingAuthP, out_string]),
    "telenorid_pending_auth_serialize": (status, [PendingAuthP, out_string]),
    "telenorid_pending_auth_restore": (status, [ConfigP, c_char_p, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_free": (None, [PendingAuthP]),
    "telenorid_pending_auth_handle_callback": (status, [PendingAuthP, c_char_p, POINTER(CallbackP)]),
    "telenorid_callback_code": (status, [CallbackP, out_string]),
    "telenorid_callback_parameter": (status, [CallbackP, c_char_p, out_string]),
    "telenorid_callback_free": (None, [CallbackP]),
    "telenorid_pending_auth_handle_app_callback": (status, [PendingAuthP, c_char_p, c_char_p, POINTER(AppCallbackP)]),
    "telenorid_app_callback_resume_uri": (status, [AppCallbackP, out_string]),
    "telenorid_app_callback_free": (None, [AppCallbackP]),
    "telenorid_client_new": (status, [ConfigP, POINTER(ClientP)]),
    "telenorid_client_discover": (status, [ClientP]),
    "telenorid_client_config": (status, [ClientP, POINTER(ConfigP)]),
    "telenorid_client_free": (None, [ClientP]),
    "telenorid_client_exchange_code": (status, [ClientP, CallbackP, POINTER(AuthStateP)]),
    "telenorid_auth_state_fresh_access_token": (status, [AuthStateP, out_string]),
    "telenorid_auth_state_refresh": (status, [AuthStateP]),
    "telenorid_auth_state_is_signed_in": (status, [AuthStateP, POINTER(c_int32)]),
    "telenorid_auth_state_get": (status, [AuthStateP, c_int32, out_string]),
    "telenorid_auth_state_expires_at": (status, [AuthStateP, POINTER(c_int64)]),
    "telenorid_auth_state_userinfo": (status, [AuthStateP, out_string]),
    "telenorid_auth_state_revoke": (status, [AuthStateP]),
    "telenorid_auth_state_end_session_url": (status, [AuthStateP, c_char_p, c_char_p, out_string]),
    "telenorid_auth_state_serialize": (status, [AuthStateP, out_string]),
    "telenorid_auth_state_restore": (status, [ClientP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_set_change_callback": (status, [AuthStateP, AuthStateCallback, c_void_p]),
    "telenorid_auth_state_free": (None, [AuthStateP]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes

# Constants of the header, by value (append-only there, so safe to mirror).
CONFIG_KEYS = {
    "issuer": 1, "client_id": 2, "redirect_uri": 3, "scope": 4, "authorization_endpoint": 5,
    "token_endpoint": 6, "userinfo_endpoint": 7, "revocation_endpoint": 8, "end_session_endpoint": 9,
    "jwks_uri": 10, "environment": 11, "allow_plain_pkce": 12, "client_secret": 13,
    "token_endpoint_auth_method": 14, "client_private_key": 15, "ca_file": 16, "ca_path": 17, "proxy": 18,
    "connect_timeout_ms": 19, "timeout_ms": 20, "max_response_bytes": 21, "clock_tolerance_s": 22,
    "clock_offset_s": 23, "trusted_audiences": 24, "id_token_signing_algs": 25, "refresh_margin_s": 26,
}
TOKEN_FIELDS = {"access_token": 1, "refresh_token": 2, "id_token": 3, "id_token_claims": 4, "scope": 5, "token_type": 6}
AUTH_PARAMS = {
    "scope": 1, "prompt": 2, "login_hint": 3, "ui_locales": 4, "acr_values": 5, "max_age": 6,
    "aloha_token": 7, "claims_purpose": 8, "response_mode": 9,
}
CLAIM_TARGETS = {"id_token": 1, "userinfo": 2}
PKCE_METHODS = {"S256": 0, "plain": 1}
