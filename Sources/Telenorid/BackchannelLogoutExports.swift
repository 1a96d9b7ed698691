import CTelenorid
import TelenoridCore

// Back-channel logout (OpenID Connect Back-Channel Logout 1.0): validating a logout token and the local
// sign-out it asks for; the plain local sign-out of an auth state.

@c @implementation
public func telenorid_backchannel_logout_new(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(BackchannelLogout(client: client))
    }
}

@c @implementation
public func telenorid_backchannel_logout_set(
    _ logout: OpaquePointer?, _ option: telenorid_backchannel_logout_option, _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let logout = try borrow(logout, as: BackchannelLogout.self, "logout").value
        let which: BackchannelLogout.Option
        switch option {
        case TELENORID_BACKCHANNEL_LOGOUT_MAX_AGE_S: which = .maxAge
        default: throw TelenoridError(.invalidArgument, "unknown back-channel logout option \(option)")
        }
        try logout.set(which, try optionalInputString(value, "value"))
    }
}

@c @implementation
public func telenorid_backchannel_logout_validate(
    _ logout: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let logout = try borrow(logout, as: BackchannelLogout.self, "logout").value
        let token = try inputString(token, "logout_token")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try logout.validate(token))
    }
}

@c @implementation
public func telenorid_backchannel_logout_free(_ logout: OpaquePointer?) {
    release(logout)
}

@c @implementation
public func telenorid_logout_token_get(
    _ token: OpaquePointer?, _ field: telenorid_logout_token_field,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let token = try borrow(token, as: LogoutToken.self, "token").value
        let out = try outPointer(out)
        let value: String?
        switch field {
        case TELENORID_LOGOUT_TOKEN_SUB: value = token.subject
        case TELENORID_LOGOUT_TOKEN_SID: value = token.sessionID
        case TELENORID_LOGOUT_TOKEN_ISS: value = token.issuer
        case TELENORID_LOGOUT_TOKEN_JTI: value = token.tokenID
        default: throw TelenoridError(.invalidArgument, "\(field) is no field of a logout token")
        }
        try writeString(value, to: out)
    }
}

@c @implementation
public func telenorid_logout_token_json(
    _ token: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let token = try borrow(token, as: LogoutToken.self, "token").value
        try writeString(token.json, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_logout_token_free(_ token: OpaquePointer?) {
    release(token)
}

@c @implementation
public func telenorid_accounts_backchannel_logout(
    _ accounts: OpaquePointer?, _ token: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let registry = try borrow(accounts, as: AccountRegistry.self, "accounts").value
        let token = try borrow(token, as: LogoutToken.self, "token").value
        let out = try outPointer(out)
        let ids = try registry.signOut(for: token)
        try writeString(JSON.serialize(.array(ids.map { .string($0) })), to: out)
    }
}

@c @implementation
public func telenorid_auth_state_backchannel_logout(
    _ state: OpaquePointer?, _ token: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let session = try borrow(state, as: ClientAuthState.self, "state").value
        let token = try borrow(token, as: LogoutToken.self, "token").value
        let out = try outPointer(out)
        out.pointee = session.state.signOut(for: token) ? 1 : 0
    }
}

@c @implementation
public func telenorid_auth_state_sign_out(_ state: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        _ = try borrow(state, as: ClientAuthState.self, "state").value.state.signOut()
    }
}
