/// A key the host keeps where the library can't read it (Android Keystore, the Secure Enclave, an HSM),
/// reached through a signing function: its algorithm, its public JWK, and the function. It signs DPoP
/// proofs (RFC 9449) and, as the client's key, client assertions (RFC 7523) and request objects (RFC 9101).
public final class HostKeySigner: Sendable {
    /// Signs a JWS signing input (ASCII `header.payload`) and returns the signature as JWS carries it
    /// (RFC 7518 §3): raw r||s for ECDSA, not the DER a keystore gives; the plain signature for RSA and EdDSA.
    public typealias Sign = @Sendable (_ signingInput: [UInt8]) throws(TelenoridError) -> [UInt8]

    public let algorithm: String
    /// The key's RFC 7638 required members only, whatever else the host's JWK had (kid, use, alg).
    public let publicJWK: JSONObject
    public let thumbprint: String
    /// The host's JWK's `kid`, for the header of JWSs the provider verifies with a registered key set
    /// (RFC 7515 §4.1.4); a DPoP proof carries the key itself and has no use for it.
    public let keyID: String?
    private let sign: Sign

    /// Checked now rather than at the first signature: the JWK must be a public key (RFC 9449 §4.2: never
    /// a private one) able to verify `algorithm`, which must be asymmetric (§4.2 rules out `none` and MACs;
    /// RFC 7523 §3 needs a signature the provider checks with a key it holds).
    public init(algorithm: String, publicJWK: JSONObject, sign: @escaping Sign) throws(TelenoridError) {
        guard JWS.asymmetric[algorithm] != nil else {
            throw TelenoridError(.invalidArgument, "a host-held key needs an asymmetric JWS algorithm, not \(algorithm)")
        }
        let key: JWK
        do { key = try JWK(publicJWK) } catch {
            throw TelenoridError(.invalidArgument, "the signer's public JWK is not usable: \(error.message)")
        }
        guard key.canVerify(algorithm: algorithm) else {
            throw TelenoridError(.invalidArgument, "the signer's public JWK can't verify \(algorithm)")
        }
        self.algorithm = algorithm
        self.publicJWK = try JWKThumbprint.requiredMembers(of: publicJWK)
        thumbprint = try JWKThumbprint.sha256(of: self.publicJWK)
        keyID = publicJWK["kid"]?.stringValue
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
