import CTelenorid
import TelenoridCore

// The auth state: code exchange, fresh tokens, userinfo, revocation, logout and persistence.

@c @implementation
public func telenorid_client_exchange_code(
    _ client: OpaquePointer?, _ callback: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let callback = try borrow(callback, as: AuthorizationCallback.self, "callback").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientAuthState(state: try client.exchangeCode(callback), client: client))
    }
}

@c @implementation
public func telenorid_auth_state_fresh_access_token(
    _ state: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let out = try outPointer(out)
        try writeSecret(try authState.state.freshTokens().accessToken, to: out)
    }
}

@c @implementation
public func telenorid_auth_state_refresh(_ state: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        _ = try borrow(state, as: ClientAuthState.self, "state").value.state.forceRefresh()
    }
}

@c @implementation
public func telenorid_auth_state_is_signed_in(_ state: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        try outPointer(out).pointee = authState.state.isSignedIn ? 1 : 0
    }
}

@c @implementation
public func telenorid_auth_state_get(
    _ state: OpaquePointer?, _ field: telenorid_token_field,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let out = try outPointer(out)
        let tokens = authState.state.tokens
        let value: String?
        switch field {
        case TELENORID_TOKEN_ACCESS_TOKEN: return try writeSecret(tokens?.accessToken, to: out)
        case TELENORID_TOKEN_REFRESH_TOKEN: return try writeSecret(tokens?.refreshToken, to: out)
        case TELENORID_TOKEN_DEVICE_SECRET: return try writeSecret(tokens?.deviceSecret, to: out)
        case TELENORID_TOKEN_ID_TOKEN: value = tokens?.idToken
        case TELENORID_TOKEN_ID_TOKEN_CLAIMS: value = tokens?.idTokenClaims.map { JSON.serialize(.object($0)) }
        case TELENORID_TOKEN_SCOPE: value = tokens?.scope
        case TELENORID_TOKEN_TYPE: value = tokens?.tokenType
        case TELENORID_TOKEN_DPOP_THUMBPRINT: value = tokens?.dpopSigner?.thumbprint
        case TELENORID_TOKEN_AUTHORIZATION_DETAILS: value = tokens?.authorizationDetails?.text
        default: throw TelenoridError(.invalidArgument, "unknown token field \(field)")
        }
        try writeString(value, to: out)
    }
}

@c @implementation
public func telenorid_auth_state_expires_at(_ state: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        try outPointer(out).pointee = authState.state.tokens?.accessTokenExpiresAt ?? 0
    }
}

@c @implementation
public func telenorid_auth_state_userinfo(
    _ state: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let out = try outPointer(out)
        try writeString(JSON.serialize(.object(try authState.userinfo())), to: out)
    }
}

@c @implementation
public func telenorid_auth_state_check(_ state: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(state, as: ClientAuthState.self, "state").value.checkAlive()
    }
}

@c @implementation
public func telenorid_auth_state_access_token_rejected(
    _ state: OpaquePointer?,
    _ accessToken: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let token = try optionalInputString(accessToken, "access_token").map { SecretBytes(Array($0.utf8)) }
        authState.state.accessTokenRejected(token)
    }
}

@c @implementation
public func telenorid_auth_state_revoke(_ state: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(state, as: ClientAuthState.self, "state").value.state.revoke()
    }
}

@c @implementation
public func telenorid_auth_state_end_session_url(
    _ state: OpaquePointer?, _ postLogoutRedirectURI: UnsafePointer<CChar>?,
    _ logoutState: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let redirect = try optionalInputString(postLogoutRedirectURI, "post_logout_redirect_uri")
        let stateValue = try optionalInputString(logoutState, "logout_state")
        let out = try outPointer(out)
        try writeString(try authState.endSessionURL(postLogoutRedirectURI: redirect, logoutState: stateValue), to: out)
    }
}

@c @implementation
public func telenorid_auth_state_serialize(
    _ state: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        try writeSecret(authState.state.serialized(), to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_auth_state_restore(
    _ client: OpaquePointer?, _ json: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        // Into wiping storage, as the tokens and the DPoP key it holds are read from it.
        let serialized = try inputSecret(json, "json")
        let out = try outPointer(out)
        let state = try client.restoreAuthState(serialized)
        out.pointee = retainedHandle(ClientAuthState(state: state, client: client))
    }
}

@c @implementation
public func telenorid_auth_state_open_file(
    _ client: OpaquePointer?, _ path: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let file = try AuthStateFile(
            path: try inputString(path, "path"),
            lockTimeoutMilliseconds: client.configuration.http.totalTimeoutMilliseconds)
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientAuthState(state: try client.openAuthState(file), client: client))
    }
}

@c @implementation
public func telenorid_auth_state_bind_file(_ state: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        try authState.state.bind(
            to: try AuthStateFile(
                path: try inputString(path, "path"),
                lockTimeoutMilliseconds: authState.client.configuration.http.totalTimeoutMilliseconds))
    }
}

/// The host's callback and its user data, called from whichever thread changed the state.
private struct HostCallback: @unchecked Sendable {
    // The host promised, by registering it, that the callback may run on any thread with this pointer.
    let function: telenorid_auth_state_callback
    let userData: UnsafeMutableRawPointer?
}

@c @implementation
public func telenorid_auth_state_set_change_callback(
    _ state: OpaquePointer?, _ callback: telenorid_auth_state_callback?,
    _ userData: UnsafeMutableRawPointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        guard let callback else {
            authState.state.setObserver(nil)
            return
        }
        let host = HostCallback(function: callback, userData: userData)
        authState.state.setObserver { host.function(host.userData) }
    }
}

@c @implementation
public func telenorid_auth_state_free(_ state: OpaquePointer?) {
    release(state)
}
