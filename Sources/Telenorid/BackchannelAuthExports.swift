import CTelenorid
import TelenoridCore

// Client-initiated backchannel authentication (OpenID CIBA Core 1.0) and the operators' login hints.

@c @implementation
public func telenorid_client_start_backchannel_authentication(
    _ client: OpaquePointer?, _ request: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try client.startBackchannelAuthentication(request.current))
    }
}

@c @implementation
public func telenorid_backchannel_auth_id(
    _ auth: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let auth = try borrow(auth, as: BackchannelAuthentication.self, "auth").value
        try writeString(auth.authReqID, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_backchannel_auth_expires_at(_ auth: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let auth = try borrow(auth, as: BackchannelAuthentication.self, "auth").value
        try outPointer(out).pointee = auth.expiresAt
    }
}

@c @implementation
public func telenorid_backchannel_auth_interval(_ auth: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let auth = try borrow(auth, as: BackchannelAuthentication.self, "auth").value
        try outPointer(out).pointee = Int32(clamping: auth.interval)
    }
}

@c @implementation
public func telenorid_backchannel_auth_handle_ping(
    _ auth: OpaquePointer?, _ authorizationHeader: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let auth = try borrow(auth, as: BackchannelAuthentication.self, "auth").value
        let header = try inputString(authorizationHeader, "authorization_header")
        let body = try inputString(body, "body")
        try auth.handlePing(authorization: header, body: Array(body.utf8))
    }
}

@c @implementation
public func telenorid_backchannel_auth_free(_ auth: OpaquePointer?) {
    release(auth)
}

@c @implementation
public func telenorid_login_hint_phone_number(
    _ e164: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let hint = try LoginHint.phoneNumber(try inputString(e164, "e164"))
        try writeString(hint, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_login_hint_ip_port(
    _ address: UnsafePointer<CChar>?, _ port: Int32, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let hint = try LoginHint.ipPort(address: try inputString(address, "address"), port: Int(port))
        try writeString(hint, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_login_hint_operator_token(
    _ token: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let hint = try LoginHint.operatorToken(try inputString(token, "token"))
        try writeString(hint, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_login_hint_get_form(_ hint: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int32>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let form =
            switch try LoginHint.form(of: try inputString(hint, "hint")) {
            case .phoneNumber: TELENORID_LOGIN_HINT_PHONE_NUMBER
            case .ipPort: TELENORID_LOGIN_HINT_IP_PORT
            case .operatorToken: TELENORID_LOGIN_HINT_OPERATOR_TOKEN
            }
        try outPointer(out).pointee = form
    }
}

@c @implementation
public func telenorid_backchannel_auth_wait(_ auth: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let auth = try borrow(auth, as: BackchannelAuthentication.self, "auth").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientAuthState(state: try auth.wait(), client: auth.client))
    }
}
