/// Proof Key for Code Exchange (RFC 7636).
public struct PKCE: Sendable {
    public enum Method: Sendable, Equatable {
        case s256, plain
        public var name: String { self == .s256 ? "S256" : "plain" }
    }

    public static let lengthRange = 43...128
    public static let defaultLength = 64
    /// Characters in an S256 challenge: a 32-byte SHA-256 digest in unpadded base64url.
    public static let challengeLength = 43

    public let verifier: SecretBytes
    /// BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2.
    public let s256Challenge: String

    /// A verifier of `length` characters from the 66-character unreserved set, drawn as `withFresh`
    /// describes, copied once into the storage SecretBytes wipes.
    public init(length: Int = PKCE.defaultLength) throws(TelenoridError) {
        var fresh: (SecretBytes, String)?
        try PKCE.withFresh(length: length) { drawn, challenge in
            fresh = (SecretBytes(count: drawn.count) { _ = $0.update(fromContentsOf: drawn) },
                     String(unsafeUninitializedCapacity: challenge.count) { $0.update(fromContentsOf: challenge) })
        }
        // withFresh returns only after running the closure, or throws.
        (verifier, s256Challenge) = fresh!
    }

    public init(verifier: String) throws(TelenoridError) {
        let verifierBytes = Array(verifier.utf8)
        guard PKCE.lengthRange.contains(verifierBytes.count),
              verifierBytes.allSatisfy(PercentEncoding.isUnreserved) else {
            throw TelenoridError(.invalidArgument,
                                 "a PKCE verifier is 43 to 128 characters from A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")
        }
        // `verifierBytes` becomes the verifier's storage (shared, not copied), which SecretBytes wipes.
        self.verifier = SecretBytes(verifierBytes)
        s256Challenge = verifierBytes.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: PKCE.challengeLength) { PKCE.writeChallenge(of: bytes, into: $0) }
        }
    }

    public func challenge(_ method: Method) -> String {
        method == .s256 ? s256Challenge : verifier.string
    }

    public static func checkLength(_ length: Int) throws(TelenoridError) {
        guard lengthRange.contains(length) else {
            throw TelenoridError(.invalidArgument, "PKCE verifier length must be 43 to 128, not \(length)")
        }
    }

    /// Draws a verifier of `length` characters and computes its S256 challenge, both in temporary memory
    /// handed to `body`; the verifier's memory is wiped afterwards, so the only copies that last are the
    /// ones `body` makes. Nothing is allocated on the heap: hosts that want just the two strings
    /// (telenorid_pkce_generate) copy them straight into their own buffers. Not generic over a result:
    /// a generic one costs a runtime metadata lookup per call across the module boundary.
    ///
    /// Each character is drawn by rejection sampling from random bytes (bytes ≥ 198 are skipped) so every
    /// character is equally likely: 6.04 bits each, 386 bits for the default length.
    @_optimize(speed)
    public static func withFresh(length: Int,
                                 _ body: (_ verifier: UnsafeBufferPointer<UInt8>, _ challenge: UnsafeBufferPointer<UInt8>) -> Void)
        throws(TelenoridError) {
        try checkLength(length)
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lengthRange.upperBound + challengeLength) {
            scratch throws(TelenoridError) in
            let verifier = UnsafeMutableBufferPointer(rebasing: scratch[..<length])
            defer { Crypto.wipe(verifier.baseAddress, length) }
            var filled = 0
            while filled < length {
                // A third more than needed: 198/256 of bytes are accepted, so one draw nearly always suffices.
                let draw = min(length - filled + (length - filled) / 3 + 4, 256)
                filled = try Crypto.withRandomBytes(draw) { random in
                    characterOfByte.withUnsafeBufferPointer { table in
                        var index = filled
                        for byte in random where index < length {
                            let character = table[Int(byte)]
                            if character != 0 {
                                verifier[index] = character
                                index += 1
                            }
                        }
                        return index
                    }
                }
            }
            let challenge = UnsafeMutableBufferPointer(rebasing: scratch[length..<(length + challengeLength)])
            _ = writeChallenge(of: UnsafeRawBufferPointer(verifier), into: challenge)
            body(UnsafeBufferPointer(verifier), UnsafeBufferPointer(challenge))
        }
    }

    /// Writes BASE64URL(SHA256(verifier)) (RFC 7636 §4.2; RFC 4648 §5, unpadded) into the first
    /// `challengeLength` bytes of `out` and returns that length. Here rather than through Base64URL so the
    /// digest goes from the stack straight into `out`, with no String in between.
    @inline(__always)
    static func writeChallenge(of verifier: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { digest in
            Crypto.sha256(verifier, into: digest.baseAddress!)
            digest[32] = 0  // padding for the last group: 32 bytes are ten groups of 3 and one of 2
            base64URLAlphabet.withUnsafeBufferPointer { table in
                for group in 0..<11 {
                    let i = group * 3, o = group * 4
                    let v = UInt32(digest[i]) << 16 | UInt32(digest[i + 1]) << 8 | UInt32(digest[i + 2])
                    out[o] = table[Int(v >> 18)]
                    out[o + 1] = table[Int((v >> 12) & 63)]
                    out[o + 2] = table[Int((v >> 6) & 63)]
                    if group < 10 { out[o + 3] = table[Int(v & 63)] }
                }
            }
            return challengeLength
        }
    }

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    static let base64URLAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The verifier character a random byte draws, or 0 for a byte rejected: bytes below 198 (three
    /// times 66) map to `alphabet[byte % 66]`, so each character is equally likely.
    static let characterOfByte: [UInt8] = (0..<256).map { $0 < alphabet.count * 3 ? alphabet[$0 % alphabet.count] : 0 }
}
