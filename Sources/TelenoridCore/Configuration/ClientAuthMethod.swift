/// How the client proves itself at the token, revocation and introspection endpoints (OIDC Core §9,
/// RFC 6749 §2.3).
public enum ClientAuthMethod: Sendable, Equatable {
    /// A public native client: only `client_id`, PKCE does the rest.
    case none
    case clientSecretBasic(secret: String)
    case clientSecretPost(secret: String)
    case clientSecretJWT(secret: String)
    /// The private key as PEM or as a JWK with its private members.
    case privateKeyJWT(key: String)

    public var name: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .clientSecretJWT: "client_secret_jwt"
        case .privateKeyJWT: "private_key_jwt"
        }
    }

    init(_ settings: ClientConfiguration.Settings) throws(TelenoridError) {
        let secret = settings[.clientSecret]
        let key = settings[.clientPrivateKey]
        // Without an explicit method: a secret means client_secret_basic (RFC 6749's default), a key means
        // private_key_jwt, neither means a public client.
        let method = settings[.clientAuthMethod] ?? (key != nil ? "private_key_jwt" : secret != nil ? "client_secret_basic" : "none")
        func need(_ value: String?, _ what: String) throws(TelenoridError) -> String {
            guard let value, !value.isEmpty else {
                throw TelenoridError(.configuration, "token_endpoint_auth_method \(method) needs \(what)")
            }
            return value
        }
        switch method {
        case "none": self = .none
        case "client_secret_basic": self = .clientSecretBasic(secret: try need(secret, "client_secret"))
        case "client_secret_post": self = .clientSecretPost(secret: try need(secret, "client_secret"))
        case "client_secret_jwt": self = .clientSecretJWT(secret: try need(secret, "client_secret"))
        case "private_key_jwt":
            // Parsed here once so a bad key fails when the configuration is built, not at the first token request.
            let text = try need(key, "client_private_key")
            _ = try PrivateKey(text: text)
            self = .privateKeyJWT(key: text)
        default: throw TelenoridError(.configuration, "unknown token_endpoint_auth_method \(method)")
        }
    }
}
