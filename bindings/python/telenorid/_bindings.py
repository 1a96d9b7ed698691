"""ctypes declarations of include/telenorid.h, generated from it by scripts/gen_python_bindings.py.

DO NOT EDIT: change the header and run `python3 scripts/gen_python_bindings.py`; `make check-bindings`
fails when this file and the header disagree. The binding calls each function through telenorid._ffi.
"""
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint8,
                    c_uint16, c_uint32, c_void_p)
from typing import Any, Dict, List, Tuple

# Handles: each its own incomplete struct, so a pointer to one is refused where another belongs (and the
# structs the host fills in, whose members follow the callback types).


class telenorid_error(Structure):
    pass


class telenorid_config_builder(Structure):
    pass


class telenorid_config(Structure):
    pass


class telenorid_pkce(Structure):
    pass


class telenorid_auth_request(Structure):
    pass


class telenorid_pending_auth(Structure):
    pass


class telenorid_authorization_callback(Structure):
    pass


class telenorid_app_callback(Structure):
    pass


class telenorid_client(Structure):
    pass


class telenorid_auth_state(Structure):
    pass


class telenorid_store(Structure):
    pass


class telenorid_store_record(Structure):
    pass


class telenorid_store_functions(Structure):
    pass


class telenorid_line_authenticator(Structure):
    pass


class telenorid_loopback_listener(Structure):
    pass


class telenorid_params(Structure):
    pass


class telenorid_idp_request(Structure):
    pass


class telenorid_idp_response(Structure):
    pass


class telenorid_device_authorization(Structure):
    pass


class telenorid_backchannel_auth(Structure):
    pass


class telenorid_accounts(Structure):
    pass


class telenorid_resource_server(Structure):
    pass


class telenorid_token_info(Structure):
    pass


class telenorid_client_credentials(Structure):
    pass


ErrorP = POINTER(telenorid_error)
ConfigBuilderP = POINTER(telenorid_config_builder)
ConfigP = POINTER(telenorid_config)
PkceP = POINTER(telenorid_pkce)
AuthRequestP = POINTER(telenorid_auth_request)
PendingAuthP = POINTER(telenorid_pending_auth)
AuthorizationCallbackP = POINTER(telenorid_authorization_callback)
AppCallbackP = POINTER(telenorid_app_callback)
ClientP = POINTER(telenorid_client)
AuthStateP = POINTER(telenorid_auth_state)
StoreP = POINTER(telenorid_store)
StoreRecordP = POINTER(telenorid_store_record)
StoreFunctionsP = POINTER(telenorid_store_functions)
LineAuthenticatorP = POINTER(telenorid_line_authenticator)
LoopbackListenerP = POINTER(telenorid_loopback_listener)
ParamsP = POINTER(telenorid_params)
IdpRequestP = POINTER(telenorid_idp_request)
IdpResponseP = POINTER(telenorid_idp_response)
DeviceAuthorizationP = POINTER(telenorid_device_authorization)
BackchannelAuthP = POINTER(telenorid_backchannel_auth)
AccountsP = POINTER(telenorid_accounts)
ResourceServerP = POINTER(telenorid_resource_server)
TokenInfoP = POINTER(telenorid_token_info)
ClientCredentialsP = POINTER(telenorid_client_credentials)

# Integer typedefs.
telenorid_status = c_int32
telenorid_config_key = c_int32
telenorid_pkce_method = c_int32
telenorid_auth_param = c_int32
telenorid_claim_target = c_int32
telenorid_token_field = c_int32
telenorid_device_field = c_int32
telenorid_login_hint_form = c_int32
telenorid_resource_server_option = c_int32
telenorid_token_info_field = c_int32

# Callback types.
HostKeySigner = CFUNCTYPE(c_int32, c_void_p, POINTER(c_uint8), c_size_t, POINTER(c_uint8), POINTER(c_size_t))
AuthStateCallback = CFUNCTYPE(None, c_void_p)
StoreLoadFunction = CFUNCTYPE(c_int32, c_void_p, c_char_p, StoreRecordP)
StoreSaveFunction = CFUNCTYPE(c_int32, c_void_p, c_char_p, POINTER(c_uint8), c_size_t)
StoreLockFunction = CFUNCTYPE(c_int32, c_void_p, c_char_p, c_int32)
StoreUnlockFunction = CFUNCTYPE(c_int32, c_void_p, c_char_p)
StoreReleaseFunction = CFUNCTYPE(None, c_void_p)
SocketHook = CFUNCTYPE(c_int32, c_void_p, c_int)
HostResolver = CFUNCTYPE(c_int32, c_void_p, c_char_p, c_int32, POINTER(c_uint8), c_size_t)
LogCallback = CFUNCTYPE(None, c_void_p, c_int32, c_char_p, c_char_p)

# The members of the structs the host fills in.
telenorid_store_functions._fields_ = [("size", c_size_t), ("load", StoreLoadFunction), ("store", StoreSaveFunction),
                                      ("lock", StoreLockFunction), ("unlock", StoreUnlockFunction),
                                      ("release", StoreReleaseFunction)]

# Old names of handle and callback types (aliases until 1.0).
telenorid_callback = telenorid_authorization_callback
CallbackP = AuthorizationCallbackP
telenorid_line_auth = telenorid_line_authenticator
LineAuthP = LineAuthenticatorP
telenorid_loopback = telenorid_loopback_listener
LoopbackP = LoopbackListenerP
SignCallback = HostKeySigner

# name: (restype, argtypes), for every function of the header in its order.
SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    "telenorid_version": (c_uint32, []),
    "telenorid_version_string": (c_char_p, []),
    "telenorid_status_str": (c_char_p, [telenorid_status]),
    "telenorid_status_is_transient": (c_int32, [telenorid_status]),
    "telenorid_error_last": (ErrorP, []),
    "telenorid_error_status": (telenorid_status, [ErrorP]),
    "telenorid_error_message": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_error": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_description": (c_char_p, [ErrorP]),
    "telenorid_error_oauth_uri": (c_char_p, [ErrorP]),
    "telenorid_error_http_status": (c_int32, [ErrorP]),
    "telenorid_error_retry_after": (c_int64, [ErrorP]),
    "telenorid_error_free": (None, [ErrorP]),
    "telenorid_string_free": (None, [c_char_p]),
    "telenorid_config_builder_new": (telenorid_status, [POINTER(ConfigBuilderP)]),
    "telenorid_config_builder_set": (telenorid_status, [ConfigBuilderP, telenorid_config_key, c_char_p]),
    "telenorid_config_builder_build": (telenorid_status, [ConfigBuilderP, POINTER(ConfigP)]),
    "telenorid_config_builder_free": (None, [ConfigBuilderP]),
    "telenorid_config_from_json": (telenorid_status, [c_char_p, c_char_p, POINTER(ConfigP)]),
    "telenorid_config_get": (telenorid_status, [ConfigP, telenorid_config_key, POINTER(c_void_p)]),
    "telenorid_config_free": (None, [ConfigP]),
    "telenorid_pkce_new": (telenorid_status, [c_size_t, POINTER(PkceP)]),
    "telenorid_pkce_from_verifier": (telenorid_status, [c_char_p, POINTER(PkceP)]),
    "telenorid_pkce_verifier": (telenorid_status, [PkceP, POINTER(c_void_p)]),
    "telenorid_pkce_challenge": (telenorid_status, [PkceP, POINTER(c_void_p)]),
    "telenorid_pkce_free": (None, [PkceP]),
    "telenorid_pkce_generate": (telenorid_status, [c_size_t, c_char_p, c_size_t, c_char_p, c_size_t]),
    "telenorid_auth_request_new": (telenorid_status, [ConfigP, POINTER(AuthRequestP)]),
    "telenorid_auth_request_set": (telenorid_status, [AuthRequestP, telenorid_auth_param, c_char_p]),
    "telenorid_auth_request_add_parameter": (telenorid_status, [AuthRequestP, c_char_p, c_char_p]),
    "telenorid_auth_request_add_claim": (telenorid_status, [AuthRequestP, telenorid_claim_target, c_char_p, c_int32,
                                                            c_char_p, c_char_p, c_char_p]),
    "telenorid_auth_request_add_resource": (telenorid_status, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_authorization_details": (telenorid_status, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_token_authorization_details": (telenorid_status, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_apply_step_up": (telenorid_status, [AuthRequestP, c_char_p, POINTER(c_int32)]),
    "telenorid_auth_request_set_app_to_app": (telenorid_status, [AuthRequestP, c_char_p]),
    "telenorid_auth_request_set_pkce_method": (telenorid_status, [AuthRequestP, telenorid_pkce_method]),
    "telenorid_auth_request_free": (None, [AuthRequestP]),
    "telenorid_auth_request_build": (telenorid_status, [AuthRequestP, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_url": (telenorid_status, [PendingAuthP, POINTER(c_void_p)]),
    "telenorid_pending_auth_state": (telenorid_status, [PendingAuthP, POINTER(c_void_p)]),
    "telenorid_pending_auth_nonce": (telenorid_status, [PendingAuthP, POINTER(c_void_p)]),
    "telenorid_pending_auth_code_verifier": (telenorid_status, [PendingAuthP, POINTER(c_void_p)]),
    "telenorid_pending_auth_serialize": (telenorid_status, [PendingAuthP, POINTER(c_void_p)]),
    "telenorid_pending_auth_restore": (telenorid_status, [ConfigP, c_char_p, POINTER(PendingAuthP)]),
    "telenorid_pending_auth_free": (None, [PendingAuthP]),
    "telenorid_pending_auth_handle_callback": (telenorid_status, [PendingAuthP, c_char_p,
                                                                  POINTER(AuthorizationCallbackP)]),
    "telenorid_authorization_callback_code": (telenorid_status, [AuthorizationCallbackP, POINTER(c_void_p)]),
    "telenorid_authorization_callback_parameter": (telenorid_status, [AuthorizationCallbackP, c_char_p,
                                                                      POINTER(c_void_p)]),
    "telenorid_authorization_callback_free": (None, [AuthorizationCallbackP]),
    "telenorid_pending_auth_handle_app_callback": (telenorid_status, [PendingAuthP, c_char_p, c_char_p,
                                                                      POINTER(AppCallbackP)]),
    "telenorid_app_callback_resume_uri": (telenorid_status, [AppCallbackP, POINTER(c_void_p)]),
    "telenorid_app_callback_free": (None, [AppCallbackP]),
    "telenorid_client_new": (telenorid_status, [ConfigP, POINTER(ClientP)]),
    "telenorid_client_discover": (telenorid_status, [ClientP]),
    "telenorid_client_config": (telenorid_status, [ClientP, POINTER(ConfigP)]),
    "telenorid_client_build_auth_request": (telenorid_status, [ClientP, AuthRequestP, POINTER(PendingAuthP)]),
    "telenorid_client_verify_id_token": (telenorid_status, [ClientP, c_char_p, c_char_p, POINTER(c_void_p)]),
    "telenorid_client_free": (None, [ClientP]),
    "telenorid_client_cancel": (telenorid_status, [ClientP]),
    "telenorid_client_set_dpop_signer": (telenorid_status, [ClientP, c_char_p, c_char_p, HostKeySigner, c_void_p]),
    "telenorid_client_set_client_signer": (telenorid_status, [ClientP, c_char_p, c_char_p, HostKeySigner, c_void_p]),
    "telenorid_client_exchange_code": (telenorid_status, [ClientP, AuthorizationCallbackP, POINTER(AuthStateP)]),
    "telenorid_auth_state_fresh_access_token": (telenorid_status, [AuthStateP, POINTER(c_void_p)]),
    "telenorid_auth_state_refresh": (telenorid_status, [AuthStateP]),
    "telenorid_auth_state_is_signed_in": (telenorid_status, [AuthStateP, POINTER(c_int32)]),
    "telenorid_auth_state_get": (telenorid_status, [AuthStateP, telenorid_token_field, POINTER(c_void_p)]),
    "telenorid_auth_state_expires_at": (telenorid_status, [AuthStateP, POINTER(c_int64)]),
    "telenorid_auth_state_userinfo": (telenorid_status, [AuthStateP, POINTER(c_void_p)]),
    "telenorid_auth_state_check": (telenorid_status, [AuthStateP]),
    "telenorid_auth_state_request_headers": (telenorid_status, [AuthStateP, c_char_p, c_char_p, c_char_p,
                                                                POINTER(c_void_p), POINTER(c_void_p)]),
    "telenorid_auth_state_resource_answered": (telenorid_status, [AuthStateP, c_char_p, c_int32, c_char_p, c_char_p,
                                                                  c_char_p, POINTER(c_int32)]),
    "telenorid_auth_state_access_token_rejected": (telenorid_status, [AuthStateP, c_char_p]),
    "telenorid_auth_state_revoke": (telenorid_status, [AuthStateP]),
    "telenorid_auth_state_end_session_url": (telenorid_status, [AuthStateP, c_char_p, c_char_p, POINTER(c_void_p)]),
    "telenorid_auth_state_serialize": (telenorid_status, [AuthStateP, POINTER(c_void_p)]),
    "telenorid_auth_state_restore": (telenorid_status, [ClientP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_bind_file": (telenorid_status, [AuthStateP, c_char_p]),
    "telenorid_auth_state_open_file": (telenorid_status, [ClientP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_set_change_callback": (telenorid_status, [AuthStateP, AuthStateCallback, c_void_p]),
    "telenorid_auth_state_free": (None, [AuthStateP]),
    "telenorid_store_new": (telenorid_status, [StoreFunctionsP, c_void_p, POINTER(StoreP)]),
    "telenorid_store_new_directory": (telenorid_status, [c_char_p, POINTER(StoreP)]),
    "telenorid_store_record_set": (telenorid_status, [StoreRecordP, POINTER(c_uint8), c_size_t]),
    "telenorid_store_free": (None, [StoreP]),
    "telenorid_auth_state_bind_store": (telenorid_status, [AuthStateP, StoreP, c_char_p]),
    "telenorid_auth_state_open_store": (telenorid_status, [ClientP, StoreP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_auth_state_save": (telenorid_status, [AuthStateP]),
    "telenorid_line_authenticator_new": (telenorid_status, [ConfigP, POINTER(LineAuthenticatorP)]),
    "telenorid_line_authenticator_set_socket_hook": (telenorid_status, [LineAuthenticatorP, SocketHook, c_void_p]),
    "telenorid_line_authenticator_set_resolver": (telenorid_status, [LineAuthenticatorP, HostResolver, c_void_p]),
    "telenorid_line_authenticator_set_margin": (telenorid_status, [LineAuthenticatorP, c_int64]),
    "telenorid_line_authenticator_run": (telenorid_status, [LineAuthenticatorP]),
    "telenorid_line_authenticator_valid_for": (telenorid_status, [LineAuthenticatorP, POINTER(c_int64)]),
    "telenorid_line_authenticator_apply": (telenorid_status, [LineAuthenticatorP, AuthRequestP]),
    "telenorid_line_authenticator_free": (None, [LineAuthenticatorP]),
    "telenorid_loopback_listener_new": (telenorid_status, [c_uint16, c_char_p, POINTER(LoopbackListenerP)]),
    "telenorid_loopback_listener_redirect_uri": (telenorid_status, [LoopbackListenerP, POINTER(c_void_p)]),
    "telenorid_loopback_listener_wait": (telenorid_status, [LoopbackListenerP, c_int32, POINTER(c_void_p)]),
    "telenorid_loopback_listener_free": (None, [LoopbackListenerP]),
    "telenorid_loopback_listener_cancel": (telenorid_status, [LoopbackListenerP]),
    "telenorid_loopback_listener_expect_state": (telenorid_status, [LoopbackListenerP, c_char_p]),
    "telenorid_params_new": (telenorid_status, [POINTER(ParamsP)]),
    "telenorid_params_add": (telenorid_status, [ParamsP, c_char_p, c_char_p]),
    "telenorid_params_count": (telenorid_status, [ParamsP, POINTER(c_size_t)]),
    "telenorid_params_name": (telenorid_status, [ParamsP, c_size_t, POINTER(c_void_p)]),
    "telenorid_params_value": (telenorid_status, [ParamsP, c_size_t, POINTER(c_void_p)]),
    "telenorid_params_free": (None, [ParamsP]),
    "telenorid_idp_request_new": (telenorid_status, [PendingAuthP, c_char_p, c_char_p, POINTER(IdpRequestP)]),
    "telenorid_idp_request_url": (telenorid_status, [IdpRequestP, c_char_p, POINTER(c_void_p)]),
    "telenorid_idp_request_params": (telenorid_status, [IdpRequestP, POINTER(ParamsP)]),
    "telenorid_pending_auth_handle_idp_response_url": (telenorid_status, [PendingAuthP, c_char_p, POINTER(c_char_p),
                                                                          c_size_t, POINTER(AuthorizationCallbackP)]),
    "telenorid_pending_auth_handle_idp_response_params": (telenorid_status, [PendingAuthP, ParamsP, POINTER(c_char_p),
                                                                             c_size_t,
                                                                             POINTER(AuthorizationCallbackP)]),
    "telenorid_idp_request_parse_url": (telenorid_status, [c_char_p, c_char_p, POINTER(c_char_p), c_size_t,
                                                           POINTER(IdpRequestP)]),
    "telenorid_idp_request_parse_params": (telenorid_status, [ParamsP, POINTER(c_char_p), c_size_t,
                                                              POINTER(IdpRequestP)]),
    "telenorid_idp_request_authorization_url": (telenorid_status, [IdpRequestP, c_char_p, POINTER(c_void_p)]),
    "telenorid_idp_request_respond": (telenorid_status, [IdpRequestP, c_char_p, c_char_p, POINTER(IdpResponseP)]),
    "telenorid_idp_request_free": (None, [IdpRequestP]),
    "telenorid_idp_response_url": (telenorid_status, [IdpResponseP, POINTER(c_void_p)]),
    "telenorid_idp_response_params": (telenorid_status, [IdpResponseP, POINTER(ParamsP)]),
    "telenorid_idp_response_free": (None, [IdpResponseP]),
    "telenorid_idp_initiation_url": (telenorid_status, [c_char_p, c_char_p, c_char_p, POINTER(c_void_p)]),
    "telenorid_idp_initiation_params": (telenorid_status, [c_char_p, c_char_p, POINTER(ParamsP)]),
    "telenorid_idp_initiation_parse_url": (telenorid_status, [c_char_p, c_char_p, POINTER(c_void_p),
                                                              POINTER(c_void_p)]),
    "telenorid_idp_initiation_parse_params": (telenorid_status, [ParamsP, POINTER(c_void_p), POINTER(c_void_p)]),
    "telenorid_client_start_device_authorization": (telenorid_status, [ClientP, AuthRequestP,
                                                                       POINTER(DeviceAuthorizationP)]),
    "telenorid_device_authorization_get": (telenorid_status, [DeviceAuthorizationP, telenorid_device_field,
                                                              POINTER(c_void_p)]),
    "telenorid_device_authorization_expires_at": (telenorid_status, [DeviceAuthorizationP, POINTER(c_int64)]),
    "telenorid_device_authorization_interval": (telenorid_status, [DeviceAuthorizationP, POINTER(c_int32)]),
    "telenorid_device_authorization_wait": (telenorid_status, [DeviceAuthorizationP, POINTER(AuthStateP)]),
    "telenorid_device_authorization_free": (None, [DeviceAuthorizationP]),
    "telenorid_client_start_backchannel_authentication": (telenorid_status, [ClientP, AuthRequestP,
                                                                             POINTER(BackchannelAuthP)]),
    "telenorid_backchannel_auth_id": (telenorid_status, [BackchannelAuthP, POINTER(c_void_p)]),
    "telenorid_backchannel_auth_expires_at": (telenorid_status, [BackchannelAuthP, POINTER(c_int64)]),
    "telenorid_backchannel_auth_interval": (telenorid_status, [BackchannelAuthP, POINTER(c_int32)]),
    "telenorid_backchannel_auth_handle_ping": (telenorid_status, [BackchannelAuthP, c_char_p, c_char_p]),
    "telenorid_backchannel_auth_wait": (telenorid_status, [BackchannelAuthP, POINTER(AuthStateP)]),
    "telenorid_backchannel_auth_free": (None, [BackchannelAuthP]),
    "telenorid_login_hint_phone_number": (telenorid_status, [c_char_p, POINTER(c_void_p)]),
    "telenorid_login_hint_ip_port": (telenorid_status, [c_char_p, c_int32, POINTER(c_void_p)]),
    "telenorid_login_hint_operator_token": (telenorid_status, [c_char_p, POINTER(c_void_p)]),
    "telenorid_login_hint_get_form": (telenorid_status, [c_char_p, POINTER(telenorid_login_hint_form)]),
    "telenorid_set_log_callback": (telenorid_status, [LogCallback, c_void_p, c_int32]),
    "telenorid_accounts_open": (telenorid_status, [ClientP, StoreP, c_char_p, POINTER(AccountsP)]),
    "telenorid_accounts_add": (telenorid_status, [AccountsP, AuthStateP, POINTER(c_void_p)]),
    "telenorid_accounts_list": (telenorid_status, [AccountsP, POINTER(c_void_p)]),
    "telenorid_accounts_select": (telenorid_status, [AccountsP, c_char_p, POINTER(AuthStateP)]),
    "telenorid_accounts_remove": (telenorid_status, [AccountsP, c_char_p]),
    "telenorid_accounts_free": (None, [AccountsP]),
    "telenorid_resource_server_new": (telenorid_status, [ClientP, c_char_p, POINTER(ResourceServerP)]),
    "telenorid_resource_server_set": (telenorid_status, [ResourceServerP, telenorid_resource_server_option, c_char_p]),
    "telenorid_resource_server_introspect": (telenorid_status, [ResourceServerP, c_char_p, c_char_p,
                                                                POINTER(TokenInfoP)]),
    "telenorid_resource_server_verify_access_token": (telenorid_status, [ResourceServerP, c_char_p,
                                                                         POINTER(TokenInfoP)]),
    "telenorid_resource_server_free": (None, [ResourceServerP]),
    "telenorid_token_info_active": (telenorid_status, [TokenInfoP, POINTER(c_int32)]),
    "telenorid_token_info_get": (telenorid_status, [TokenInfoP, telenorid_token_info_field, POINTER(c_void_p)]),
    "telenorid_token_info_time": (telenorid_status, [TokenInfoP, telenorid_token_info_field, POINTER(c_int64)]),
    "telenorid_token_info_member": (telenorid_status, [TokenInfoP, c_char_p, POINTER(c_void_p)]),
    "telenorid_token_info_json": (telenorid_status, [TokenInfoP, POINTER(c_void_p)]),
    "telenorid_token_info_free": (None, [TokenInfoP]),
    "telenorid_client_credentials_new": (telenorid_status, [ClientP, c_char_p, POINTER(ClientCredentialsP)]),
    "telenorid_client_credentials_access_token": (telenorid_status, [ClientCredentialsP, POINTER(c_void_p)]),
    "telenorid_client_credentials_expires_at": (telenorid_status, [ClientCredentialsP, POINTER(c_int64)]),
    "telenorid_client_credentials_rejected": (telenorid_status, [ClientCredentialsP, c_char_p]),
    "telenorid_client_credentials_free": (None, [ClientCredentialsP]),
    "telenorid_callback_code": (telenorid_status, [AuthorizationCallbackP, POINTER(c_void_p)]),
    "telenorid_callback_parameter": (telenorid_status, [AuthorizationCallbackP, c_char_p, POINTER(c_void_p)]),
    "telenorid_callback_free": (None, [AuthorizationCallbackP]),
    "telenorid_line_auth_new": (telenorid_status, [ConfigP, POINTER(LineAuthenticatorP)]),
    "telenorid_line_auth_set_socket_hook": (telenorid_status, [LineAuthenticatorP, SocketHook, c_void_p]),
    "telenorid_line_auth_run": (telenorid_status, [LineAuthenticatorP]),
    "telenorid_line_auth_valid_for": (telenorid_status, [LineAuthenticatorP, POINTER(c_int64)]),
    "telenorid_line_auth_apply": (telenorid_status, [LineAuthenticatorP, AuthRequestP]),
    "telenorid_line_auth_free": (None, [LineAuthenticatorP]),
    "telenorid_loopback_new": (telenorid_status, [c_uint16, c_char_p, POINTER(LoopbackListenerP)]),
    "telenorid_loopback_redirect_uri": (telenorid_status, [LoopbackListenerP, POINTER(c_void_p)]),
    "telenorid_loopback_wait": (telenorid_status, [LoopbackListenerP, c_int32, POINTER(c_void_p)]),
    "telenorid_loopback_free": (None, [LoopbackListenerP]),
    "telenorid_loopback_cancel": (telenorid_status, [LoopbackListenerP]),
    "telenorid_loopback_expect_state": (telenorid_status, [LoopbackListenerP, c_char_p]),
}
