/// Proof Key for Code Exchange (RFC 7636).
public struct PKCE: Sendable {
    public enum Method: Sendable, Equatable {
        case s256, plain
        public var name: String { self == .s256 ? "S256" : "plain" }
    }

    public static let lengthRange = 43...128
    public static let defaultLength = 64

    public let verifier: SecretBytes
    /// BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2.
    public let s256Challenge: String

    /// A verifier of `length` characters from the 66-character unreserved set. Each character is drawn
    /// by rejection sampling from random bytes (bytes ≥ 198 are skipped) so every character is equally
    /// likely: 6.04 bits each, 386 bits for the default length.
    public init(length: Int = PKCE.defaultLength) throws(TelenoridError) {
        guard PKCE.lengthRange.contains(length) else {
            throw TelenoridError(.invalidArgument, "PKCE verifier length must be 43 to 128, not \(length)")
        }
        var chars = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            // A third more than needed: 198/256 of bytes are accepted, so one draw nearly always suffices.
            let draw = min(length - filled + (length - filled) / 3 + 4, 256)
            filled = try Crypto.withRandomBytes(draw) { random in
                chars.withUnsafeMutableBufferPointer { out in
                    PKCE.characterOfByte.withUnsafeBufferPointer { table in
                        var index = filled
                        for byte in random where index < out.count {
                            let character = table[Int(byte)]
                            if character != 0 {
                                out[index] = character
                                index += 1
                            }
                        }
                        return index
                    }
                }
            }
        }
        // `chars` becomes the verifier's storage (shared, not copied), which SecretBytes wipes when freed.
        try self.init(verifierBytes: chars)
    }

    public init(verifier: String) throws(TelenoridError) {
        try self.init(verifierBytes: Array(verifier.utf8))
    }

    private init(verifierBytes: [UInt8]) throws(TelenoridError) {
        guard PKCE.lengthRange.contains(verifierBytes.count),
              verifierBytes.allSatisfy(PercentEncoding.isUnreserved) else {
            throw TelenoridError(.invalidArgument,
                                 "a PKCE verifier is 43 to 128 characters from A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")
        }
        verifier = SecretBytes(verifierBytes)
        s256Challenge = verifierBytes.withUnsafeBytes { Crypto.sha256Base64URL($0) }
    }

    public func challenge(_ method: Method) -> String {
        method == .s256 ? s256Challenge : verifier.string
    }

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// The verifier character a random byte draws, or 0 for a byte rejected: bytes below 198 (three
    /// times 66) map to `alphabet[byte % 66]`, so each character is equally likely.
    static let characterOfByte: [UInt8] = (0..<256).map { $0 < alphabet.count * 3 ? alphabet[$0 % alphabet.count] : 0 }
}
