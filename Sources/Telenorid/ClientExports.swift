import CTelenorid
import TelenoridCore

// The client: discovery, the effective configuration, and building (and pushing) authorization requests.

@c @implementation
public func telenorid_client_new(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try OIDCClient(configuration: configuration))
    }
}

@c @implementation
public func telenorid_client_discover(_ client: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        _ = try borrow(client, as: OIDCClient.self, "client").value.discover()
    }
}

@c @implementation
public func telenorid_client_config(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try client.effectiveConfiguration())
    }
}

@c @implementation
public func telenorid_client_free(_ client: OpaquePointer?) {
    release(client)
}

@c @implementation
public func telenorid_client_verify_id_token(
    _ client: OpaquePointer?, _ idToken: UnsafePointer<CChar>?,
    _ nonce: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let token = try inputString(idToken, "id_token")
        let expectedNonce = try optionalInputString(nonce, "nonce")
        let out = try outPointer(out)
        try writeString(client.verifyIDTokenJSON(token, nonce: expectedNonce), to: out)
    }
}

@c @implementation
public func telenorid_client_build_auth_request(
    _ client: OpaquePointer?, _ request: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try client.buildAuthorization(request.current))
    }
}
