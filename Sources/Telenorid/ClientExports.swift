import CTelenorid
import TelenoridCore

// The client: discovery, the effective configuration, and building (and pushing) authorization requests.

@c @implementation
public func telenorid_client_new(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ConfigHandle.self, "config").configuration
        let out = try outPointer(out)
        out.pointee = retainedHandle(ClientHandle(try OIDCClient(configuration: configuration)))
    }
}

@c @implementation
public func telenorid_client_discover(_ client: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        _ = try borrow(client, as: ClientHandle.self, "client").client.discover()
    }
}

@c @implementation
public func telenorid_client_config(_ client: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(client, as: ClientHandle.self, "client")
        let out = try outPointer(out)
        out.pointee = retainedHandle(ConfigHandle(try handle.client.effectiveConfiguration()))
    }
}

@c @implementation
public func telenorid_client_free(_ client: OpaquePointer?) {
    release(client)
}

@c @implementation
public func telenorid_client_verify_id_token(_ client: OpaquePointer?, _ idToken: UnsafePointer<CChar>?,
                                             _ nonce: UnsafePointer<CChar>?,
                                             _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(client, as: ClientHandle.self, "client")
        let token = try inputString(idToken, "id_token")
        let expectedNonce = try optionalInputString(nonce, "nonce")
        let out = try outPointer(out)
        try writeString(handle.client.verifyIDTokenJSON(token, nonce: expectedNonce), to: out)
    }
}

@c @implementation
public func telenorid_client_build_auth_request(_ client: OpaquePointer?, _ request: OpaquePointer?,
                                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let clientHandle = try borrow(client, as: ClientHandle.self, "client")
        let requestHandle = try borrow(request, as: AuthRequestHandle.self, "request")
        let out = try outPointer(out)
        out.pointee = retainedHandle(PendingAuthHandle(try clientHandle.client.buildAuthorization(requestHandle.request.current)))
    }
}
