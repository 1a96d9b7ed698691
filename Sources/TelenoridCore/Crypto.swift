import COpenSSL

/// The little cryptography sign-in needs before any network call, from OpenSSL's libcrypto.
public enum Crypto {
    /// `count` bytes from OpenSSL's CSPRNG (seeded from the kernel's getrandom).
    public static func randomBytes(_ count: Int) throws(TelenoridError) -> [UInt8] {
        guard count >= 0, let length = Int32(exactly: count) else {
            throw TelenoridError(.invalidArgument, "random byte count \(count) out of range")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, length) }
        guard ok == 1 else { throw TelenoridError(.random, "the system random generator failed (RAND_bytes)") }
        return bytes
    }

    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, EVP_sha256(), size: 32)
    }

    /// The hash an OIDC `at_hash`/`c_hash` uses for a JWS algorithm (OIDC Core §3.1.3.6): the one of the
    /// algorithm's name, and SHA-512 for EdDSA with Ed25519.
    public static func digest(forJWSAlgorithm algorithm: String, _ data: some Collection<UInt8>) -> [UInt8]? {
        switch algorithm {
        case "RS256", "PS256", "ES256", "HS256": digest(data, EVP_sha256(), size: 32)
        case "RS384", "PS384", "ES384", "HS384": digest(data, EVP_sha384(), size: 48)
        case "RS512", "PS512", "ES512", "HS512", "EdDSA": digest(data, EVP_sha512(), size: 64)
        default: nil
        }
    }

    private static func digest(_ data: some Collection<UInt8>, _ type: OpaquePointer?, size: Int) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let input = Array(data)
        // EVP_Digest with a built-in hash cannot fail on valid pointers; a zero return would leave zeros,
        // which no comparison of a whole digest mistakes for a real one.
        _ = input.withUnsafeBufferPointer { inp in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(inp.baseAddress, inp.count, out.baseAddress, &length, type, nil)
            }
        }
        return digest
    }

    /// Compares in time that depends only on the lengths, so a callback's state can't be guessed byte by
    /// byte from response times.
    public static func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let left = Array(a), right = Array(b)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Overwrites memory in a way the optimizer may not drop.
    public static func wipe(_ pointer: UnsafeMutableRawPointer?, _ count: Int) {
        guard let pointer, count > 0 else { return }
        OPENSSL_cleanse(pointer, count)
    }
}

/// Bytes that hold a secret (a PKCE verifier, later tokens and keys): wiped when the last reference goes.
public final class SecretBytes: Sendable {
    // Immutable after init; `nonisolated(unsafe)` only so deinit can wipe the storage in place.
    nonisolated(unsafe) private var storage: [UInt8]

    public init(_ bytes: [UInt8]) { storage = bytes }

    public var string: String { String(decoding: storage, as: UTF8.self) }
    public var bytes: [UInt8] { storage }
    public var count: Int { storage.count }

    deinit {
        storage.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) }
    }
}
