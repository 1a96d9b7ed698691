/// An authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1) being put together. Building it draws
/// fresh secrets and gives a `PendingAuthorization`.
public struct AuthorizationRequest: Sendable {
    /// Parameters with a typed setter. Their names, and those the library always sends, can't be added
    /// as extra parameters.
    public enum Parameter: CaseIterable, Sendable {
        case scope, prompt, loginHint, uiLocales, acrValues, maxAge, alohaToken, claimsPurpose, responseMode
        /// OpenID CIBA Core 1.0 §7.1 (`id_token_hint` also OIDC Core §3.1.2.1).
        case loginHintToken, idTokenHint, bindingMessage, requestedExpiry

        public var name: String {
            switch self {
            case .scope: "scope"
            case .prompt: "prompt"
            case .loginHint: "login_hint"
            case .uiLocales: "ui_locales"
            case .acrValues: "acr_values"
            case .maxAge: "max_age"
            case .alohaToken: "aloha_token"
            case .claimsPurpose: "purpose"
            case .responseMode: "response_mode"
            case .loginHintToken: "login_hint_token"
            case .idTokenHint: "id_token_hint"
            case .bindingMessage: "binding_message"
            case .requestedExpiry: "requested_expiry"
            }
        }

        /// Parameters only a backchannel authentication request carries (CIBA Core §7.1), never the
        /// browser's authorization request, which has no use for them.
        public var isBackchannelOnly: Bool {
            self == .loginHintToken || self == .bindingMessage || self == .requestedExpiry
        }
    }

    static let ownedNames: Set<String> = Set([
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "claims", "requested_flow", "app_callback_uri", "request", "request_uri",
        "authorization_details", "dpop_jkt", "user_code"
    ]).union(Parameter.allCases.filter { $0 != .claimsPurpose }.map { $0.name })

    public let configuration: ClientConfiguration
    public private(set) var values: [Parameter: String] = [:]
    public private(set) var extras = FormParameters()
    public private(set) var claims = ClaimsRequest()
    public private(set) var appCallbackURI: String?
    public private(set) var pkceMethod: PKCE.Method = .s256
    /// Resource indicators (RFC 8707 §2), in the order they were added.
    public private(set) var resources: [String] = []
    public private(set) var authorizationDetails: AuthorizationDetails?
    /// The secret the user set up with the provider to keep others from starting backchannel
    /// authentications in their name (CIBA Core §7.1 `user_code`); sent only in those.
    public private(set) var userCode: SecretBytes?
    /// The authorization details the code exchange asks for (RFC 9396 §6.1): not in the URL.
    public private(set) var tokenAuthorizationDetails: AuthorizationDetails?
    /// The URL's unchanging part, made by the first build after a change and shared by copies of the
    /// request until the next change (every mutating method drops it first). A shared request is built
    /// from copies (`SharedAuthorizationRequest`), so the template lives in a box they share rather than
    /// in the value, behind a lock as they may be built on several threads at once.
    private var template = Locked<AuthorizationURLTemplate?>(nil)

    private mutating func changed() { template = Locked(nil) }

    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    public mutating func set(_ parameter: Parameter, _ value: String?) throws(TelenoridError) {
        changed()
        if let value {
            switch parameter {
            case .maxAge:
                guard !value.isEmpty, value.utf8.count <= 10, value.utf8.allSatisfy(ASCII.isDigit) else {
                    throw TelenoridError(.invalidArgument, "max_age must be a number of seconds (decimal digits)")
                }
            case .responseMode:
                guard value == "query" || value == "fragment" else {
                    throw TelenoridError(.invalidArgument, "response_mode must be \"query\" or \"fragment\"")
                }
            case .scope:
                guard !value.isEmpty else { throw TelenoridError(.invalidArgument, "scope must not be empty") }
            case .requestedExpiry:
                // CIBA Core §7.1: a positive integer of seconds.
                guard !value.isEmpty, value.utf8.count <= 10, value.utf8.allSatisfy(ASCII.isDigit),
                    value.utf8.contains(where: { $0 != UInt8(ascii: "0") })
                else {
                    throw TelenoridError(.invalidArgument, "requested_expiry must be a positive number of seconds")
                }
            default:
                break
            }
        }
        if parameter == .claimsPurpose {
            claims.purpose = value
        } else {
            values[parameter] = value
        }
    }

    public mutating func addParameter(_ name: String, _ value: String) throws(TelenoridError) {
        changed()
        guard !name.isEmpty else { throw TelenoridError(.invalidArgument, "a parameter needs a name") }
        if AuthorizationRequest.ownedNames.contains(name) {
            throw TelenoridError(
                .parameterConflict,
                """
                "\(DisplayText.escaping(name))" is set by the library or by its typed setter, \
                not as an extra parameter
                """
            )
        }
        do { try extras.append(name, value) } catch {
            throw TelenoridError(
                .parameterConflict, "extra parameter \"\(DisplayText.escaping(name))\" was already added")
        }
    }

    public mutating func addClaim(_ claim: ClaimsRequest.Claim, to target: ClaimsRequest.Target) throws(TelenoridError)
    {
        changed()
        // acr values are strings (OIDC Core §2). An essential acr's values are what the ID token's acr is
        // checked against (OIDC Core §5.5.1.1), so one that could never match is refused here.
        if claim.name == "acr" {
            let values = claim.values ?? claim.value.map { [$0] } ?? []
            guard claim.values?.isEmpty != true, values.allSatisfy({ $0.stringValue != nil }) else {
                throw TelenoridError(
                    .invalidArgument, "the acr claim's value or values must be strings (OIDC Core §2)")
            }
        }
        try claims.add(claim, to: target)
    }

    /// CIBA Core §7.1 `user_code`; nil removes it. Not part of the URL, so the template stays.
    public mutating func setUserCode(_ code: SecretBytes?) throws(TelenoridError) {
        if let code, code.count == 0 { throw TelenoridError(.invalidArgument, "user_code must not be empty") }
        userCode = code
    }

    /// Rich authorization request (RFC 9396 §2); nil removes it.
    public mutating func setAuthorizationDetails(_ details: AuthorizationDetails?) {
        changed()
        authorizationDetails = details
    }

    /// The `authorization_details` the code exchange's token request carries (RFC 9396 §6.1), e.g. a
    /// subset of those authorized; nil sends none and the provider decides. Never sent by default: the
    /// requested ones would be refused when the user consented to less. Not part of the URL, so the
    /// template stays.
    public mutating func setTokenAuthorizationDetails(_ details: AuthorizationDetails?) {
        tokenAuthorizationDetails = details
    }

    /// Adds a resource indicator (RFC 8707 §2): an absolute URI without a fragment. The parameter may
    /// repeat, one per resource the token is meant for; the same URI twice says nothing more and is refused.
    /// Resources added here go to the token endpoint too (§2.2); one added as an extra parameter, as hosts
    /// did before this setter, goes only into the authorization request.
    public mutating func addResource(_ uri: String) throws(TelenoridError) {
        changed()
        try Self.addResource(uri, to: &resources)
    }

    /// Appends `uri` to `resources` when it is a resource indicator (RFC 8707 §2: an absolute URI without a
    /// fragment) not in the list yet; the rule of every request that names resources.
    static func addResource(_ uri: String, to resources: inout [String]) throws(TelenoridError) {
        let parsed: URI
        do { parsed = try URI(parsing: uri) } catch {
            throw TelenoridError(.invalidArgument, "resource is not an absolute URI (RFC 8707 §2): \(error.message)")
        }
        guard parsed.fragment == nil else {
            throw TelenoridError(.invalidArgument, "resource must not have a fragment (RFC 8707 §2)")
        }
        guard !resources.contains(uri) else {
            throw TelenoridError(.invalidArgument, "resource \"\(uri)\" was already added")
        }
        resources.append(uri)
    }

    /// Vipps/MobilePay app-to-app (Vipps Login app-to-app): `requested_flow=app_to_app` only ever goes out together
    /// with the `app_callback_uri` the provider's app returns to.
    public mutating func setAppToApp(callbackURI: String) throws(TelenoridError) {
        changed()
        let uri: URI
        do { uri = try URI(parsing: callbackURI) } catch {
            throw TelenoridError(.invalidArgument, "app_callback_uri is not a valid URI: \(error.message)")
        }
        if uri.scheme == "http" && !uri.isLoopback {
            throw TelenoridError(.insecure, "app_callback_uri over plain http is allowed only on a loopback host")
        }
        appCallbackURI = callbackURI
    }

    public mutating func setPKCEMethod(_ method: PKCE.Method) throws(TelenoridError) {
        changed()
        if method == .plain && !configuration.allowPlainPKCE {
            throw TelenoridError(
                .unsupported,
                "PKCE method plain is refused unless the configuration sets allow_plain_pkce (RFC 7636 §7.2)")
        }
        pkceMethod = method
    }

    /// Draws state and nonce (32 random bytes each) and a PKCE verifier, and builds the URL.
    public func build() throws(TelenoridError) -> PendingAuthorization {
        if configuration.authorizationRequestsNeedClient {
            // Sent unpushed and unsigned, such a request would be refused by the provider, or quietly fall
            // short of what the host asked for.
            throw TelenoridError(
                .configuration,
                "this authorization request must be pushed (RFC 9126) or signed "
                    + "(RFC 9101), by the configuration, its security profile or the provider's metadata: "
                    + "build it through the client (telenorid_client_build_auth_request())")
        }
        let (state, nonce, pkce) = try Self.drawSecrets()
        return try build(state: state, nonce: nonce, pkce: pkce)
    }

    /// State, nonce and a PKCE verifier of 43 characters (RFC 7636 §4.1's recommendation) from one draw:
    /// one system call per sign-in rather than two.
    static func drawSecrets() throws(TelenoridError) -> (state: String, nonce: String, pkce: PKCE) {
        let length = PKCE.lengthRange.lowerBound
        var drawn: (String, String, PKCE)?
        try Crypto.withRandomBytes(64 + PKCE.randomByteCount(length: length)) { random in
            drawn = (
                Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[0..<32])),
                Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[32..<64])),
                PKCE(length: length, random: UnsafeRawBufferPointer(rebasing: random[64...]))
            )
        }
        // withRandomBytes returns only after running the closure, or throws. No result through it: each
        // result type would be another specialization of it in the library.
        return drawn!
    }

    /// Builds with given secrets; `build()` is the way in for hosts, this one serves tests and restore.
    /// With `dpop_signing_alg` set, the sign-in's DPoP key is made here, so that `dpop_jkt` can name it and
    /// the code exchange proves possession of it (a host's own signer is the client's: build through
    /// `OIDCClient.buildAuthorization` to use it).
    public func build(state: String, nonce: String, pkce: PKCE) throws(TelenoridError) -> PendingAuthorization {
        // Without a client there is no metadata to negotiate with: the host's first choice.
        guard let algorithm = configuration.dpopAlgorithms.first else {
            // No per-sign-in key, so no `dpop_jkt`: everything but the three secrets is in the template.
            let url = try urlTemplate().url(state: state, nonce: nonce, challenge: pkce.challenge(pkceMethod))
            return try pending(url: url, state: state, nonce: nonce, pkce: pkce, dpopSigner: nil)
        }
        let signer = DPoPSigner.key(try DPoPKey.generate(algorithm: algorithm))
        let query = try parameters(state: state, nonce: nonce, pkce: pkce, dpopSigner: signer)
        return try pending(
            url: Self.url(at: try authorizationEndpoint(), query), state: state, nonce: nonce, pkce: pkce,
            dpopSigner: signer)
    }

    /// The template of this request's URL, made now if no build since the last change made it. Two threads
    /// building at once may both make it; they make the same one.
    func urlTemplate() throws(TelenoridError) -> AuthorizationURLTemplate {
        if let made = template.withLock({ $0 }) { return made }
        var leading = FormParameters(capacity: 4),
            trailing = FormParameters(capacity: 10 + resources.count + extras.pairs.count)
        try appendLeadingParameters(to: &leading)
        appendTrailingParameters(to: &trailing, dpopThumbprint: nil)
        let made = AuthorizationURLTemplate(endpoint: try authorizationEndpoint(), leading: leading, trailing: trailing)
        template.withLock { $0 = made }
        return made
    }

    /// The authorization endpoint with `query` appended, after the endpoint's own query if it has one.
    static func url(at endpoint: String, _ query: FormParameters) -> String {
        query.encoded(after: endpoint + (endpoint.containsByte(UInt8(ascii: "?")) ? "&" : "?"))
    }

    func authorizationEndpoint() throws(TelenoridError) -> String {
        guard let endpoint = configuration.settings[.authorizationEndpoint] else {
            throw TelenoridError(.configuration, "authorization_endpoint is not configured")
        }
        return endpoint
    }

    /// Every parameter of the request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636 §4.3, and the
    /// host's), whether they go out in the URL or are pushed (RFC 9126).
    /// `dpop_jkt` (RFC 9449 §10) names `dpopSigner`'s key when the configuration binds the code to it.
    func parameters(state: String, nonce: String, pkce: PKCE, dpopSigner: DPoPSigner?) throws(TelenoridError)
        -> FormParameters
    {
        var query = FormParameters(capacity: 13 + resources.count + extras.pairs.count)
        try appendLeadingParameters(to: &query)
        query.appendUnique("state", state)
        query.appendUnique("nonce", nonce)
        query.appendUnique("code_challenge", pkce.challenge(pkceMethod))
        appendTrailingParameters(
            to: &query, dpopThumbprint: configuration.dpopBindAuthorizationCode ? dpopSigner?.thumbprint : nil)
        return query
    }

    // Names are unique by construction (owned names are refused as extras, and extras are unique), but
    // for `resource`, which RFC 8707 §2 repeats once per resource.

    /// The parameters before `state`.
    private func appendLeadingParameters(to query: inout FormParameters) throws(TelenoridError) {
        query.appendUnique("response_type", "code")
        query.appendUnique("client_id", configuration.clientID)
        query.appendUnique("redirect_uri", try configuration.requiredRedirect().string)
        query.appendUnique("scope", values[.scope] ?? configuration.scope)
    }

    /// The parameters after `code_challenge`.
    private func appendTrailingParameters(to query: inout FormParameters, dpopThumbprint: String?) {
        func add(_ name: String, _ value: String?) {
            if let value { query.appendUnique(name, value) }
        }
        add("code_challenge_method", pkceMethod.name)
        for parameter in Parameter.allCases
        where parameter != .scope && parameter != .claimsPurpose && !parameter.isBackchannelOnly {
            add(parameter.name, values[parameter])
        }
        if !claims.isEmpty { add("claims", JSON.serialize(claims.json)) }
        if let appCallbackURI {
            add("requested_flow", "app_to_app")
            add("app_callback_uri", appCallbackURI)
        }
        add("authorization_details", authorizationDetails?.text)
        add("dpop_jkt", dpopThumbprint)
        query.appendRepeated("resource", resources)
        for pair in extras.pairs { add(pair.name, pair.value) }
    }

    /// The pending authorization whose browser (or app) leg starts at `url`.
    func pending(url: String, state: String, nonce: String, pkce: PKCE, dpopSigner: DPoPSigner?)
        throws(TelenoridError) -> PendingAuthorization
    {
        PendingAuthorization(
            configuration: configuration, redirect: try configuration.requiredRedirect(), url: url, state: state,
            nonce: nonce,
            pkce: pkce, pkceMethod: pkceMethod, responseMode: values[.responseMode] ?? "query",
            maxAge: values[.maxAge], appCallbackURI: appCallbackURI,
            requestedScope: values[.scope] ?? configuration.scope, resources: resources,
            authorizationDetails: authorizationDetails, tokenAuthorizationDetails: tokenAuthorizationDetails,
            essentialACRValues: essentialACRValues,
            dpopSigner: dpopSigner, hostKeyThumbprint: nil)
    }

    /// The values an ID token's acr must take (OIDC Core §5.5.1.1) when the claims request asks for acr as
    /// essential in the ID token: empty when any value will do, nil when acr is not essential.
    var essentialACRValues: [String]? {
        guard let acr = claims.idToken.first(where: { $0.name == "acr" }), acr.essential == true else { return nil }
        // Strings only, as `addClaim` checked.
        return (acr.values ?? acr.value.map { [$0] } ?? []).compactMap { $0.stringValue }
    }
}
