import CTelenorid
import TelenoridCore

// A machine's own access token, kept and renewed: the client credentials grant (RFC 6749 §4.4) and the JWT
// bearer grant (RFC 7523 §2.1).

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
public func telenorid_client_credentials_add_resource(
    _ credentials: OpaquePointer?, _ uri: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        try credentials.addResource(try inputString(uri, "uri"))
    }
}

@c @implementation
public func telenorid_client_credentials_new_jwt_bearer(
    _ client: OpaquePointer?, _ scope: UnsafePointer<CChar>?, _ subject: UnsafePointer<CChar>?,
    _ assertion: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let scope = try optionalInputString(scope, "scope")
        let grant: ClientCredentials.Grant
        switch (subject, assertion) {
        case (let subject?, nil): grant = .signedAssertion(subject: try inputString(subject, "subject"))
        case (nil, let assertion?): grant = .givenAssertion(try inputSecret(assertion, "assertion"))
        default:
            throw TelenoridError(
                .invalidArgument, "give exactly one of subject and assertion (both are NULL or both set)")
        }
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientCredentials(client: client, grant: grant, scope: scope))
    }
}

@c @implementation
public func telenorid_client_credentials_request_headers(
    _ credentials: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ url: UnsafePointer<CChar>?, _ resourceNonce: UnsafePointer<CChar>?,
    _ authorization: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ dpop: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        let method = try inputString(method, "method")
        let url = try inputString(url, "url")
        let nonce = try optionalInputString(resourceNonce, "resource_nonce")
        let authorizationOut = try outPointer(authorization)
        let dpopOut = try outPointer(dpop)
        let headers = try credentials.requestHeaders(method: method, url: url, resourceNonce: nonce)
        try writeHeaders(headers, authorization: authorizationOut, dpop: dpopOut)
    }
}

@c @implementation
public func telenorid_client_credentials_resource_answered(
    _ credentials: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ httpStatus: Int32,
    _ wwwAuthenticate: UnsafePointer<CChar>?, _ dpopNonce: UnsafePointer<CChar>?,
    _ authorizationSent: UnsafePointer<CChar>?, _ retry: UnsafeMutablePointer<Int32>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        try readResourceAnswer(url, httpStatus, wwwAuthenticate, dpopNonce, authorizationSent, retry) {
            credentials.resourceAnswered(
                url: $0, status: $1, wwwAuthenticate: $2, dpopNonce: $3, authorizationSent: $4)
        }
    }
}

@c @implementation
public func telenorid_client_credentials_bind_store(
    _ credentials: OpaquePointer?, _ store: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let credentials = try borrow(credentials, as: ClientCredentials.self, "credentials").value
        let store = try borrow(store, as: RecordStore.self, "store").value
        try credentials.bind(
            to: try store.authStateStore(
                key: try inputString(key, "key"),
                lockTimeoutMilliseconds: credentials.client.configuration.http.totalTimeoutMilliseconds))
    }
}

@c @implementation
public func telenorid_client_credentials_free(_ credentials: OpaquePointer?) {
    release(credentials)
}
