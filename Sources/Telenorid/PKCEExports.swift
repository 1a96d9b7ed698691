import CTelenorid
import TelenoridCore

// PKCE pairs (RFC 7636).

@c @implementation
public func telenorid_pkce_new(_ length: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let out = try outPointer(out)
        out.pointee = retainedHandle(try PKCE(length: length == 0 ? PKCE.defaultLength : length))
    }
}

@c @implementation
public func telenorid_pkce_from_verifier(
    _ verifier: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let text = try inputString(verifier, "verifier")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try PKCE(verifier: text))
    }
}

@c @implementation
public func telenorid_pkce_verifier(
    _ pkce: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pkce = try borrow(pkce, as: PKCE.self, "pkce").value
        try writeSecret(pkce.verifier, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pkce_challenge(
    _ pkce: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pkce = try borrow(pkce, as: PKCE.self, "pkce").value
        try writeString(pkce.s256Challenge, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pkce_free(_ pkce: OpaquePointer?) {
    release(pkce)
}

/// The one-call form: the pair drawn in the library's scratch memory (wiped) and copied into the caller's
/// buffers, with no handle and no heap allocation. Every check comes first, so a failure writes nothing.
@c @implementation
public func telenorid_pkce_generate(
    _ length: Int, _ verifier: UnsafeMutablePointer<CChar>?, _ verifierSize: Int,
    _ challenge: UnsafeMutablePointer<CChar>?, _ challengeSize: Int
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let length = length == 0 ? PKCE.defaultLength : length
        try PKCE.checkLength(length)
        guard let verifier, let challenge else {
            throw TelenoridError(.invalidArgument, "the verifier and challenge buffers must not be NULL")
        }
        guard verifierSize > length, challengeSize > PKCE.challengeLength else {
            throw TelenoridError(
                .invalidArgument,
                "a verifier of \(length) characters and its challenge need buffers of "
                    + "\(length + 1) and \(PKCE.challengeLength + 1) bytes, not \(verifierSize) and \(challengeSize)")
        }
        try PKCE.withFresh(length: length) { drawn, encoded in
            verifier.withMemoryRebound(to: UInt8.self, capacity: verifierSize) { out in
                ByteCopy.copy(drawn, to: out)
                out[drawn.count] = 0
            }
            challenge.withMemoryRebound(to: UInt8.self, capacity: challengeSize) { out in
                ByteCopy.copy(encoded, to: out)
                out[encoded.count] = 0
            }
        }
    }
}
