import TelenoridCore

// Handles are retained Swift objects passed as opaque pointers: one box, `Handle<Value>`, around the
// core object a C type stands for. Each C type has its own Value type, so a pointer of the wrong kind
// (a configuration passed where a PKCE pair belongs) is caught by a checked cast instead of being misread.
// A child handle keeps its parent alive through the core object it holds (an auth state's
// ClientAuthState holds its client, a pending authorization its configuration), so hosts may free handles in
// any order.
//
// The Value of each C type (a new C type needs a Value type no other handle uses):
//   telenorid_config_builder  ClientConfiguration.Settings    telenorid_config        ClientConfiguration
//   telenorid_pkce            PKCE                            telenorid_auth_request  SharedAuthorizationRequest
//   telenorid_pending_auth    PendingAuthorization     telenorid_authorization_callback  AuthorizationCallback
//   telenorid_app_callback    AppToAppCallback                telenorid_client        OIDCClient
//   telenorid_auth_state      ClientAuthState (the state and its client)
//   telenorid_line_authenticator  LineAuthenticator    telenorid_loopback_listener  LoopbackListener
//   telenorid_params          FormParameters                  telenorid_idp_request   IdPAppRequest
//   telenorid_idp_response    IdPResponseToSend               telenorid_error         ErrorCopy
//   telenorid_store           RecordStore                     telenorid_store_record  LoadedRecord
//   telenorid_device_authorization  DeviceAuthorization
//   telenorid_backchannel_auth BackchannelAuthentication  telenorid_accounts  AccountRegistry
//   telenorid_resource_server ResourceServer     telenorid_token_info  TokenInfo
//   telenorid_client_credentials  ClientCredentials   telenorid_dpop_replay_cache  DPoPReplayCache
//   telenorid_token_exchange  TokenExchangeRequest   telenorid_issued_token  IssuedToken

final class Handle<Value> {
    /// Mutable only for the handles C fills in step by step (a configuration builder, key-value pairs).
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A new handle holding `value`, with one reference for the caller; its `_free` releases it.
func retainedHandle<Value>(_ value: Value) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(Handle(value)).toOpaque())
}

/// Borrows the handle behind a pointer for the duration of a call.
func borrow<Value>(_ pointer: OpaquePointer?, as type: Value.Type, _ what: String) throws(TelenoridError) -> Handle<
    Value
> {
    guard let pointer else { throw TelenoridError(.invalidArgument, "\(what) is NULL") }
    guard
        let handle = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue() as? Handle<Value>
    else {
        throw TelenoridError(.invalidArgument, "\(what) is a handle of another kind")
    }
    return handle
}

/// Releases the reference handed out at creation. NULL is a no-op.
func release(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(pointer)).release()
}
