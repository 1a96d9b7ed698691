import COpenSSL

/// A key as OpenSSL holds it, freed with its owner.
final class PKey: @unchecked Sendable {
    // EVP_PKEY is reference-counted and safe to use from several threads for verification.
    let pointer: OpaquePointer

    /// A verification context set up for one algorithm, not in use.
    private struct Verifier: @unchecked Sendable {
        let algorithm: String
        // Only ever used by the thread that took it out of `idle`.
        let context: OpaquePointer
    }
    /// Contexts kept between verifications: setting one up (provider lookups, the verify operation's
    /// state) costs as much as all of an ID token's claim checks, and a cached key verifies token after
    /// token. An EVP_PKEY_CTX must not be used by two threads at once, so a verification takes one out
    /// under the lock and puts it back after; threads that find none set up their own.
    private let idle = Locked<[Verifier]>([])
    /// More than this many threads verifying with one key at once leave their extra contexts unkept.
    private static let maxIdle = 8

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit {
        idle.withLock { $0.forEach { EVP_PKEY_CTX_free($0.context) } }
        EVP_PKEY_free(pointer)
    }

    /// Runs `body` with a context for this key that `prepare` has set up for `algorithm` (once, when the
    /// context was made); nil when no context could be set up.
    func withVerifier<R>(for algorithm: String, prepare: (OpaquePointer) -> Bool, _ body: (OpaquePointer) -> R) -> R? {
        let reused = idle.withLock { list -> OpaquePointer? in
            guard let index = list.lastIndex(where: { $0.algorithm == algorithm }) else { return nil }
            return list.remove(at: index).context
        }
        let context: OpaquePointer
        if let reused {
            context = reused
        } else {
            guard let fresh = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { return nil }
            guard prepare(fresh) else { EVP_PKEY_CTX_free(fresh); return nil }
            context = fresh
        }
        let result = body(context)
        let kept = idle.withLock { list -> Bool in
            guard list.count < PKey.maxIdle else { return false }
            list.append(Verifier(algorithm: algorithm, context: context))
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
        return result
    }
}

/// A public JSON Web Key (RFC 7517) usable for signature verification: RSA (RFC 7518 §6.3), EC P-256,
/// P-384, P-521 (§6.2) or Ed25519 (RFC 8037).
public struct JWK: Sendable {
    public enum KeyType: Sendable, Equatable { case rsa, ec(curve: String), ed25519 }

    public let keyType: KeyType
    public let keyID: String?
    public let algorithm: String?
    public let use: String?
    let key: PKey

    public init(_ object: JSONObject) throws(TelenoridError) {
        func string(_ name: String) throws(TelenoridError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.invalidResponse, "JWK member \(name) is not a string")
            }
            return text
        }
        func bytes(_ name: String) throws(TelenoridError) -> [UInt8] {
            guard let text = try string(name), let decoded = Base64URL.decode(text), !decoded.isEmpty else {
                throw TelenoridError(.invalidResponse, "JWK member \(name) is missing or not base64url")
            }
            return decoded
        }
        keyID = try string("kid")
        algorithm = try string("alg")
        use = try string("use")
        guard object["d"] == nil else {
            throw TelenoridError(.invalidResponse, "a provider's key set must not hold private keys")
        }
        switch try string("kty") {
        case "RSA":
            // RFC 7518 §3.3 asks for 2048 bits at least. Counted in bits, not bytes: a 256-byte modulus whose
            // top byte is under 0x80 is a 2041-2047-bit key.
            let modulus = Array(try bytes("n").drop { $0 == 0 })
            guard let top = modulus.first, modulus.count * 8 - top.leadingZeroBitCount >= 2048 else {
                throw TelenoridError(.invalidResponse, "RSA keys under 2048 bits are refused")
            }
            // With e = 1 every message is its own signature, so anyone could sign; an even e is no RSA key.
            let exponent = Array(try bytes("e").drop { $0 == 0 })
            guard let low = exponent.last, low & 1 == 1, exponent.count > 1 || low >= 3 else {
                throw TelenoridError(.invalidResponse, "RSA public exponent must be odd and at least 3")
            }
            keyType = .rsa
            key = try JWK.rsaKey(modulus: modulus, exponent: exponent)
        case "EC":
            guard let curve = try string("crv"), let size = JWK.coordinateSize[curve] else {
                throw TelenoridError(
                    .unsupported, "EC curve \(DisplayText.escaping((try? string("crv")) ?? "none")) is not supported")
            }
            let x = try bytes("x"), y = try bytes("y")
            guard x.count == size, y.count == size else {
                throw TelenoridError(.invalidResponse, "EC key coordinates are not \(size) bytes for \(curve)")
            }
            keyType = .ec(curve: curve)
            key = try JWK.ecKey(curve: curve, point: [0x04] + x + y)
        case "OKP":
            guard try string("crv") == "Ed25519" else {
                throw TelenoridError(.unsupported, "only the Ed25519 OKP curve is supported")
            }
            let x = try bytes("x")
            guard x.count == 32, !JWK.hasSmallOrder(ed25519: x),
                let pkey = x.withUnsafeBufferPointer({
                    EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32)
                })
            else {
                throw TelenoridError(.invalidResponse, "Ed25519 key is not 32 bytes encoding a point of large order")
            }
            keyType = .ed25519
            key = PKey(pkey)
        case let other:
            throw TelenoridError(.unsupported, "key type \(DisplayText.escaping(other ?? "none")) is not supported")
        }
    }

    /// Whether this key may verify a signature made with `algorithm`: its type must fit, and its own
    /// `alg` and `use`, when given, must agree.
    public func canVerify(algorithm name: String) -> Bool {
        if let algorithm, algorithm != name { return false }
        if let use, use != "sig" { return false }
        switch (keyType, name) {
        case (.rsa, "RS256"), (.rsa, "RS384"), (.rsa, "RS512"), (.rsa, "PS256"), (.rsa, "PS384"), (.rsa, "PS512"):
            return true
        case (.ec("P-256"), "ES256"), (.ec("P-384"), "ES384"), (.ec("P-521"), "ES512"): return true
        case (.ed25519, "EdDSA"): return true
        default: return false
        }
    }

    static let coordinateSize = ["P-256": 32, "P-384": 48, "P-521": 66]
    static let curveNames: [String: StaticString] = ["P-256": "prime256v1", "P-384": "secp384r1", "P-521": "secp521r1"]

    /// OSSL_PARAM_BLD keeps the pointers it is given until OSSL_PARAM_BLD_to_param, so names and string
    /// values must outlive the builder: static literals do, Swift's temporary C strings do not.
    static func stable(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static let publicSelection = Int32(OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY)

    static func fromData(_ type: String, selection: Int32 = publicSelection, _ build: (OpaquePointer) -> Bool)
        throws(TelenoridError) -> PKey
    {
        guard let builder = OSSL_PARAM_BLD_new() else { throw TelenoridError(.invalidResponse, "out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard build(builder), let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw TelenoridError(.invalidResponse, "the \(type) key could not be assembled")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw TelenoridError(.invalidResponse, "no \(type) support")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &pkey, selection, params) == 1,
            let pkey
        else {
            throw TelenoridError(.invalidResponse, "the \(type) key is not valid")
        }
        return PKey(pkey)
    }

    private static func rsaKey(modulus: [UInt8], exponent: [UInt8]) throws(TelenoridError) -> PKey {
        let n = modulus.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(truncatingIfNeeded: $0.count), nil) }
        let e = exponent.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(truncatingIfNeeded: $0.count), nil) }
        defer { BN_free(n); BN_free(e) }
        guard let n, let e, modulus.count <= 2048, exponent.count <= 8 else {
            throw TelenoridError(.invalidResponse, "RSA key numbers are not valid")
        }
        return try fromData("RSA") { builder in
            OSSL_PARAM_BLD_push_BN(builder, stable("n"), n) == 1 && OSSL_PARAM_BLD_push_BN(builder, stable("e"), e) == 1
        }
    }

    /// Whether an encoded Ed25519 point (RFC 8032 §5.1.2) has an order dividing 8. No private key stands
    /// behind such a point, and with it a signature of small-order R and S = 0 verifies for one message in
    /// eight or more, so libsodium refuses these keys and so does this library.
    ///
    /// The curve is -x² + y² = 1 + d·x²·y² over p = 2^255 - 19. The points of order 1, 2 and 4 have y = 1,
    /// -1 and 0. A point of order 8 doubles to one with y = 0, which the doubling formula gives exactly when
    /// x² = -y²; put into the curve equation that is d·y⁴ + 2y² = 1. The sign of x does not change the
    /// order, so its bit is ignored; y is reduced mod p first, because the encodings of p and p + 1 (of 0
    /// and 1) are not canonical yet some decoders take them.
    static func hasSmallOrder(ed25519 encoded: [UInt8]) -> Bool {
        guard encoded.count == 32, let context = BN_CTX_new() else { return true }
        defer { BN_CTX_free(context) }
        BN_CTX_start(context)
        defer { BN_CTX_end(context) }
        guard let p = BN_CTX_get(context), let y = BN_CTX_get(context), let d = BN_CTX_get(context),
            let y2 = BN_CTX_get(context), let sum = BN_CTX_get(context)
        else { return true }
        var bytes = encoded
        bytes[31] &= 0x7f
        // d = -121665/121666 mod p (RFC 8032 §5.1).
        guard BN_set_word(p, 0) == 1, BN_set_bit(p, 255) == 1, BN_sub_word(p, 19) == 1,
            BN_set_word(d, 121_666) == 1, BN_mod_inverse(d, d, p, context) != nil,
            BN_set_word(sum, 121_665) == 1, BN_mod_mul(d, d, sum, p, context) == 1, BN_sub(d, p, d) == 1,
            BN_lebin2bn(bytes, 32, y) != nil, BN_nnmod(y, y, p, context) == 1,
            BN_mod_sqr(y2, y, p, context) == 1
        else { return true }
        // y² = 0 for order 4, y² = 1 for orders 1 and 2.
        if BN_is_zero(y2) == 1 || BN_is_one(y2) == 1 { return true }
        guard BN_mod_sqr(sum, y2, p, context) == 1, BN_mod_mul(sum, sum, d, p, context) == 1,
            BN_mod_add(sum, sum, y2, p, context) == 1, BN_mod_add(sum, sum, y2, p, context) == 1
        else { return true }
        return BN_is_one(sum) == 1
    }

    private static func ecKey(curve: String, point: [UInt8]) throws(TelenoridError) -> PKey {
        guard let group = curveNames[curve] else { throw TelenoridError(.unsupported, "curve \(curve)") }
        // The point's buffer must stay valid until the builder makes its params, inside fromData.
        let built: Result<PKey, TelenoridError> = point.withUnsafeBufferPointer { buffer in
            do throws(TelenoridError) {
                return .success(
                    try fromData("EC") { builder in
                        OSSL_PARAM_BLD_push_utf8_string(builder, stable("group"), stable(group), 0) == 1
                            && OSSL_PARAM_BLD_push_octet_string(
                                builder, stable("pub"), buffer.baseAddress, buffer.count) == 1
                    })
            } catch {
                return .failure(error)
            }
        }
        let key = try built.get()
        // fromdata does not check the point lies on the curve; an invalid point is an invalid-curve attack.
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw TelenoridError(.invalidResponse, "out of memory")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            throw TelenoridError(.invalidResponse, "EC point is not on \(curve)")
        }
        return key
    }
}

/// A JSON Web Key Set (RFC 7517 §5). Keys of types this library can't use are skipped, as §5 says.
public struct JWKSet: Sendable {
    public let keys: [JWK]

    public init(json bytes: [UInt8]) throws(TelenoridError) {
        let document: JSONValue
        do { document = try JSON.parse(bytes) } catch {
            throw TelenoridError(.invalidResponse, "key set is not valid JSON: \(error.message)")
        }
        guard let list = document["keys"]?.arrayValue else {
            throw TelenoridError(.invalidResponse, "key set has no \"keys\" array")
        }
        var keys: [JWK] = []
        for entry in list {
            guard let object = entry.objectValue else { continue }
            if let key = try? JWK(object) { keys.append(key) }
        }
        self.keys = keys
    }
}
