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

    /// A verifier of `length` characters drawn as `withFresh` describes, written once into the storage
    /// SecretBytes wipes.
    public init(length: Int = PKCE.defaultLength) throws(TelenoridError) {
        try PKCE.checkLength(length)
        var drawn: PKCE?
        try Crypto.withRandomBytes(PKCE.randomByteCount(length: length)) { drawn = PKCE(length: length, random: $0) }
        // withRandomBytes returns only after running the closure, or throws.
        self = drawn!
    }

    /// A verifier of `length` (already checked) characters made from `random`, which holds at least
    /// `randomByteCount(length:)` bytes: for a caller that draws other secrets in the same system call.
    init(length: Int, random: UnsafeRawBufferPointer) {
        let verifier = SecretBytes(count: length) { PKCE.writeBase64URL(of: random, characters: length, into: $0) }
        self.verifier = verifier
        s256Challenge = verifier.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: PKCE.challengeLength) { PKCE.writeChallenge(of: bytes, into: $0) }
        }
    }

    public init(verifier: String) throws(TelenoridError) {
        // `Array(verifier.utf8)` becomes the verifier's storage (shared, not copied), which SecretBytes wipes.
        try self.init(verifier: SecretBytes(Array(verifier.utf8)))
    }

    /// A verifier already in wiping storage (a restored pending authorization's), kept as it is: no String
    /// holds it.
    public init(verifier: SecretBytes) throws(TelenoridError) {
        let valid = verifier.withUnsafeBytes { bytes in
            PKCE.lengthRange.contains(bytes.count) && bytes.allSatisfy(PercentEncoding.isUnreserved)
        }
        guard valid else {
            throw TelenoridError(
                .invalidArgument,
                "a PKCE verifier is 43 to 128 characters from A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")
        }
        self.verifier = verifier
        s256Challenge = verifier.withUnsafeBytes { bytes in
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
    /// The verifier is random bytes in base64url (RFC 7636 §4.1 recommends 32 bytes so encoded, 43
    /// characters), cut to `length`: 6 bits per character, each of the 64 equally likely, 258 bits at 43.
    @_optimize(speed)
    public static func withFresh(
        length: Int,
        _ body: (_ verifier: UnsafeBufferPointer<UInt8>, _ challenge: UnsafeBufferPointer<UInt8>) -> Void
    )
        throws(TelenoridError)
    {
        try checkLength(length)
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lengthRange.upperBound + challengeLength) {
            scratch throws(TelenoridError) in
            let verifier = UnsafeMutableBufferPointer(rebasing: scratch[..<length])
            defer { Crypto.wipe(verifier.baseAddress, length) }
            try Crypto.withRandomBytes(randomByteCount(length: length)) {
                writeBase64URL(of: $0, characters: length, into: verifier)
            }
            let challenge = UnsafeMutableBufferPointer(rebasing: scratch[length..<(length + challengeLength)])
            _ = writeChallenge(of: UnsafeRawBufferPointer(verifier), into: challenge)
            body(UnsafeBufferPointer(verifier), UnsafeBufferPointer(challenge))
        }
    }

    /// Random bytes for a verifier of `length` characters: three for every four characters, whole groups.
    static func randomByteCount(length: Int) -> Int { (length + 3) / 4 * 3 }

    /// Writes BASE64URL(SHA256(verifier)) (RFC 7636 §4.2; RFC 4648 §5, unpadded) into the first
    /// `challengeLength` bytes of `out` and returns that length. Here rather than through Base64URL so the
    /// digest goes from the stack straight into `out`, with no String in between.
    @inline(__always)
    static func writeChallenge(of verifier: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int
    {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { digest in
            Crypto.sha256(verifier, into: digest.baseAddress!)
            digest[32] = 0  // padding for the last group: 32 bytes are ten groups of 3 and one of 2
            writeBase64URL(of: UnsafeRawBufferPointer(digest), characters: challengeLength, into: out)
            return challengeLength
        }
    }

    /// Writes the first `characters` characters of BASE64URL(bytes) (RFC 4648 §5) into `out`; `bytes`
    /// holds at least `randomByteCount(length: characters)` bytes, whole groups of three.
    @inline(__always)
    static func writeBase64URL(
        of bytes: UnsafeRawBufferPointer, characters: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        base64URLAlphabet.withUnsafeBufferPointer { table in
            var i = 0, o = 0
            while o < characters {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = table[Int(v >> 18)]
                if o + 1 < characters { out[o + 1] = table[Int((v >> 12) & 63)] }
                if o + 2 < characters { out[o + 2] = table[Int((v >> 6) & 63)] }
                if o + 3 < characters { out[o + 3] = table[Int(v & 63)] }
                i += 3
                o += 4
            }
        }
    }

    static let base64URLAlphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
