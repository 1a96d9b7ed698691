/// How the client proves itself at the token, revocation and introspection endpoints (OIDC Core §9,
/// RFC 6749 §2.3). The secrets stay in wiping storage: a String would leave the secret in freed memory.
public enum ClientAuthMethod: Sendable, Equatable {
    /// A public native client: only `client_id`, PKCE does the rest.
    case none
    case clientSecretBasic(secret: SecretBytes)
    case clientSecretPost(secret: SecretBytes)
    case clientSecretJWT(secret: SecretBytes)
    /// Signed with the client's key: `client_private_key`, or a key the host holds
    /// (`OIDCClient.setClientSigner`), which is why the configuration alone may lack one.
    case privateKeyJWT

    public var name: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .clientSecretJWT: "client_secret_jwt"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    public static func == (lhs: ClientAuthMethod, rhs: ClientAuthMethod) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.clientSecretBasic(let a), .clientSecretBasic(let b)),
            (.clientSecretPost(let a), .clientSecretPost(let b)),
            (.clientSecretJWT(let a), .clientSecretJWT(let b)):
            ClientConfiguration.Settings.same(a, b)
        case (.privateKeyJWT, .privateKeyJWT): true
        default: false
        }
    }

    init(_ settings: ClientConfiguration.Settings) throws(TelenoridError) {
        let secret = settings.clientSecret
        let key = settings.clientPrivateKey
        // Without an explicit method: a secret means client_secret_basic (RFC 6749's default), a key means
        // private_key_jwt, neither means a public client.
        let method =
            settings[.clientAuthMethod]
            ?? (key != nil ? "private_key_jwt" : secret != nil ? "client_secret_basic" : "none")
        func missing(_ what: String) -> TelenoridError {
            TelenoridError(.configuration, "token_endpoint_auth_method \(method) needs \(what)")
        }
        func needSecret() throws(TelenoridError) -> SecretBytes {
            guard let secret, secret.count > 0 else { throw missing("client_secret") }
            return secret
        }
        switch method {
        case "none": self = .none
        case "client_secret_basic": self = .clientSecretBasic(secret: try needSecret())
        case "client_secret_post": self = .clientSecretPost(secret: try needSecret())
        case "client_secret_jwt": self = .clientSecretJWT(secret: try needSecret())
        case "private_key_jwt": self = .privateKeyJWT
        default: throw TelenoridError(.configuration, "unknown token_endpoint_auth_method \(method)")
        }
    }
}
