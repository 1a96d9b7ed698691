/// What a resource server learnt about an access token: the provider's introspection answer (RFC 7662
/// §2.2) or the claims of a verified JWT access token (RFC 9068 §2.2). Both are JSON objects of the same
/// registered members (RFC 7662 §2.2 takes its names from JWT, RFC 7519 §4.1), so one type reads both.
public struct TokenInfo: Sendable {
    /// RFC 7662 §2.2 `active`; a verified JWT access token is active.
    public let active: Bool
    public let claims: JSONObject

    /// The members a host reads by name, checked for their type when the object is read, so a getter never
    /// meets a member of the wrong type.
    static let stringMembers = ["scope", "client_id", "username", "token_type", "sub", "iss", "jti"]
    static let timeMembers = ["exp", "iat", "nbf"]

    /// Reads an introspection answer or a JWT's claims. A registered member of the wrong type makes the
    /// whole answer invalid (`what` names it in the message), as does an `active` that is not a boolean
    /// (RFC 7662 §2.2: REQUIRED).
    init(introspection claims: JSONObject, what: String) throws(TelenoridError) {
        guard case .bool(let active)? = claims["active"] else {
            throw TelenoridError(.invalidResponse, "\(what) has no boolean \"active\" (RFC 7662 §2.2)")
        }
        try TokenInfo.checkMembers(claims, what: what, error: .invalidResponse)
        self.active = active
        self.claims = claims
    }

    /// The claims of a verified JWT access token.
    init(verifiedClaims claims: JSONObject) throws(TelenoridError) {
        try TokenInfo.checkMembers(claims, what: "the access token", error: .tokenInvalid)
        active = true
        self.claims = claims
    }

    private static func checkMembers(_ claims: JSONObject, what: String, error kind: TelenoridError.Kind)
        throws(TelenoridError)
    {
        for name in stringMembers where claims[name] != nil && claims[name]?.stringValue == nil {
            throw TelenoridError(kind, "\(what)'s \"\(name)\" is not a string")
        }
        for name in timeMembers where claims[name] != nil && OIDCClient.seconds(claims[name]) == nil {
            throw TelenoridError(kind, "\(what)'s \"\(name)\" is not a NumericDate (RFC 7519 §2)")
        }
        if let aud = claims["aud"], aud.stringValue == nil && aud.stringArrayValue == nil {
            throw TelenoridError(kind, "\(what)'s \"aud\" is neither a string nor an array of strings")
        }
        if let cnf = claims["cnf"] {
            guard let confirmation = cnf.objectValue else {
                throw TelenoridError(kind, "\(what)'s \"cnf\" is not an object (RFC 7800 §3.1)")
            }
            if let jkt = confirmation["jkt"], jkt.stringValue == nil {
                throw TelenoridError(kind, "\(what)'s \"cnf\".\"jkt\" is not a string (RFC 9449 §6.1)")
            }
        }
    }

    /// A string member (`stringMembers`), nil when absent.
    public func string(_ name: String) -> String? { claims[name]?.stringValue }

    /// The audiences: `aud` as one string or an array of them (RFC 7519 §4.1.3).
    public var audiences: [String] {
        guard let aud = claims["aud"] else { return [] }
        return aud.stringValue.map { [$0] } ?? aud.stringArrayValue ?? []
    }

    /// A NumericDate member (`timeMembers`) in whole seconds, nil when absent.
    public func seconds(_ name: String) -> Int64? { OIDCClient.seconds(claims[name]) }

    /// The RFC 7638 thumbprint of the DPoP key the token is bound to (RFC 9449 §6.1, §6.2), when it is.
    public var confirmationKeyThumbprint: String? { claims["cnf"]?["jkt"]?.stringValue }

    /// Any member as JSON text, nil when absent.
    public func memberJSON(_ name: String) -> String? { claims[name].map { JSON.serialize($0) } }

    /// The whole object as JSON text.
    public var json: String { JSON.serialize(.object(claims)) }
}
