/// The key a client signs with as itself: client assertions (RFC 7523 §2.2, `private_key_jwt`) and
/// request objects (RFC 9101). The provider verifies both with the keys registered for the client.
enum ClientKey {
    /// `client_private_key`, held by the library.
    case held(PrivateKey)
    /// A key the host holds where the library can't read it (`OIDCClient.setClientSigner`).
    case hostKeySigner(HostKeySigner)

    var algorithm: String {
        switch self {
        case .held(let key): key.algorithm
        case .hostKeySigner(let signer): signer.algorithm
        }
    }

    /// The `kid` for the JWS header (RFC 7515 §4.1.4), so the provider picks the registered key.
    var keyID: String? {
        switch self {
        case .held(let key): key.keyID
        case .hostKeySigner(let signer): signer.keyID
        }
    }

    /// The JWS signature (RFC 7515 §5.1) of a signing input, in JOSE form.
    func signature(over input: String) throws(TelenoridError) -> [UInt8] {
        switch self {
        case .held(let key): try JWS.signature(over: input, key: key)
        case .hostKeySigner(let signer): try signer.signature(over: Array(input.utf8))
        }
    }
}

extension OIDCClient {
    /// The client's key for `purpose`: the host's, when it set one, else `client_private_key`.
    func clientKey(for purpose: String) throws(TelenoridError) -> ClientKey {
        if let host = clientSigner { return .hostKeySigner(host) }
        if let key = configuration.clientPrivateKey { return .held(key) }
        throw TelenoridError(
            .configuration,
            "\(purpose) needs the client's key: client_private_key, or a signer the host sets on the client")
    }
}
