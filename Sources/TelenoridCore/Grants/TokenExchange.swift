/// Token exchange (RFC 8693): the client hands the token endpoint a token it holds (the subject token, and
/// optionally an actor token) and gets another for a different audience, resource, scope or type.

/// The token type identifiers of RFC 8693 §3 (and the ones registered beside them, §7.2).
public enum TokenTypeIdentifier {
    public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
    public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
    public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
    public static let saml1 = "urn:ietf:params:oauth:token-type:saml1"
    public static let saml2 = "urn:ietf:params:oauth:token-type:saml2"
    public static let jwt = "urn:ietf:params:oauth:token-type:jwt"
}

/// What a token exchange asks for (RFC 8693 §2.1), built up by the host. Safe to share between threads.
public final class TokenExchangeRequest: Sendable {
    public struct Parameters: Sendable {
        public var subjectToken: SecretBytes
        public var subjectTokenType: String
        public var actorToken: SecretBytes?
        public var actorTokenType: String?
        /// RFC 8707 resource indicators (RFC 8693 §2.1 `resource`): absolute URIs without a fragment.
        public var resources: [String] = []
        /// Logical names of the target services (RFC 8693 §2.1 `audience`).
        public var audiences: [String] = []
        public var scope: String?
        public var requestedTokenType: String?
    }

    private let parameters: Locked<Parameters>

    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// §2.1: `subject_token` and `subject_token_type` are REQUIRED; the type is a URI (§3).
    public init(subjectToken: SecretBytes, subjectTokenType: String) throws(TelenoridError) {
        guard subjectToken.count > 0 else { throw TelenoridError(.invalidArgument, "subject_token is empty") }
        try Self.checkTokenType(subjectTokenType, "subject_token_type")
        parameters = Locked(Parameters(subjectToken: subjectToken, subjectTokenType: subjectTokenType))
    }

    public var snapshot: Parameters { parameters.withLock { $0 } }

    /// §2.1: `actor_token_type` is REQUIRED when `actor_token` is present and MUST NOT be sent without it,
    /// so both come together; nil for both removes the actor.
    public func setActor(token: SecretBytes?, type: String?) throws(TelenoridError) {
        switch (token, type) {
        case (nil, nil):
            parameters.withLock {
                $0.actorToken = nil
                $0.actorTokenType = nil
            }
        case (let token?, let type?):
            guard token.count > 0 else { throw TelenoridError(.invalidArgument, "actor_token is empty") }
            try Self.checkTokenType(type, "actor_token_type")
            parameters.withLock {
                $0.actorToken = token
                $0.actorTokenType = type
            }
        default:
            throw TelenoridError(
                .invalidArgument, "actor_token and actor_token_type go together (RFC 8693 §2.1): give both or neither")
        }
    }

    /// §2.1 `resource`: "an absolute URI, as specified by Section 4.3 of RFC 3986", without a fragment
    /// (RFC 8707 §2). Once per resource.
    public func addResource(_ uri: String) throws(TelenoridError) {
        let parsed: URI
        do { parsed = try URI(parsing: uri) } catch {
            throw TelenoridError(.invalidArgument, "resource is not an absolute URI (RFC 8693 §2.1): \(error.message)")
        }
        guard parsed.fragment == nil else {
            throw TelenoridError(.invalidArgument, "resource must not have a fragment (RFC 8693 §2.1)")
        }
        try parameters.withLock { (parameters: inout Parameters) throws(TelenoridError) in
            guard !parameters.resources.contains(uri) else {
                throw TelenoridError(.invalidArgument, "resource \"\(uri)\" was already added")
            }
            parameters.resources.append(uri)
        }
    }

    /// §2.1 `audience`: the logical name of a target service, any string the provider understands.
    public func addAudience(_ audience: String) throws(TelenoridError) {
        guard !audience.isEmpty else { throw TelenoridError(.invalidArgument, "audience is empty") }
        try parameters.withLock { (parameters: inout Parameters) throws(TelenoridError) in
            guard !parameters.audiences.contains(audience) else {
                throw TelenoridError(.invalidArgument, "audience \"\(audience)\" was already added")
            }
            parameters.audiences.append(audience)
        }
    }

    /// §2.1 `scope` (RFC 6749 §3.3); nil sends none.
    public func setScope(_ scope: String?) throws(TelenoridError) {
        if let scope, scope.isEmpty { throw TelenoridError(.invalidArgument, "scope is empty") }
        parameters.withLock { $0.scope = scope }
    }

    /// §2.1 `requested_token_type`, a token type identifier (§3); nil leaves the type to the provider.
    public func setRequestedTokenType(_ type: String?) throws(TelenoridError) {
        if let type { try Self.checkTokenType(type, "requested_token_type") }
        parameters.withLock { $0.requestedTokenType = type }
    }

    /// §3: token type identifiers are URIs (the registered ones URNs).
    static func checkTokenType(_ type: String, _ what: String) throws(TelenoridError) {
        do { _ = try URI(parsing: type) } catch {
            throw TelenoridError(.invalidArgument, "\(what) is not a URI (RFC 8693 §3): \(error.message)")
        }
    }
}

/// What a token exchange issued (RFC 8693 §2.2.1). The token is in `token` whatever its kind: the member is
/// called `access_token` for historical reasons, and `issuedTokenType` says what it is. Its members never
/// change; it becomes an auth state once.
public final class IssuedToken: Sendable {
    public let token: SecretBytes
    public let issuedTokenType: String
    /// `token_type` as the provider spelled it: "Bearer", "DPoP", or "N_A" for a token that is not an
    /// access token (§2.2.1).
    public let tokenType: String
    public let expiresIn: Int64?
    /// `expiresIn` from the moment the answer came, in the client's clock.
    public let expiresAt: Int64?
    public let scope: String?
    public let refreshToken: SecretBytes?
    /// The client that asked, and the DPoP key whose proof went with the request (a DPoP-bound token is
    /// used with it) and the resources asked for: what an auth state made of the token needs.
    public let client: OIDCClient
    let dpopSigner: DPoPSigner?
    let resources: [String]
    /// What OpenID Connect Native SSO 1.0 adds to the response (§4.4): an ID token and a new device secret.
    let idToken: String?
    let deviceSecret: SecretBytes?
    private let madeAuthState = Locked(false)

    static let secretMembers: Set<String> = ["access_token", "refresh_token", "device_secret"]

    /// Reads a successful response (§2.2.1). `access_token`, `issued_token_type` and `token_type` are
    /// REQUIRED; a response without one is refused. `secrets` are the members of `secretMembers` the
    /// JSON parser kept out of `object`.
    init(
        _ object: JSONObject, secrets: [String: SecretBytes], client: OIDCClient, receivedAt now: Int64,
        dpopSigner: DPoPSigner?, resources: [String]
    ) throws(TelenoridError) {
        func string(_ key: String) throws(TelenoridError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.invalidResponse, "token exchange response's \"\(key)\" is not a string")
            }
            guard !text.isEmpty, !text.utf8.contains(0) else {
                throw TelenoridError(.invalidResponse, "token exchange response's \"\(key)\" is empty or holds NUL")
            }
            return text
        }
        func secret(_ key: String) throws(TelenoridError) -> SecretBytes? {
            guard let value = secrets[key] else { return try string(key).map { SecretBytes(Array($0.utf8)) } }
            guard value.count > 0, !value.bytes.contains(0) else {
                throw TelenoridError(.invalidResponse, "token exchange response's \"\(key)\" is empty or holds NUL")
            }
            return value
        }
        func required(_ key: String) -> TelenoridError {
            TelenoridError(.invalidResponse, "the token exchange response lacks \(key) (RFC 8693 §2.2.1 requires it)")
        }
        guard let token = try secret("access_token") else { throw required("access_token") }
        guard let issuedTokenType = try string("issued_token_type") else { throw required("issued_token_type") }
        do { _ = try URI(parsing: issuedTokenType) } catch {
            throw TelenoridError(
                .invalidResponse, "the token exchange response's issued_token_type is not a URI (RFC 8693 §3)")
        }
        guard let tokenType = try string("token_type") else { throw required("token_type") }
        self.token = token
        self.issuedTokenType = issuedTokenType
        self.tokenType = tokenType
        expiresIn = try TokenResponse.expiresIn(object)
        expiresAt = expiresIn.map { seconds in
            let (sum, overflow) = now.addingReportingOverflow(seconds)
            return overflow ? Int64.max : sum
        }
        scope = try string("scope")
        refreshToken = try secret("refresh_token")
        idToken = try string("id_token")
        deviceSecret = try secret("device_secret")
        self.client = client
        self.dpopSigner = dpopSigner
        self.resources = resources
    }

    /// §2.2.1: "N_A" is the token_type of a token that is not an access token.
    var isAccessTokenType: Bool {
        ASCII.equalsIgnoringCase(tokenType.utf8, "bearer".utf8) || ASCII.equalsIgnoringCase(tokenType.utf8, "dpop".utf8)
    }

    /// The issued token as the tokens of an auth state, which refreshes them through the client: only an
    /// access token (`issued_token_type` of §3's access_token, `token_type` Bearer or DPoP) that came with a
    /// refresh token (§2.2.1: "refresh_token OPTIONAL"), since without one the state could only expire.
    /// Once: a second state would share the refresh token, which a provider that rotates it honours once
    /// (RFC 9700 §4.14.2).
    public func authState() throws(TelenoridError) -> AuthState {
        guard issuedTokenType == TokenTypeIdentifier.accessToken, isAccessTokenType else {
            throw TelenoridError(
                .invalidArgument,
                "the issued token is not an access token (issued_token_type \(DisplayText.escaping(issuedTokenType)), "
                    + "token_type \(DisplayText.escaping(tokenType))): it can't become an auth state")
        }
        guard let refreshToken else {
            throw TelenoridError(
                .invalidArgument, "the issued access token came without a refresh token: it can't become an auth state")
        }
        let first = madeAuthState.withLock { made -> Bool in
            let first = !made
            made = true
            return first
        }
        guard first else { throw TelenoridError(.consumed, "this issued token already became an auth state") }
        let tokens = TokenSet(
            accessToken: token, tokenType: tokenType, accessTokenExpiresAt: expiresAt, refreshToken: refreshToken,
            idToken: nil, scope: scope, dpopSigner: dpopSigner, authorizationDetails: nil, resources: resources)
        return client.authState(tokens)
    }
}

extension OIDCClient {
    /// Exchanges a token (RFC 8693 §2.1): a POST of grant_type token-exchange to the token endpoint with the
    /// client's authentication as configured, and a DPoP proof when the client makes DPoP keys or has the
    /// host's DPoP signer (RFC 9449 §5). The provider's refusal (§2.2.2: `invalid_request`,
    /// `invalid_target`...) is thrown as it came.
    public func exchangeToken(_ request: TokenExchangeRequest) throws(TelenoridError) -> IssuedToken {
        try exchangeToken(request, what: "token exchange", sendingClientID: false)
    }

    /// `sendingClientID`: the form names the client even where its authentication does not (a header, an
    /// assertion), as a profile may require (OpenID Connect Native SSO 1.0 §4.2).
    func exchangeToken(_ request: TokenExchangeRequest, what: String, sendingClientID: Bool) throws(TelenoridError)
        -> IssuedToken
    {
        let parameters = request.snapshot
        var grant = FormParameters()
        try grant.append("grant_type", TokenExchangeRequest.grantType)
        grant.appendRepeated("resource", parameters.resources)
        grant.appendRepeated("audience", parameters.audiences)
        if let scope = parameters.scope { try grant.append("scope", scope) }
        if let type = parameters.requestedTokenType { try grant.append("requested_token_type", type) }
        try grant.appendSecret("subject_token", parameters.subjectToken)
        try grant.append("subject_token_type", parameters.subjectTokenType)
        if let actor = parameters.actorToken, let type = parameters.actorTokenType {
            try grant.appendSecret("actor_token", actor)
            try grant.append("actor_token_type", type)
        }
        if sendingClientID {
            switch configuration.clientAuthMethod {
            case .none, .clientSecretPost: break  // client_id is in the form already
            default: try grant.append("client_id", configuration.clientID)
            }
        }
        let signer = try newSignInSigner()
        let answer = try tokenEndpointAnswer(
            to: try endpoint(.tokenEndpoint), proofBy: signer, during: what, finishOnceSent: false,
            secretMembers: IssuedToken.secretMembers
        ) { () throws(TelenoridError) in grant }
        let issued = try IssuedToken(
            answer.object, secrets: answer.secrets, client: self, receivedAt: clock(), dpopSigner: signer,
            resources: parameters.resources)
        // An issued access token must be usable with the key that asked (RFC 9449 §5); "N_A" binds nothing.
        if issued.isAccessTokenType { try checkTokenType(issued.tokenType, proofSent: signer != nil, during: what) }
        Log.info(
            "token.exchanged", "\(what) issued a token of type \(DisplayText.escaping(issued.issuedTokenType))")
        return issued
    }
}
