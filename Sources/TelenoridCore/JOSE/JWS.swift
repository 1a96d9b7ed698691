import COpenSSL

/// A JWS in compact serialization (RFC 7515 §7.1), parsed but not yet verified.
public struct JWS: Sendable {
    public static let maxLength = 64 * 1024

    public let header: JSONObject
    public let algorithm: String
    public let keyID: String?
    /// The decoded header text, as the token carried it.
    let headerBytes: [UInt8]
    /// The signing input, the signature and the payload: together they give the token back.
    let signingInput: Kept
    let signature: Kept
    let payloadBytes: Kept

    /// The decoded payload. Of a token parsed from wiping storage this is that storage (which the payload
    /// fills), not a copy: read it, don't keep it.
    public var payload: [UInt8] {
        switch payloadBytes {
        case .plain(let bytes): bytes
        case .wiped(let secret, _): secret.bytes
        }
    }

    /// Where a parsed JWS keeps the bytes that give its token back: plain arrays for a token that is no
    /// credential (an ID token, a DPoP proof, a logout token), wiping storage for one that is (a JWT access
    /// token, RFC 9068: a bearer token, RFC 6750 §5.2), so that no copy of it outlives the JWS.
    enum Kept: Sendable {
        case plain([UInt8])
        /// The first `count` bytes of wiping storage: the token's own bytes for its signing input, decoded
        /// bytes written there for the others.
        case wiped(SecretBytes, count: Int)

        /// `bytes` taken into wiping storage (the array's own buffer, not a copy), or as they are.
        init(_ bytes: [UInt8], wiping: Bool) {
            let count = bytes.count
            self = wiping ? .wiped(SecretBytes(bytes), count: count) : .plain(bytes)
        }

        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch self {
            case .plain(let bytes): bytes.withUnsafeBytes(body)
            case .wiped(let secret, let count):
                secret.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            }
        }

        var isWiped: Bool {
            if case .wiped = self { true } else { false }
        }
    }

    public init(compact text: String) throws(TelenoridError) {
        var text = text
        // Native strings are contiguous already; this copies only a bridged or foreign one.
        try self.init(
            parts: try text.withUTF8 { bytes in
                Result { () throws(TelenoridError) in try JWS.split(UnsafeRawBufferPointer(bytes), credential: nil) }
            }.get())
    }

    /// A token that is a credential (a JWT access token, RFC 9068), parsed from its wiping storage in place:
    /// its text is never copied into a String or an array nobody wipes. The JWS keeps its signing input as
    /// a part of that storage, and its payload and signature decoded into wiping storage of their own.
    public init(compact token: SecretBytes) throws(TelenoridError) {
        try self.init(
            parts: try token.withUnsafeBytes { bytes in
                Result { () throws(TelenoridError) in try JWS.split(bytes, credential: token) }
            }.get())
    }

    private init(parts: Parts) throws(TelenoridError) {
        let headerBytes = parts.header
        let parsed: JSONValue
        do { parsed = try JSON.parse(headerBytes, limits: JSONLimits(maxDepth: 8)) } catch {
            throw TelenoridError(.tokenInvalid, "token header is not valid JSON: \(error.message)")
        }
        guard let header = parsed.objectValue, let algorithm = header["alg"]?.stringValue else {
            throw TelenoridError(.tokenInvalid, "token header is not an object with an alg")
        }
        // RFC 7515 §4.1.11: an extension the recipient does not understand makes the JWS invalid.
        if header["crit"] != nil {
            throw TelenoridError(.tokenInvalid, "token header has crit extensions this client does not understand")
        }
        if let kid = header["kid"], kid.stringValue == nil {
            throw TelenoridError(.tokenInvalid, "token header's kid is not a string")
        }
        self.header = header
        self.algorithm = algorithm
        keyID = header["kid"]?.stringValue
        self.headerBytes = headerBytes
        payloadBytes = parts.payload
        signature = parts.signature
        signingInput = parts.signingInput
    }

    private typealias Parts = (header: [UInt8], payload: Kept, signature: Kept, signingInput: Kept)

    /// The decoded payload of a compact JWS, unverified: for a token validated earlier and kept, whose
    /// claims are read from it again rather than stored twice. Nil when it is not three base64url parts.
    public static func payload(ofCompact token: String) -> [UInt8]? {
        var token = token
        return token.withUTF8 { bytes -> [UInt8]? in
            guard let parts = try? split(UnsafeRawBufferPointer(bytes), credential: nil),
                case .plain(let payload) = parts.payload
            else { return nil }
            return payload
        }
    }

    /// The three parts of the compact serialization, decoded straight from the token's bytes, and the
    /// signing input (RFC 7515 §5.2: the first two parts as they were sent). Of a `credential`, whose bytes
    /// these are, the signing input is kept as the prefix of its storage and the payload and signature
    /// in wiping storage; the header, which alone gives nothing of the token back, stays plain for the
    /// parser.
    private static func split(_ bytes: UnsafeRawBufferPointer, credential: SecretBytes?) throws(TelenoridError)
        -> Parts
    {
        guard bytes.count <= JWS.maxLength else {
            throw TelenoridError(.tokenInvalid, "token longer than \(JWS.maxLength) bytes")
        }
        // memchr rather than a generic index search: the token is scanned whole, on every validation.
        func dot(from start: Int) -> Int? {
            guard let base = bytes.baseAddress, start < bytes.count,
                let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - base
        }
        guard let first = dot(from: 0), let second = dot(from: first + 1), dot(from: second + 1) == nil else {
            throw TelenoridError(.tokenInvalid, "token is not a compact JWS (three parts)")
        }
        func part(_ range: Range<Int>) -> [UInt8]? { Base64URL.decode(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        let wiping = credential != nil
        // Each part is taken into its storage as soon as it is decoded, so one that fails wipes the others.
        guard let header = part(0..<first), let payload = part((first + 1)..<second).map({ Kept($0, wiping: wiping) }),
            let signature = part((second + 1)..<bytes.count).map({ Kept($0, wiping: wiping) })
        else {
            throw TelenoridError(.tokenInvalid, "token part is not base64url")
        }
        let signingInput =
            credential.map { Kept.wiped($0, count: second) }
            ?? .plain(Array(UnsafeRawBufferPointer(rebasing: bytes[..<second])))
        return (header, payload, signature, signingInput)
    }

    /// Verifies with a provider key; the key must fit the algorithm (no RSA key for ES256, and never a
    /// public key as an HMAC secret: HMAC has its own entry point).
    public func verify(with key: JWK) throws(TelenoridError) {
        guard key.canVerify(algorithm: algorithm) else {
            throw TelenoridError(
                .tokenInvalid,
                "key \(DisplayText.escaping(key.keyID ?? "")) can't verify \(DisplayText.escaping(algorithm))")
        }
        guard let spec = JWS.asymmetric[algorithm] else {
            throw TelenoridError(.tokenInvalid, "algorithm \(DisplayText.escaping(algorithm)) is not accepted")
        }
        var signature = self.signature
        if let size = spec.ecSize {
            guard let der = signature.withUnsafeBytes({ JWS.derSignature(raw: $0, coordinateSize: size) }) else {
                throw TelenoridError(.tokenInvalid, "\(algorithm) signature is not \(2 * size) bytes")
            }
            // The same r and s: kept as the signature is.
            signature = Kept(der, wiping: signature.isWiped)
        }
        let verified: Int32
        if let md = JWS.digestHandle(spec.digest),
            let digest = signingInput.withUnsafeBytes({ Crypto.digest(forJWSAlgorithm: algorithm, $0) })
        {
            // RSA and ECDSA sign a digest: hash once, then verify with the key's context already set up for
            // this algorithm, instead of building and initialising a digest-verify context every time.
            let prepare = { (context: OpaquePointer) -> Bool in
                guard EVP_PKEY_verify_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, md.md) == 1 else {
                    return false
                }
                // RFC 7518 §3.5: MGF1 with the same hash (OpenSSL's default once the digest is set), and a
                // salt as long as the digest.
                return !spec.pss
                    || (EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1
                        && EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST) == 1)
            }
            guard
                let result = key.key.withVerifier(
                    for: algorithm, prepare: prepare,
                    { context in
                        signature.withUnsafeBytes { sig in
                            digest.withUnsafeBufferPointer {
                                EVP_PKEY_verify(
                                    context, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), sig.count,
                                    $0.baseAddress, $0.count)
                            }
                        }
                    })
            else { throw TelenoridError(.tokenInvalid, "\(algorithm) verification could not start") }
            verified = result
        } else {
            // EdDSA (RFC 8037 §3.1) signs the message itself, in one pass.
            guard let context = EVP_MD_CTX_new() else { throw TelenoridError(.tokenInvalid, "out of memory") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit_ex(context, nil, nil, nil, nil, key.key.pointer, nil) == 1 else {
                throw TelenoridError(.tokenInvalid, "\(algorithm) verification could not start")
            }
            verified = signature.withUnsafeBytes { sig in
                signingInput.withUnsafeBytes { input in
                    EVP_DigestVerify(
                        context, sig.baseAddress?.assumingMemoryBound(to: UInt8.self), sig.count,
                        input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
                }
            }
        }
        guard verified == 1 else { throw TelenoridError(.tokenInvalid, "token signature does not verify") }
    }

    /// The fetched hash a Spec names.
    private static func digestHandle(_ name: String?) -> Crypto.Digests.Handle? {
        switch name {
        case "SHA256": Crypto.Digests.sha256
        case "SHA384": Crypto.Digests.sha384
        case "SHA512": Crypto.Digests.sha512
        default: nil
        }
    }

    /// Verifies an HS256/384/512 token with a shared secret (a client secret), in constant time.
    public func verify(hmacSecret secret: [UInt8]) throws(TelenoridError) {
        guard let expected = signingInput.withUnsafeBytes({ JWS.hmac(algorithm, secret: secret, data: $0) }) else {
            throw TelenoridError(.tokenInvalid, "algorithm \(DisplayText.escaping(algorithm)) is not an HMAC algorithm")
        }
        guard signature.withUnsafeBytes({ Crypto.constantTimeEquals(expected, $0) }) else {
            throw TelenoridError(.tokenInvalid, "token signature does not verify")
        }
    }

    struct Spec {
        let digest: String?
        let pss: Bool
        let ecSize: Int?
    }

    static let asymmetric: [String: Spec] = [
        "RS256": Spec(digest: "SHA256", pss: false, ecSize: nil),
        "RS384": Spec(digest: "SHA384", pss: false, ecSize: nil),
        "RS512": Spec(digest: "SHA512", pss: false, ecSize: nil),
        "PS256": Spec(digest: "SHA256", pss: true, ecSize: nil),
        "PS384": Spec(digest: "SHA384", pss: true, ecSize: nil),
        "PS512": Spec(digest: "SHA512", pss: true, ecSize: nil),
        "ES256": Spec(digest: "SHA256", pss: false, ecSize: 32),
        "ES384": Spec(digest: "SHA384", pss: false, ecSize: 48),
        "ES512": Spec(digest: "SHA512", pss: false, ecSize: 66), "EdDSA": Spec(digest: nil, pss: false, ecSize: nil)
    ]

    static func hmac(_ algorithm: String, secret: [UInt8], data: [UInt8]) -> [UInt8]? {
        data.withUnsafeBytes { hmac(algorithm, secret: secret, data: $0) }
    }

    static func hmac(_ algorithm: String, secret: [UInt8], data: UnsafeRawBufferPointer) -> [UInt8]? {
        let md: OpaquePointer?
        switch algorithm {
        case "HS256": md = EVP_sha256()
        case "HS384": md = EVP_sha384()
        case "HS512": md = EVP_sha512()
        default: return nil
        }
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let done = secret.withUnsafeBufferPointer { key in
            out.withUnsafeMutableBufferPointer {
                HMAC(
                    md, key.baseAddress, Int32(truncatingIfNeeded: key.count),
                    data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, $0.baseAddress, &length)
            }
        }
        guard done != nil else { return nil }
        return Array(out.prefix(Int(length)))
    }

    /// JOSE's r||s (RFC 7518 §3.4) as the DER ECDSA-Sig-Value OpenSSL verifies. OpenSSL's copies are
    /// cleared as they are freed (ECDSA_SIG_free clears r and s): a credential's signature is wiped too.
    static func derSignature(raw: UnsafeRawBufferPointer, coordinateSize: Int) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize, let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let sig = ECDSA_SIG_new()
        else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let size = Int32(coordinateSize)
        let r = BN_bin2bn(base, size, nil), s = BN_bin2bn(base + coordinateSize, size, nil)
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else { BN_clear_free(r); BN_clear_free(s); return nil }
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(sig, &der)
        guard length > 0, let der else { return nil }
        defer { CRYPTO_clear_free(der, Int(length), #file, #line) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }
}
