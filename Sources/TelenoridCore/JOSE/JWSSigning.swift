import COpenSSL

/// A client's private key, for `private_key_jwt` client assertions: PEM (PKCS#8 or traditional) or a
/// private JWK (PrivateJWK.swift).
public struct PrivateKey: Sendable {
    let key: PKey
    /// The JWS algorithm this key signs with: RS256 (or the RSA algorithm a JWK declares), ES256/384/512
    /// by curve, or EdDSA.
    public let algorithm: String
    /// A JWK's `kid` (or the one the configuration gives, `identified(as:)`), sent in the header of what the
    /// key signs so the provider knows which registered key to use.
    public internal(set) var keyID: String?
    /// Whether `algorithm` is only this key type's default (RS256 for an RSA key that declared none), so
    /// that another algorithm of the same family may be chosen for it (`signing(with:)`).
    let algorithmIsDefault: Bool

    static let rsaAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]

    /// The same key with `keyID` as its `kid`.
    func identified(as keyID: String) -> PrivateKey {
        var copy = self
        copy.keyID = keyID
        return copy
    }

    /// The same key signing with `algorithm`: itself when that is its algorithm, an RSA key that declared
    /// none with any RSA algorithm (RFC 7518 §3.3, §3.5), else nil.
    func signing(with algorithm: String) -> PrivateKey? {
        if algorithm == self.algorithm { return self }
        guard algorithmIsDefault, PrivateKey.rsaAlgorithms.contains(self.algorithm),
            PrivateKey.rsaAlgorithms.contains(algorithm)
        else {
            return nil
        }
        return PrivateKey(key: key, algorithm: algorithm, keyID: keyID, algorithmIsDefault: false)
    }

    private init(key: PKey, algorithm: String, keyID: String?, algorithmIsDefault: Bool) {
        self.key = key
        self.algorithm = algorithm
        self.keyID = keyID
        self.algorithmIsDefault = algorithmIsDefault
    }

    /// The RFC 7638 thumbprint of the public key, the `kid` a key without one is known by.
    func thumbprint() throws(TelenoridError) -> String {
        try JWKThumbprint.sha256(of: try publicJWK())
    }

    /// A JWK when the text is a JSON object, PEM otherwise.
    public init(text: String) throws(TelenoridError) {
        try self.init(text: SecretBytes(Array(text.utf8)))
    }

    /// A JWK when the text is a JSON object, PEM otherwise, read from wiping storage (a configuration's
    /// `client_private_key`): no copy of the key's text is left behind.
    public init(text: SecretBytes) throws(TelenoridError) {
        let isJWK = text.withUnsafeBytes { bytes in
            bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{")
        }
        guard isJWK else {
            try self.init(pemBytes: text)
            return
        }
        // The private members go to wiping storage, not into Strings of the parsed object. The parser
        // reads `text.bytes`, which shares the storage, so `text` must outlive it (else a copy is wiped).
        let (object, secrets) = try withExtendedLifetime(text) { () throws(TelenoridError) in
            try PrivateKey.parseJWK(text.bytes)
        }
        try self.init(jwk: object, secrets: secrets)
    }

    public init(pem: String) throws(TelenoridError) {
        try self.init(pemBytes: SecretBytes(Array(pem.utf8)))
    }

    private init(pemBytes text: SecretBytes) throws(TelenoridError) {
        keyID = nil
        var algorithmIsDefault = false
        let parsed: OpaquePointer? = text.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(truncatingIfNeeded: raw.count)) else { return nil }
            defer { BIO_free(bio) }
            // A refusing pass-phrase callback: without one OpenSSL prompts on the terminal or reads the host's stdin.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let parsed else { throw TelenoridError(.configuration, "client_private_key is not a PEM private key") }
        key = PKey(parsed)
        switch EVP_PKEY_get_base_id(parsed) {
        case EVP_PKEY_RSA:
            algorithm = "RS256"
            algorithmIsDefault = true
        case EVP_PKEY_ED25519: algorithm = "EdDSA"
        case EVP_PKEY_EC:
            switch EVP_PKEY_get_bits(parsed) {
            case 256: algorithm = "ES256"
            case 384: algorithm = "ES384"
            case 521: algorithm = "ES512"
            default:
                throw TelenoridError(.configuration, "client_private_key is on an EC curve JOSE has no algorithm for")
            }
        default: throw TelenoridError(.configuration, "client_private_key must be RSA, EC or Ed25519")
        }
        self.algorithmIsDefault = algorithmIsDefault
    }

    /// A key the library made itself (a DPoP key pair, DPoPKey.swift), whose algorithm the caller chose
    /// when generating it.
    init(generated key: PKey, algorithm: String) {
        self.key = key
        self.algorithm = algorithm
        keyID = nil
        algorithmIsDefault = false
    }
}

extension JWS {
    /// A compact JWS of `payload` signed with a private key.
    public static func sign(payload: [UInt8], key: PrivateKey, keyID: String? = nil) throws(TelenoridError) -> String {
        let input = signingInput(algorithm: key.algorithm, keyID: keyID ?? key.keyID, payload: payload)
        return input + "." + Base64URL.encode(try signature(over: input, key: key))
    }

    /// The signature of a JWS signing input (`header.payload`, both base64url) with a private key.
    static func signature(over input: String, key: PrivateKey) throws(TelenoridError) -> [UInt8] {
        guard let spec = asymmetric[key.algorithm], let context = EVP_MD_CTX_new() else {
            throw TelenoridError(.configuration, "can't sign with \(key.algorithm)")
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer? = nil
        guard EVP_DigestSignInit_ex(context, &keyContext, spec.digest, nil, nil, key.key.pointer, nil) == 1 else {
            throw TelenoridError(.configuration, "signing with \(key.algorithm) could not start")
        }
        if spec.pss {
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1
            else {
                throw TelenoridError(.configuration, "PSS parameters could not be set")
            }
        }
        var length = 0
        let bytes = Array(input.utf8)
        guard bytes.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1
        else {
            throw TelenoridError(.configuration, "signing failed")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard
            bytes.withUnsafeBufferPointer({ b in
                signature.withUnsafeMutableBufferPointer {
                    EVP_DigestSign(context, $0.baseAddress, &length, b.baseAddress, b.count)
                }
            }) == 1
        else {
            throw TelenoridError(.configuration, "signing failed")
        }
        signature = Array(signature.prefix(length))
        if let size = spec.ecSize {
            guard let raw = rawSignature(der: signature, coordinateSize: size) else {
                throw TelenoridError(.configuration, "signing failed")
            }
            signature = raw
        }
        return signature
    }

    /// A compact JWS of `payload` MACed with a shared secret (client_secret_jwt).
    public static func sign(payload: [UInt8], algorithm: String, hmacSecret: [UInt8]) throws(TelenoridError) -> String {
        let input = signingInput(algorithm: algorithm, keyID: nil, payload: payload)
        guard let mac = hmac(algorithm, secret: hmacSecret, data: Array(input.utf8)) else {
            throw TelenoridError(.configuration, "\(algorithm) is not an HMAC algorithm")
        }
        return input + "." + Base64URL.encode(mac)
    }

    /// The signing input of a JWT (`typ` JWT) signed with `algorithm` by the key `keyID` names.
    static func signingInput(algorithm: String, keyID: String?, payload: [UInt8]) -> String {
        var header = JSONObject()
        header.set("alg", .string(algorithm))
        header.set("typ", .string("JWT"))
        if let keyID { header.set("kid", .string(keyID)) }
        return signingInput(header: header, payload: payload)
    }

    /// `base64url(header) "." base64url(payload)` (RFC 7515 §5.1 steps 2-6), what a compact JWS signs.
    static func signingInput(header: JSONObject, payload: [UInt8]) -> String {
        Base64URL.encode(Array(JSON.serialize(.object(header)).utf8)) + "." + Base64URL.encode(payload)
    }

    /// DER ECDSA-Sig-Value to JOSE's fixed-width r||s.
    static func rawSignature(der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        let sig: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let sig else { return nil }
        defer { ECDSA_SIG_free(sig) }
        var raw = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let size = Int32(coordinateSize)
        let ok = raw.withUnsafeMutableBufferPointer { out in
            BN_bn2binpad(ECDSA_SIG_get0_r(sig), out.baseAddress, size) == size
                && BN_bn2binpad(ECDSA_SIG_get0_s(sig), out.baseAddress.map { $0 + coordinateSize }, size) == size
        }
        return ok ? raw : nil
    }
}
