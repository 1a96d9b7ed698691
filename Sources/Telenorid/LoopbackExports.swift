import CTelenorid
import TelenoridCore

// The loopback redirect listener for desktop and command-line hosts (RFC 8252 §7.3).

@c @implementation
public func telenorid_loopback_listener_new(
    _ port: UInt16, _ path: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let path = try optionalInputString(path, "path") ?? "/callback"
        let out = try outPointer(out)
        out.pointee = retainedHandle(try LoopbackListener(port: port, path: path))
    }
}

@c @implementation
public func telenorid_loopback_listener_redirect_uri(
    _ listener: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let listener = try borrow(listener, as: LoopbackListener.self, "listener").value
        try writeString(listener.redirectURI, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_loopback_listener_wait(
    _ listener: OpaquePointer?, _ timeoutMS: Int32,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let listener = try borrow(listener, as: LoopbackListener.self, "listener").value
        let out = try outPointer(out)
        try writeString(try listener.waitForRedirect(timeoutMilliseconds: timeoutMS), to: out)
    }
}

@c @implementation
public func telenorid_loopback_listener_expect_state(_ listener: OpaquePointer?, _ state: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let listener = try borrow(listener, as: LoopbackListener.self, "listener").value
        try listener.expectState(try optionalInputString(state, "state"))
    }
}

@c @implementation
public func telenorid_loopback_listener_free(_ listener: OpaquePointer?) {
    release(listener)
}
