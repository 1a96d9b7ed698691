import CTelenorid
import TelenoridCore

// The client credentials grant (RFC 6749 §4.4): a machine's own access token, kept and renewed.

@c @implementation
public func telenorid_client_credentials_new(
    _ client: OpaquePointer?, _ scope: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let scope = try optionalInputString(scope, "scope")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientCredentials(client: client, scope: scope))
    }
}

@c @implementation
public func telenorid_client_credentials_access_token(
    _ credentials: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        let out = try outPointer(out)
        try writeSecret(try credentials.freshTokens().accessToken, to: out)
    }
}

@c @implementation
public func telenorid_client_credentials_expires_at(
    _ credentials: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        try outPointer(out).pointee = credentials.expiresAt ?? 0
    }
}

@c @implementation
public func telenorid_client_credentials_rejected(
    _ credentials: OpaquePointer?, _ accessToken: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        credentials.accessTokenRejected(accessToken == nil ? nil : try inputSecret(accessToken, "access_token"))
    }
}

@c @implementation
public func telenorid_client_credentials_free(_ credentials: OpaquePointer?) {
    release(credentials)
}
