import CTelenorid
import TelenoridCore

// Token exchange (RFC 8693): the request, the exchange, and what it issued.

@c @implementation
public func telenorid_token_exchange_new(
    _ subjectToken: UnsafePointer<CChar>?, _ subjectTokenType: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let token = try inputSecret(subjectToken, "subject_token")
        let type = try inputString(subjectTokenType, "subject_token_type")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try TokenExchangeRequest(subjectToken: token, subjectTokenType: type))
    }
}

@c @implementation
public func telenorid_token_exchange_set_actor(
    _ exchange: OpaquePointer?, _ actorToken: UnsafePointer<CChar>?, _ actorTokenType: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        let token = actorToken == nil ? nil : try inputSecret(actorToken, "actor_token")
        try exchange.setActor(token: token, type: try optionalInputString(actorTokenType, "actor_token_type"))
    }
}

@c @implementation
public func telenorid_token_exchange_add_resource(_ exchange: OpaquePointer?, _ uri: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        try exchange.addResource(try inputString(uri, "uri"))
    }
}

@c @implementation
public func telenorid_token_exchange_add_audience(_ exchange: OpaquePointer?, _ audience: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        try exchange.addAudience(try inputString(audience, "audience"))
    }
}

@c @implementation
public func telenorid_token_exchange_set_scope(_ exchange: OpaquePointer?, _ scope: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        try exchange.setScope(try optionalInputString(scope, "scope"))
    }
}

@c @implementation
public func telenorid_token_exchange_set_requested_token_type(
    _ exchange: OpaquePointer?, _ tokenType: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        try exchange.setRequestedTokenType(try optionalInputString(tokenType, "token_type"))
    }
}

@c @implementation
public func telenorid_token_exchange_free(_ exchange: OpaquePointer?) {
    release(exchange)
}

@c @implementation
public func telenorid_client_exchange_token(
    _ client: OpaquePointer?, _ exchange: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let exchange = try borrow(exchange, as: TokenExchangeRequest.self, "exchange").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try client.exchangeToken(exchange))
    }
}

@c @implementation
public func telenorid_issued_token_get(
    _ token: OpaquePointer?, _ field: telenorid_issued_token_field,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let token = try borrow(token, as: IssuedToken.self, "token").value
        let out = try outPointer(out)
        switch field {
        case TELENORID_ISSUED_TOKEN: try writeSecret(token.token, to: out)
        case TELENORID_ISSUED_TOKEN_TYPE: try writeString(token.issuedTokenType, to: out)
        case TELENORID_ISSUED_ACCESS_TOKEN_TYPE: try writeString(token.tokenType, to: out)
        case TELENORID_ISSUED_SCOPE: try writeString(token.scope, to: out)
        case TELENORID_ISSUED_REFRESH_TOKEN: try writeSecret(token.refreshToken, to: out)
        default: throw TelenoridError(.invalidArgument, "\(field) is no field of an issued token")
        }
    }
}

@c @implementation
public func telenorid_issued_token_expires_at(_ token: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let token = try borrow(token, as: IssuedToken.self, "token").value
        try outPointer(out).pointee = token.expiresAt ?? 0
    }
}

@c @implementation
public func telenorid_issued_token_auth_state(_ token: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let token = try borrow(token, as: IssuedToken.self, "token").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientAuthState(state: try token.authState(), client: token.client))
    }
}

@c @implementation
public func telenorid_issued_token_free(_ token: OpaquePointer?) {
    release(token)
}

// OpenID Connect Native SSO for Mobile Apps 1.0: a second app's sign-in from the first's.

@c @implementation
public func telenorid_client_native_sso(
    _ client: OpaquePointer?, _ idToken: UnsafePointer<CChar>?, _ deviceSecret: UnsafePointer<CChar>?,
    _ scope: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let idToken = try inputString(idToken, "id_token")
        let deviceSecret = try inputSecret(deviceSecret, "device_secret")
        let scope = try optionalInputString(scope, "scope")
        let out = try outPointer(out)
        let state = try client.nativeSSO(idToken: idToken, deviceSecret: deviceSecret, scope: scope)
        out.pointee = retainedHandle(ClientAuthState(state: state, client: client))
    }
}
