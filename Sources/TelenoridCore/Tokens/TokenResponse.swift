/// A successful token response (RFC 6749 §5.1, OIDC Core §3.1.3.3), read leniently where the specs and
/// real providers differ harmlessly and strictly where security depends on it.
public struct TokenResponse: Sendable {
    public let accessToken: SecretBytes
    public let tokenType: String
    /// Seconds from the moment of the response, when the provider said.
    public let expiresIn: Int64?
    public let refreshToken: SecretBytes?
    public let idToken: String?
    public let scope: String?
    /// What the provider granted of a rich authorization request (RFC 9396 §7), when it said.
    public let authorizationDetails: AuthorizationDetails?
    /// OpenID Connect Native SSO 1.0 §3.4: the device secret, when the sign-in asked for `device_sso`.
    public let deviceSecret: SecretBytes?

    /// The members `init` takes from wiping storage rather than from the parsed object.
    static let secretMembers: Set<String> = ["access_token", "refresh_token", "device_secret"]

    /// `secrets` holds the members of `secretMembers` that the parser kept out of `object`.
    public init(_ object: JSONObject, secrets: [String: SecretBytes] = [:]) throws(TelenoridError) {
        func string(_ key: String, required: Bool = false) throws(TelenoridError) -> String? {
            guard let value = object[key], value != .null else {
                if required { throw TelenoridError(.invalidResponse, "token response lacks \"\(key)\"") }
                return nil
            }
            guard let text = value.stringValue else {
                throw TelenoridError(.invalidResponse, "token response's \"\(key)\" is not a string")
            }
            // "\u0000" is valid JSON, but a token holding it could never be handed to a C host whole.
            guard !text.utf8.contains(0) else {
                throw TelenoridError(.invalidResponse, "token response's \"\(key)\" holds a NUL character")
            }
            return text
        }
        func secret(_ key: String, required: Bool = false) throws(TelenoridError) -> SecretBytes? {
            if let value = secrets[key] {
                guard !value.bytes.contains(0) else {
                    throw TelenoridError(.invalidResponse, "token response's \"\(key)\" holds a NUL character")
                }
                return value
            }
            return try string(key, required: required).map { SecretBytes(Array($0.utf8)) }
        }
        guard let accessToken = try secret("access_token", required: true), accessToken.count > 0 else {
            throw TelenoridError(.invalidResponse, "token response has an empty access_token")
        }
        self.accessToken = accessToken
        // RFC 6749 §5.1: token_type is case-insensitive; "bearer" and "Bearer" both occur in the wild.
        guard let type = try string("token_type", required: true) else {
            throw TelenoridError(.invalidResponse, "token response lacks \"token_type\"")
        }
        // RFC 6749 §7.1: a client must not use a token whose type it does not understand. Whether a DPoP
        // token (RFC 9449) is one this request may get is the client's check (`checkTokenType`).
        guard ASCII.equalsIgnoringCase(type.utf8, "bearer".utf8) || ASCII.equalsIgnoringCase(type.utf8, "dpop".utf8)
        else {
            throw TelenoridError(
                .invalidResponse,
                "token_type \(DisplayText.escaping(type)) is not one this client can use (Bearer or DPoP)")
        }
        tokenType = type
        expiresIn = try Self.expiresIn(object)
        refreshToken = try secret("refresh_token")
        deviceSecret = try secret("device_secret")
        idToken = try string("id_token")
        scope = try string("scope")
        if let details = object["authorization_details"], details != .null {
            authorizationDetails = try AuthorizationDetails(response: details)
        } else {
            authorizationDetails = nil
        }
    }

    /// `expires_in` (RFC 6749 §5.1, also RFC 8693 §2.2.1): nil when absent; a non-negative whole number of
    /// seconds, or those digits in a string as some providers send them.
    static func expiresIn(_ object: JSONObject) throws(TelenoridError) -> Int64? {
        switch object["expires_in"] {
        case nil, .null?:
            return nil
        case .number(let number)?:
            guard let seconds = number.roundedDown(),
                seconds >= 0
            else {
                throw TelenoridError(.invalidResponse, "expires_in is not a non-negative number of seconds")
            }
            return seconds
        case .string(let text)?:
            // Some providers send "3600": accepted when it is plain digits.
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(ASCII.isDigit), let seconds = Int64(text)
            else {
                throw TelenoridError(.invalidResponse, "expires_in is not a number of seconds")
            }
            return seconds
        default:
            throw TelenoridError(.invalidResponse, "expires_in is not a number")
        }
    }
}
