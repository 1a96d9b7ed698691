import CTelenorid
import TelenoridCore

// PKCE pairs (RFC 7636).

@c @implementation
public func telenorid_pkce_new(_ length: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let out = try outPointer(out)
        out.pointee = retainedHandle(PKCEHandle(try PKCE(length: length == 0 ? PKCE.defaultLength : length)))
    }
}

@c @implementation
public func telenorid_pkce_from_verifier(_ verifier: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let text = try inputString(verifier, "verifier")
        let out = try outPointer(out)
        out.pointee = retainedHandle(PKCEHandle(try PKCE(verifier: text)))
    }
}

@c @implementation
public func telenorid_pkce_verifier(_ pkce: OpaquePointer?,
                                    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(pkce, as: PKCEHandle.self, "pkce")
        try writeSecret(handle.pkce.verifier, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pkce_challenge(_ pkce: OpaquePointer?,
                                     _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(pkce, as: PKCEHandle.self, "pkce")
        try writeString(handle.pkce.s256Challenge, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pkce_free(_ pkce: OpaquePointer?) {
    release(pkce)
}
