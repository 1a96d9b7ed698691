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
        let alphabet = PKCE.alphabet
        let limit = UInt8(alphabet.count * 3)  // 198, the largest multiple of 66 below 256
        var chars = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            // A quarter more than needed: 198/256 of bytes are accepted, so one draw nearly always suffices.
            var random = try Crypto.randomBytes(length - filled + (length - filled) / 3 + 4)
            for byte in random where byte < limit && filled < length {
                chars[filled] = alphabet[Int(byte) % alphabet.count]
                filled += 1
            }
            random.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) }
        }
        try self.init(verifierBytes: chars)
        chars.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) }
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
        s256Challenge = Base64URL.encode(Crypto.sha256(verifierBytes))
    }

    public func challenge(_ method: Method) -> String {
        method == .s256 ? s256Challenge : verifier.string
    }

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
}
