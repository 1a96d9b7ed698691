import CTelenorid
import TelenoridCore

// The client: discovery and the effective configuration.

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
