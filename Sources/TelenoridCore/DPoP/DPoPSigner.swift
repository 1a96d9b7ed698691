/// What signs DPoP proofs: a key pair the library holds, or a key the host keeps where the library can't
/// read it (Android Keystore, Secure Enclave), reached through a signing function.
public enum DPoPSigner: Sendable {
    case key(DPoPKey)
    case hostKeySigner(HostKeySigner)

    public var algorithm: String {
        switch self {
        case .key(let key): key.algorithm
        case .hostKeySigner(let signer): signer.algorithm
        }
    }

    /// The public key for the proof header's `jwk` (RFC 9449 §4.2).
    public var publicJWK: JSONObject {
        switch self {
        case .key(let key): key.publicJWK
        case .hostKeySigner(let signer): signer.publicJWK
        }
    }

    /// `jkt` / `dpop_jkt`: the RFC 7638 SHA-256 thumbprint of the public key.
    public var thumbprint: String {
        switch self {
        case .key(let key): key.thumbprint
        case .hostKeySigner(let signer): signer.thumbprint
        }
    }

    /// The JWS signature (RFC 7515 §5.1) of a proof's signing input, in JOSE form.
    func signature(over input: String) throws(TelenoridError) -> [UInt8] {
        switch self {
        case .key(let key): try JWS.signature(over: input, key: key.privateKey)
        case .hostKeySigner(let signer): try signer.signature(over: Array(input.utf8))
        }
    }
}
