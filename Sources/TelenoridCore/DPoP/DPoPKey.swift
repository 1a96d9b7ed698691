import COpenSSL

/// A key pair the library holds to prove possession of with DPoP proofs (RFC 9449 §4): access and refresh
/// tokens issued to a DPoP client are bound to this key's thumbprint, so the same key must sign every
/// later request, across restarts (`serialized()` / `init(restoring:)`).
public final class DPoPKey: Sendable {
    /// The algorithms a key can be made for: ES256 (compact, fast, the default), EdDSA, and PS256 for
    /// servers that take RSA only. All three are FAPI 2.0's; RFC 9449 §4.2 only asks for an asymmetric one.
    public static let algorithms = ["ES256", "EdDSA", "PS256"]
    /// The version `serialized()` writes and `init(restoring:)` accepts.
    public static let formatVersion: Int64 = 1

    let privateKey: PrivateKey
    /// The public half, without private members (RFC 9449 §4.2), as the proof header's `jwk`.
    public let publicJWK: JSONObject
    /// The RFC 7638 SHA-256 thumbprint of `publicJWK`: `jkt` in a token's `cnf` and `dpop_jkt` in an
    /// authorization request (RFC 9449 §6 and §10).
    public let thumbprint: String

    public var algorithm: String { privateKey.algorithm }

    private init(_ privateKey: PrivateKey) throws(TelenoridError) {
        self.privateKey = privateKey
        publicJWK = try privateKey.publicJWK()
        thumbprint = try JWKThumbprint.sha256(of: publicJWK)
    }

    /// A new key pair from OpenSSL's generator: P-256 for ES256, Ed25519 for EdDSA, RSA 2048 for PS256.
    public static func generate(algorithm: String = "ES256") throws(TelenoridError) -> DPoPKey {
        let type: String
        switch algorithm {
        case "ES256": type = "EC"
        case "EdDSA": type = "ED25519"
        case "PS256": type = "RSA"
        default:
            throw TelenoridError(
                .unsupported, "DPoP keys are made for \(algorithms.joined(separator: ", ")), not \(algorithm)")
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw TelenoridError(.unsupported, "OpenSSL has no \(type) key generator")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var ready = EVP_PKEY_keygen_init(context) == 1
        if algorithm == "ES256" { ready = ready && EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 }
        if algorithm == "PS256" { ready = ready && EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 }
        var pkey: OpaquePointer? = nil
        guard ready, EVP_PKEY_generate(context, &pkey) == 1, let pkey else {
            throw TelenoridError(.unsupported, "OpenSSL could not generate a key for \(algorithm)")
        }
        return try DPoPKey(PrivateKey(generated: PKey(pkey), algorithm: algorithm))
    }

    /// The key for the host's secure storage: `{"v":1,"alg":"ES256","jwk":{private JWK}}`, in storage
    /// that is wiped when released. The version lets a later format be told apart instead of misread.
    public func serialized() throws(TelenoridError) -> SecretBytes {
        let jwk = try privateKey.privateJWK()
        let prefix = Array("{\"v\":\(DPoPKey.formatVersion),\"alg\":\"\(algorithm)\",\"jwk\":".utf8)
        return SecretBytes(count: prefix.count + jwk.count + 1) { out in
            for (index, byte) in prefix.enumerated() { out[index] = byte }
            jwk.withUnsafeBytes { raw in
                for (index, byte) in raw.enumerated() { out[prefix.count + index] = byte }
            }
            out[out.count - 1] = UInt8(ascii: "}")
        }
    }

    /// A key from `serialized()`'s output.
    public convenience init(restoring serialized: SecretBytes) throws(TelenoridError) {
        try self.init(restoring: serialized.bytes)
    }

    /// A key from `serialized()`'s output. A format version other than this library's is refused with
    /// `.version`, so a host that downgraded keeps the stored key rather than have it misread.
    ///
    /// The private JWK comes out of the document as its text, and out of that its private members, both in
    /// wiping storage (the parser's `secretObjectMembers` and `secretMembers`), never as Strings.
    public convenience init(restoring bytes: [UInt8]) throws(TelenoridError) {
        let limits = JSONLimits(maxDepth: 4, maxBytes: 16 * 1024)
        let document: JSONValue, secrets: [String: SecretBytes]
        do {
            (document, secrets) = try JSON.parse(bytes, secretMembers: [], secretObjectMembers: ["jwk"], limits: limits)
        } catch {
            throw TelenoridError(.malformed, "stored DPoP key is not valid JSON: \(error.message)")
        }
        guard let object = document.objectValue, let version = object["v"]?.int64Value else {
            throw TelenoridError(.malformed, "stored DPoP key has no version")
        }
        guard version == DPoPKey.formatVersion else {
            throw TelenoridError(.version, "stored DPoP key format version \(version) is not \(DPoPKey.formatVersion)")
        }
        guard let algorithm = object["alg"]?.stringValue, DPoPKey.algorithms.contains(algorithm) else {
            throw TelenoridError(
                .unsupported, "stored DPoP key is not for \(DPoPKey.algorithms.joined(separator: ", "))")
        }
        guard let text = secrets["jwk"] else { throw TelenoridError(.malformed, "stored DPoP key has no jwk object") }
        let key: PrivateKey
        do {
            let (parsed, numbers) = try PrivateKey.parseJWK(text.bytes, limits: limits)
            var jwk = parsed
            // Declared on the JWK so the importer checks the key can sign it (P-256 for ES256, RSA for PS256),
            // and so an RSA key signs PS256 rather than the importer's default RS256.
            jwk.set("alg", .string(algorithm))
            key = try PrivateKey(jwk: jwk, secrets: numbers)
        } catch {
            throw TelenoridError(.malformed, "stored DPoP key is not a valid private key: \(error.message)")
        }
        try self.init(key)
    }
}
