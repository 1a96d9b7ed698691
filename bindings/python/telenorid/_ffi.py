"""The ctypes mirror of include/telenorid.h: loading the library, one pointer type per handle,
argtypes/restype for every function, and the header's constants. No behaviour beyond that.

Where the library is looked for, and why in that order, is telenorid/library.py's; importing this module
loads it (on first use of anything that needs it, since telenorid/__init__.py imports lazily).
"""
from __future__ import annotations

import ctypes
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_int32, c_int64, c_size_t, c_uint32, c_void_p
from typing import Any, Dict, List, Tuple

from .library import HINT, LIBRARY_ENV, load

# The header this package was written against (TELENORID_VERSION_MAJOR / _MINOR).
EXPECTED_MAJOR = 0
EXPECTED_MINOR = 4

lib, library_path = load()

# ------------------------------------------------------------------------------------------------------
# Handles: each its own incomplete struct, so ctypes refuses a PKCE pair where a configuration belongs.
# ------------------------------------------------------------------------------------------------------


class telenorid_error(ctypes.Structure):
    pass


class telenorid_config_builder(ctypes.Structure):
    pass


class telenorid_config(ctypes.Structure):
    pass


class telenorid_pkce(ctypes.Structure):
    pass


class telenorid_auth_request(ctypes.Structure):
    pass


class telenorid_pending_auth(ctypes.Structure):
    pass


class telenorid_callback(ctypes.Structure):
    pass


class telenorid_app_callback(ctypes.Structure):
    pass


class telenorid_client(ctypes.Structure):
    pass


class telenorid_params(ctypes.Structure):
    pass


class telenorid_idp_request(ctypes.Structure):
    pass


class telenorid_idp_response(ctypes.Structure):
    pass


class telenorid_auth_state(ctypes.Structure):
    pass


class telenorid_line_auth(ctypes.Structure):
    pass


class telenorid_loopback(ctypes.Structure):
    pass


ErrorP = POINTER(telenorid_error)
ConfigBuilderP = POINTER(telenorid_config_builder)
ConfigP = POINTER(telenorid_config)
PkceP = POINTER(telenorid_pkce)
AuthRequestP = POINTER(telenorid_auth_request)
PendingAuthP = POINTER(telenorid_pending_auth)
CallbackP = POINTER(telenorid_callback)
AppCallbackP = POINTER(telenorid_app_callback)
ClientP = POINTER(telenorid_client)
AuthStateP = POINTER(telenorid_auth_state)
ParamsP = POINTER(telenorid_params)
IdPRequestP = POINTER(telenorid_idp_request)
IdPResponseP = POINTER(telenorid_idp_response)

# typedef void (*telenorid_auth_state_callback)(void *user_data);
AuthStateCallback = CFUNCTYPE(None, c_void_p)
LineAuthP = POINTER(telenorid_line_auth)
LoopbackP = POINTER(telenorid_loopback)
# typedef int32_t (*telenorid_socket_hook)(void *user_data, int fd);
SocketHook = CFUNCTYPE(c_int32, c_void_p, ctypes.c_int)
# typedef int32_t (*telenorid_sign_callback)(void *user_data, const uint8_t *input, size_t input_len,
#                                            uint8_t *signature, size_t *signature_len);
SignCallback = CFUNCTYPE(c_int32, c_void_p, POINTER(ctypes.c_uint8), c_size_t, POINTER(ctypes.c_uint8), POINTER(c_size_t))

status_t = c_int32          # telenorid_status
config_key_t = c_int32      # telenorid_config_key
pkce_method_t = c_int32     # telenorid_pkce_method
auth_param_t = c_int32      # telenorid_auth_param
claim_target_t = c_int32    # telenorid_claim_target
token_field_t = c_int32     # telenorid_token_field
# `char **out`: received as void* (not c_char_p, which ctypes would convert and lose) so the binding can
# copy the bytes and then hand the pointer back to telenorid_string_free().
out_string = POINTER(c_void_p)

# name: (restype, argtypes) — every function of include/telenorid.h, in the header's order.
SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    # Versions
    "telenorid_version": (c_uint32, []),
    "telenorid_version_string": (c_char_p, []),
    # Status codes
    "telenorid_status_str": (c_char_p, [status_t]),
    "telenorid_status_is_transient": (c_int32, [status_t]),
    # Error detail
    "telenorid_error_last": (ErrorP, []),
    "telenorid_error_status": (status_t, [ErrorP]),
    "telenorid_error_message": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_error": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_description": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_uri": (c_char_p, [ErrorP]),
    "telenorid_error_http_status": (c_int32, [ErrorP]),
    "telenorid_error_retry_after": (c_int64, [ErrorP]),
    "telenorid_error_free": (None, [ErrorP]),
    # Strings
    "telenorid_string_free": (None, [c_void_p]),
    # Client configuration
    "telenorid_config_builder_new": (status_t, [POINTER(ConfigBuilderP)]),
    "telenorid_config_builder_set": (status_t, [ConfigBuilderP, config_key_t, c_char_p]),
    "telenorid_config_builder_build": (status_t, [ConfigBuilderP, POINTER(ConfigP)]),
    "telenorid_config_builder_free": (None, [ConfigBuilderP]),
    "telenorid_config_from_json": (status_t, [c_char_p, c_char_p, POINTER(ConfigP)]),
    "telenorid_config_get": (status_t, [ConfigP, config_key_t, out_string]),
    "telenorid_config_free": (None, [ConfigP]),
    # PKCE
    "telenorid_pkce_new": (status_t, [c_size_t, POINTER(PkceP)]),
    "telenorid_pkce_from_verifier": (status_t, [c_char_p, POINTER(PkceP)]),
    "telenorid_pkce_verifier": (status_t, [PkceP, out_string]),
    "telenorid_pkce_challenge": (status_t, [PkceP, out_string]),
    "telenorid_pkce_free": (None, [PkceP]),
    "telenorid_pkce_generate": (status_t, [c_size_t, c_char_p, c_size_t, c_char_p, c_size_t]),
    # Authorization request
    "telenorid_auth_request_new": (status_t, [ConfigP, POINTER(AuthRequestP)]),
    "telenorid_auth_request_set": (status_t, [AuthRequestP, auth_param_t, c_char_p]),
    "telenorid_auth_request_add_parameter": (status_t, [AuthRequestP, c_char_p, c_char_p]),
    "telenorid_auth_request_add_claim": (status_t, [AuthRequestP, claim_target_t, c_char_p, c_int32, c_char_p,
                                                    c_char_p, c_char_p]),
    "telenorid_auth_request_add_resource": (status_t, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_authorization_details": (status_t, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_token_authorization_details": (status_t, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_apply_step_up": (status_t, [AuthRequestP, c_char_p, POINTER(c_int32)]),
    "telenorid_auth_request_set_app_to_app": (status_t, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_pkce_method": (status_t, [AuthRequestP, pkce_method_t]),
    "telenorid_auth_request_free": (None, [AuthRequestP]),
    # Pending authorization
    "telenorid_auth_request_build": (status_t, [AuthRequestP, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_url": (status_t, [PendingAuthP, out_string]),
    "telenorid_pending_auth_state": (status_t, [PendingAuthP, out_string]),
    "telenorid_pending_auth_nonce": (status_t, [PendingAuthP, out_string]),
    "telenorid_pending_auth_code_verifier": (status_t, [PendingAuthP, out_string]),
    "telenorid_pending_auth_serialize": (status_t, [PendingAuthP, out_string]),
    "telenorid_pending_auth_restore": (status_t, [ConfigP, c_char_p, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_free": (None, [PendingAuthP]),
    # Callback
    "telenorid_pending_auth_handle_callback": (status_t, [PendingAuthP, c_char_p, POINTER(CallbackP)]),
    "telenorid_callback_code": (status_t, [CallbackP, out_string]),
    "telenorid_callback_parameter": (status_t, [CallbackP, c_char_p, out_string]),
    "telenorid_callback_free": (None, [CallbackP]),
    # App-to-app callback
    "telenorid_pending_auth_handle_app_callback": (status_t, [PendingAuthP, c_char_p, c_char_p,
                                                              POINTER(AppCallbackP)]),
    "telenorid_app_callback_resume_uri": (status_t, [AppCallbackP, out_string]),
    "telenorid_app_callback_free": (None, [AppCallbackP]),
    # Client
    "telenorid_client_new": (status_t, [ConfigP, POINTER(ClientP)]),
    "telenorid_client_discover": (status_t, [ClientP]),
    "telenorid_client_config": (status_t, [ClientP, POINTER(ConfigP)]),
    "telenorid_client_build_auth_request": (status_t, [ClientP, AuthRequestP, POINTER(PendingAuthP)]),
    "telenorid_client_verify_id_token": (status_t, [ClientP, c_char_p, c_char_p, out_string]),
    "telenorid_client_free": (None, [ClientP]),
    "telenorid_client_cancel": (status_t, [ClientP]),
    "telenorid_client_set_dpop_signer": (status_t, [ClientP, c_char_p, c_char_p, SignCallback, c_void_p]),
    "telenorid_client_set_client_signer": (status_t, [ClientP, c_char_p, c_char_p, SignCallback, c_void_p]),
    # Auth state
    "telenorid_client_exchange_code": (status_t, [ClientP, CallbackP, POINTER(AuthStateP)]),
    "telenorid_auth_state_fresh_access_token": (status_t, [AuthStateP, out_string]),
    "telenorid_auth_state_refresh": (status_t, [AuthStateP]),
    "telenorid_auth_state_is_signed_in": (status_t, [AuthStateP, POINTER(c_int32)]),
    "telenorid_auth_state_get": (status_t, [AuthStateP, token_field_t, out_string]),
    "telenorid_auth_state_expires_at": (status_t, [AuthStateP, POINTER(c_int64)]),
    "telenorid_auth_state_userinfo": (status_t, [AuthStateP, out_string]),
    "telenorid_auth_state_check": (status_t, [AuthStateP]),
    "telenorid_auth_state_request_headers": (status_t, [AuthStateP, c_char_p, c_char_p, c_char_p, out_string, out_string]),
    "telenorid_auth_state_access_token_rejected": (status_t, [AuthStateP, c_char_p]),
    "telenorid_auth_state_revoke": (status_t, [AuthStateP]),
    "telenorid_auth_state_end_session_url": (status_t, [AuthStateP, c_char_p, c_char_p, out_string]),
    "telenorid_auth_state_serialize": (status_t, [AuthStateP, out_string]),
    "telenorid_auth_state_restore": (status_t, [ClientP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_bind_file": (status_t, [AuthStateP, c_char_p]),
    "telenorid_auth_state_open_file": (status_t, [ClientP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_set_change_callback": (status_t, [AuthStateP, AuthStateCallback, c_void_p]),
    "telenorid_auth_state_free": (None, [AuthStateP]),
    # Line authentication
    "telenorid_line_auth_new": (status_t, [ConfigP, POINTER(LineAuthP)]),
    "telenorid_line_auth_set_socket_hook": (status_t, [LineAuthP, SocketHook, c_void_p]),
    "telenorid_line_auth_run": (status_t, [LineAuthP]),
    "telenorid_line_auth_valid_for": (status_t, [LineAuthP, POINTER(c_int64)]),
    "telenorid_line_auth_apply": (status_t, [LineAuthP, AuthRequestP]),
    "telenorid_line_auth_free": (None, [LineAuthP]),
    "telenorid_loopback_new": (status_t, [ctypes.c_uint16, c_char_p, POINTER(LoopbackP)]),
    "telenorid_loopback_redirect_uri": (status_t, [LoopbackP, out_string]),
    "telenorid_loopback_wait": (status_t, [LoopbackP, c_int32, out_string]),
    "telenorid_loopback_free": (None, [LoopbackP]),
    "telenorid_loopback_expect_state": (status_t, [LoopbackP, c_char_p]),
    "telenorid_loopback_cancel": (status_t, [LoopbackP]),
    # Identity-provider app flow
    "telenorid_params_new": (status_t, [POINTER(ParamsP)]),
    "telenorid_params_add": (status_t, [ParamsP, c_char_p, c_char_p]),
    "telenorid_params_count": (status_t, [ParamsP, POINTER(c_size_t)]),
    "telenorid_params_name": (status_t, [ParamsP, c_size_t, out_string]),
    "telenorid_params_value": (status_t, [ParamsP, c_size_t, out_string]),
    "telenorid_params_free": (None, [ParamsP]),
    "telenorid_idp_request_new": (status_t, [PendingAuthP, c_char_p, c_char_p, POINTER(IdPRequestP)]),
    "telenorid_idp_request_url": (status_t, [IdPRequestP, c_char_p, out_string]),
    "telenorid_idp_request_params": (status_t, [IdPRequestP, POINTER(ParamsP)]),
    "telenorid_pending_auth_handle_idp_response_url": (status_t, [PendingAuthP, c_char_p, POINTER(c_char_p),
                                                                  c_size_t, POINTER(CallbackP)]),
    "telenorid_pending_auth_handle_idp_response_params": (status_t, [PendingAuthP, ParamsP, POINTER(c_char_p),
                                                                     c_size_t, POINTER(CallbackP)]),
    "telenorid_idp_request_parse_url": (status_t, [c_char_p, c_char_p, POINTER(c_char_p), c_size_t,
                                                   POINTER(IdPRequestP)]),
    "telenorid_idp_request_parse_params": (status_t, [ParamsP, POINTER(c_char_p), c_size_t, POINTER(IdPRequestP)]),
    "telenorid_idp_request_authorization_url": (status_t, [IdPRequestP, c_char_p, out_string]),
    "telenorid_idp_request_respond": (status_t, [IdPRequestP, c_char_p, c_char_p, POINTER(IdPResponseP)]),
    "telenorid_idp_request_free": (None, [IdPRequestP]),
    "telenorid_idp_response_url": (status_t, [IdPResponseP, out_string]),
    "telenorid_idp_response_params": (status_t, [IdPResponseP, POINTER(ParamsP)]),
    "telenorid_idp_response_free": (None, [IdPResponseP]),
}


def _declare() -> None:
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
    for name, (restype, argtypes) in SIGNATURES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        function.restype = restype
        function.argtypes = argtypes
    if missing:
        raise ImportError(f"telenorid: {library_path} does not export {', '.join(missing)}; it is not a "
                          f"libtelenorid {EXPECTED_MAJOR}.{EXPECTED_MINOR} build. " + HINT)


_declare()

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
}
SOCKET_VERDICTS = {"allow": 0, "refuse": 1, "not_cellular": 2}
PKCE_METHODS = {"S256": 0, "plain": 1}
AUTH_PARAMS = {
    "scope": 1, "prompt": 2, "login_hint": 3, "ui_locales": 4, "acr_values": 5, "max_age": 6,
    "aloha_token": 7, "claims_purpose": 8, "response_mode": 9,
}
CLAIM_TARGETS = {"id_token": 1, "userinfo": 2}
TOKEN_FIELDS = {"access_token": 1, "refresh_token": 2, "id_token": 3, "id_token_claims": 4, "scope": 5,
                "token_type": 6, "dpop_thumbprint": 7, "authorization_details": 8}
