import CTelenorid
import TelenoridCore

// Line authentication through Aloha: the authenticator handle, the host's socket hook, and applying the
// session to an authorization request.

/// The host's C function and its pointer. The header makes the host responsible for `user` staying
/// valid and for the function being callable from the exchange's thread, which is why it may be sent.
private struct CSocketHook: @unchecked Sendable {
    let function: telenorid_socket_hook
    let user: UnsafeMutableRawPointer?

    func decide(_ fd: Int32) -> SocketHook.Verdict {
        switch HostCallbackDepth.around({ function(user, fd) }) {
        case TELENORID_SOCKET_ALLOW: .allow
        case TELENORID_SOCKET_NOT_CELLULAR: .notCellular
        default: .refuse
        }
    }
}

@c @implementation
public func telenorid_line_authenticator_new(_ config: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        let out = try outPointer(out)
        out.pointee = retainedHandle(try LineAuthenticator(configuration: configuration))
    }
}

@c @implementation
public func telenorid_line_authenticator_set_socket_hook(
    _ lineAuth: OpaquePointer?, _ hook: telenorid_socket_hook?,
    _ userData: UnsafeMutableRawPointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authenticator = try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value
        guard let hook else { return authenticator.setSocketHook(nil) }
        let host = CSocketHook(function: hook, user: userData)
        authenticator.setSocketHook(SocketHook { fd in host.decide(fd) })
    }
}

@c @implementation
public func telenorid_line_authenticator_run(_ lineAuth: OpaquePointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value.run()
    }
}

@c @implementation
public func telenorid_line_authenticator_valid_for(_ lineAuth: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let authenticator = try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value
        let out = try outPointer(out)
        out.pointee = authenticator.validFor
    }
}

@c @implementation
public func telenorid_line_authenticator_apply(_ lineAuth: OpaquePointer?, _ request: OpaquePointer?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let authenticator = try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value
        try borrow(request, as: SharedAuthorizationRequest.self, "request").value.applyLineAuthentication(authenticator)
    }
}

@c @implementation
public func telenorid_line_authenticator_free(_ lineAuth: OpaquePointer?) {
    release(lineAuth)
}

/// The host's resolver function and its pointer; sendable on the same terms as `CSocketHook`.
private struct CHostResolver: @unchecked Sendable {
    let function: telenorid_host_resolver
    let user: UnsafeMutableRawPointer?

    /// The buffer the host writes its answer into, NUL included (TELENORID_RESOLVER_ANSWER_MAX).
    static let capacity = Int(TELENORID_RESOLVER_ANSWER_MAX)

    func resolve(_ host: String, _ port: Int) -> HostResolver.Answer {
        guard let port = Int32(exactly: port) else { return .refuse }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: CHostResolver.capacity)
        buffer.initialize(repeating: 0, count: CHostResolver.capacity)
        defer { buffer.deallocate() }
        let verdict = host.withCString { name in
            HostCallbackDepth.around({ function(user, name, port, buffer, CHostResolver.capacity) })
        }
        switch verdict {
        case TELENORID_SOCKET_ALLOW:
            // Whatever the host wrote, the answer ends within the buffer.
            buffer[CHostResolver.capacity - 1] = 0
            var length = 0
            while buffer[length] != 0 { length += 1 }  // stops at the NUL written above at the latest
            // Not UTF-8 decodes to U+FFFD, which the core then refuses as not an address.
            return .addresses(String(decoding: UnsafeBufferPointer(start: buffer, count: length), as: UTF8.self))
        case TELENORID_SOCKET_NOT_CELLULAR: return .notCellular
        default: return .refuse
        }
    }
}

@c @implementation
public func telenorid_line_authenticator_set_resolver(
    _ lineAuth: OpaquePointer?, _ resolver: telenorid_host_resolver?,
    _ userData: UnsafeMutableRawPointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authenticator = try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value
        guard let resolver else { return try authenticator.setResolver(nil) }
        let host = CHostResolver(function: resolver, user: userData)
        try authenticator.setResolver(HostResolver { name, port in host.resolve(name, port) })
    }
}

@c @implementation
public func telenorid_line_authenticator_set_margin(_ lineAuth: OpaquePointer?, _ seconds: Int64) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try borrow(lineAuth, as: LineAuthenticator.self, "line_auth").value.setMargin(seconds: seconds)
    }
}
