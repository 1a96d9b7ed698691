import COpenSSL

/// The little cryptography sign-in needs before any network call: the kernel's CSPRNG and OpenSSL's
/// digests.
public enum Crypto {
    /// `count` bytes from the kernel's CSPRNG (getrandom(2), which blocks only until the pool is first
    /// seeded at boot). Used directly rather than through OpenSSL's RAND_bytes, whose provider lookups
    /// cost several times the syscall on OpenSSL 3.0.
    public static func randomBytes(_ count: Int) throws(TelenoridError) -> [UInt8] {
        guard count >= 0, count <= 1 << 20 else {
            throw TelenoridError(.invalidArgument, "random byte count \(count) out of range")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { fillRandom($0) }
        guard filled else { throw TelenoridError(.random, "the system random generator failed (getrandom)") }
        return bytes
    }

    /// Runs `body` on `count` (at most 256) random bytes in temporary memory, wiped afterwards: a state,
    /// nonce or verifier drawn this way leaves no heap copy of its raw bytes behind.
    public static func withRandomBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(TelenoridError)
        -> R
    {
        let size = min(max(count, 0), 256)
        let result: R? = withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer in
            defer { wipe(buffer.baseAddress, buffer.count) }
            guard fillRandom(buffer) else { return nil }
            return body(UnsafeRawBufferPointer(buffer))
        }
        guard let result else { throw TelenoridError(.random, "the system random generator failed (getrandom)") }
        return result
    }

    /// Fills `buffer` from getrandom(2), retrying short reads and EINTR; false when the kernel refuses.
    private static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var filled = 0
        while filled < buffer.count {
            let got = getrandom(base + filled, buffer.count - filled, 0)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            filled += got
        }
        return true
    }

    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, Digests.sha256, size: 32)
    }

    /// BASE64URL(SHA-256(`data`)), the digest kept in temporary memory (an S256 PKCE challenge).
    public static func sha256Base64URL(_ data: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 1) { out in
            var length: UInt32 = 0
            // Cannot fail with a built-in hash and valid pointers (see digest(_:_:size:)).
            _ = EVP_Digest(data.baseAddress, data.count, out.baseAddress, &length, Digests.sha256.md, nil)
            return Base64URL.encode(UnsafeRawBufferPointer(out))
        }
    }

    /// SHA-256 of `data` into `out` (32 bytes) with the low-level SHA256_Init/Update/Final: on OpenSSL 3.0
    /// these take half the time of EVP_Digest with a prefetched digest, and a sixth of the one-shot
    /// SHA256(), which fetches the algorithm from the provider tables on every call. For short inputs
    /// hashed often (a PKCE verifier); they are deprecated in 3.0 but kept for exactly this.
    @inline(__always)
    public static func sha256(_ data: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) {
        var context = SHA256_CTX()
        // Cannot fail: the calls only fail on NULL pointers.
        _ = SHA256_Init(&context)
        _ = SHA256_Update(&context, data.baseAddress, data.count)
        _ = SHA256_Final(out.assumingMemoryBound(to: UInt8.self), &context)
        // The context's block buffer held the input (a secret verifier): leave no copy on the stack.
        withUnsafeMutableBytes(of: &context) { wipe($0.baseAddress, $0.count) }
    }

    /// The hash an OIDC `at_hash`/`c_hash` uses for a JWS algorithm (OIDC Core §3.1.3.6): the one of the
    /// algorithm's name, and SHA-512 for EdDSA with Ed25519.
    public static func digest(forJWSAlgorithm algorithm: String, _ data: some Collection<UInt8>) -> [UInt8]? {
        switch algorithm {
        case "RS256", "PS256", "ES256", "HS256": digest(data, Digests.sha256, size: 32)
        case "RS384", "PS384", "ES384", "HS384": digest(data, Digests.sha384, size: 48)
        case "RS512", "PS512", "ES512", "HS512", "EdDSA": digest(data, Digests.sha512, size: 64)
        default: nil
        }
    }

    private static func digest(_ data: some Collection<UInt8>, _ type: Digests.Handle, size: Int) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        // EVP_Digest with a built-in hash cannot fail on valid pointers; a zero return would leave zeros,
        // which no comparison of a whole digest mistakes for a real one.
        let hashed = data.withContiguousStorageIfAvailable { input in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, type.md, nil)
            }
        }
        if hashed == nil {
            let input = Array(data)
            _ = input.withUnsafeBufferPointer { inp in
                digest.withUnsafeMutableBufferPointer { out in
                    EVP_Digest(inp.baseAddress, inp.count, out.baseAddress, &length, type.md, nil)
                }
            }
        }
        return digest
    }

    /// Digest implementations fetched once: OpenSSL 3 otherwise looks the algorithm up in its provider
    /// tables, under a lock, on every EVP_Digest call.
    enum Digests {
        struct Handle: @unchecked Sendable {
            // EVP_MD objects are immutable after fetch and documented as shareable between threads.
            let md: OpaquePointer?
        }
        static let sha256 = Handle(md: EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256())
        static let sha384 = Handle(md: EVP_MD_fetch(nil, "SHA384", nil) ?? EVP_sha384())
        static let sha512 = Handle(md: EVP_MD_fetch(nil, "SHA512", nil) ?? EVP_sha512())
    }

    /// Compares in time that depends only on the lengths, so a callback's state can't be guessed byte by
    /// byte from response times.
    public static func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        // In place when both are contiguous (native strings' UTF-8 are): copying a UTF8View into an
        // array goes a code unit at a time.
        let inPlace = a.withContiguousStorageIfAvailable { left in
            b.withContiguousStorageIfAvailable { right in constantTimeEquals(left, right) }
        }
        if let inPlace, let result = inPlace { return result }
        return Array(a).withUnsafeBufferPointer { left in
            Array(b).withUnsafeBufferPointer { constantTimeEquals(left, $0) }
        }
    }

    private static func constantTimeEquals(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard left.count == right.count else { return false }
        guard left.count > 0 else { return true }
        return CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
    }

    /// Overwrites memory in a way the optimizer may not drop.
    public static func wipe(_ pointer: UnsafeMutableRawPointer?, _ count: Int) {
        guard let pointer, count > 0 else { return }
        OPENSSL_cleanse(pointer, count)
    }

    /// Wipes an array's elements in place (its storage, not a copy: the array is borrowed mutably).
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { wipe($0.baseAddress, $0.count) }
    }
}

/// Bytes that hold a secret (a PKCE verifier, later tokens and keys): wiped when the last reference goes.
public final class SecretBytes: Sendable {
    // Immutable after init; `nonisolated(unsafe)` only so deinit can wipe the storage in place.
    nonisolated(unsafe) private var storage: [UInt8]

    public init(_ bytes: [UInt8]) { storage = bytes }

    /// `count` bytes written by `fill` straight into the wiping storage, so a secret assembled from parts
    /// (a form body, an Authorization header value) never passes through a buffer nobody wipes.
    public init(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        storage = [UInt8](repeating: 0, count: count)
        storage.withUnsafeMutableBufferPointer { fill($0) }
    }

    public var string: String { String(decoding: storage, as: UTF8.self) }
    /// The bytes in place, for copying them out without a String in between.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { storage.withUnsafeBytes(body) }
    public var bytes: [UInt8] { storage }
    public var count: Int { storage.count }

    deinit {
        Crypto.wipe(&storage)
    }
}
