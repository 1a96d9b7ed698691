/// What signs DPoP proofs: a key pair the library holds, or a key the host keeps where the library can't
/// read it (Android Keystore, Secure Enclave), reached through a signing function.
public enum DPoPSigner: Sendable {
    case key(DPoPKey)
    case external(DPoPExternalSigner)

    public var algorithm: String {
        switch self {
        case .key(let key): key.algorithm
        case .external(let signer): signer.algorithm
        }
    }

    /// The public key for the proof header's `jwk` (RFC 9449 §4.2).
    public var publicJWK: JSONObject {
        switch self {
        case .key(let key): key.publicJWK
        case .external(let signer): signer.publicJWK
        }
    }

    /// `jkt` / `dpop_jkt`: the RFC 7638 SHA-256 thumbprint of the public key.
    public var thumbprint: String {
        switch self {
        case .key(let key): key.thumbprint
        case .external(let signer): signer.thumbprint
        }
    }

    /// The JWS signature (RFC 7515 §5.1) of a proof's signing input, in JOSE form.
    func signature(over input: String) throws(TelenoridError) -> [UInt8] {
        switch self {
        case .key(let key): try JWS.signature(over: input, key: key.privateKey)
        case .external(let signer): try signer.signature(over: Array(input.utf8))
        }
    }
}

/// A host-held DPoP key: its algorithm, its public JWK, and a function that signs.
public final class DPoPExternalSigner: Sendable {
    /// Signs a JWS signing input (ASCII `header.payload`) and returns the signature as JWS carries it
    /// (RFC 7518 §3): raw r||s for ECDSA, not the DER a keystore gives; the plain signature for RSA and EdDSA.
    public typealias Sign = @Sendable (_ signingInput: [UInt8]) throws(TelenoridError) -> [UInt8]

    public let algorithm: String
    /// The key's RFC 7638 required members only, whatever else the host's JWK had (kid, use, alg).
    public let publicJWK: JSONObject
    public let thumbprint: String
    private let sign: Sign

    /// Checked now rather than at the first proof: the JWK must be a public key (RFC 9449 §4.2: never a
    /// private one) able to verify `algorithm`, which must be asymmetric (§4.2 rules out `none` and MACs).
    public init(algorithm: String, publicJWK: JSONObject, sign: @escaping Sign) throws(TelenoridError) {
        guard JWS.asymmetric[algorithm] != nil else {
            throw TelenoridError(.invalidArgument, "DPoP proofs need an asymmetric JWS algorithm, not \(algorithm)")
        }
        let key: JWK
        do { key = try JWK(publicJWK) } catch {
            throw TelenoridError(.invalidArgument, "the DPoP signer's public JWK is not usable: \(error.message)")
        }
        guard key.canVerify(algorithm: algorithm) else {
            throw TelenoridError(.invalidArgument, "the DPoP signer's public JWK can't verify \(algorithm)")
        }
        self.algorithm = algorithm
        self.publicJWK = try JWKThumbprint.requiredMembers(of: publicJWK)
        thumbprint = try JWKThumbprint.sha256(of: self.publicJWK)
        self.sign = sign
    }

    func signature(over input: [UInt8]) throws(TelenoridError) -> [UInt8] {
        let signature = try sign(input)
        // A DER ECDSA signature (what keystores return) would be refused by every server; caught here,
        // where the host can still see why.
        if let size = JWS.asymmetric[algorithm]?.ecSize, signature.count != 2 * size {
            throw TelenoridError(.invalidArgument, "an \(algorithm) signature is \(2 * size) bytes of r||s, the signer gave \(signature.count)")
        }
        return signature
    }
}

/// JWK thumbprints (RFC 7638).
enum JWKThumbprint {
    /// RFC 7638 §3.2: only the required members of the key type (EC crv/kty/x/y, RSA e/kty/n, OKP
    /// crv/kty/x per RFC 8037 §2), in lexicographic order, so that any two JWKs of one key agree.
    static func requiredMembers(of jwk: JSONObject) throws(TelenoridError) -> JSONObject {
        let names: [String]
        switch jwk["kty"]?.stringValue {
        case "EC": names = ["crv", "kty", "x", "y"]
        case "RSA": names = ["e", "kty", "n"]
        case "OKP": names = ["crv", "kty", "x"]
        case let other: throw TelenoridError(.unsupported, "no thumbprint for key type \(other ?? "none")")
        }
        var required = JSONObject()
        for name in names {
            guard let value = jwk[name]?.stringValue else { throw TelenoridError(.invalidArgument, "JWK lacks its \(name) member") }
            required.set(name, .string(value))
        }
        return required
    }

    /// RFC 7638 §3.1: base64url of the SHA-256 of the required members serialized without whitespace.
    static func sha256(of jwk: JSONObject) throws(TelenoridError) -> String {
        Base64URL.encode(Crypto.sha256(JSON.serialize(.object(try requiredMembers(of: jwk))).utf8))
    }
}
