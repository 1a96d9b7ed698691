/// An authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1) being put together. Building it draws
/// fresh secrets and gives a `PendingAuthorization`.
public struct AuthorizationRequest: Sendable {
    /// Parameters with a typed setter. Their names, and those the library always sends, can't be added
    /// as extra parameters.
    public enum Parameter: CaseIterable, Sendable {
        case scope, prompt, loginHint, uiLocales, acrValues, maxAge, alohaToken, claimsPurpose, responseMode

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
            }
        }
    }

    static let ownedNames: Set<String> = Set([
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "claims", "requested_flow", "app_callback_uri", "request", "request_uri",
    ]).union(Parameter.allCases.filter { $0 != .claimsPurpose }.map(\.name))

    public let configuration: ClientConfiguration
    public private(set) var values: [Parameter: String] = [:]
    public private(set) var extras = FormParameters()
    public private(set) var claims = ClaimsRequest()
    public private(set) var appCallbackURI: String?
    public private(set) var pkceMethod: PKCE.Method = .s256

    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    public mutating func set(_ parameter: Parameter, _ value: String?) throws(TelenoridError) {
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
        guard !name.isEmpty else { throw TelenoridError(.invalidArgument, "a parameter needs a name") }
        if AuthorizationRequest.ownedNames.contains(name) {
            throw TelenoridError(.parameterConflict,
                                 "\"\(name)\" is set by the library or by its typed setter, not as an extra parameter")
        }
        do { try extras.append(name, value) } catch {
            throw TelenoridError(.parameterConflict, "extra parameter \"\(name)\" was already added")
        }
    }

    public mutating func addClaim(_ claim: ClaimsRequest.Claim, to target: ClaimsRequest.Target) throws(TelenoridError) {
        try claims.add(claim, to: target)
    }

    /// Vipps/MobilePay app-to-app (Vipps Login app-to-app): `requested_flow=app_to_app` only ever goes out together
    /// with the `app_callback_uri` the provider's app returns to.
    public mutating func setAppToApp(callbackURI: String) throws(TelenoridError) {
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
        if method == .plain && !configuration.allowPlainPKCE {
            throw TelenoridError(.unsupported,
                                 "PKCE method plain is refused unless the configuration sets allow_plain_pkce (RFC 7636 §7.2)")
        }
        pkceMethod = method
    }

    /// Draws state and nonce (32 random bytes each) and a PKCE verifier, and builds the URL.
    public func build() throws(TelenoridError) -> PendingAuthorization {
        let (state, nonce) = try Self.drawStateAndNonce()
        return try build(state: state, nonce: nonce, pkce: PKCE())
    }

    static func drawStateAndNonce() throws(TelenoridError) -> (state: String, nonce: String) {
        // One draw for both: 256 bits each, and a system call fewer per sign-in.
        try Crypto.withRandomBytes(64) { random in
            (Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[0..<32])),
             Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[32..<64])))
        }
    }

    /// Builds with given secrets; `build()` is the way in for hosts, this one serves tests and restore.
    public func build(state: String, nonce: String, pkce: PKCE) throws(TelenoridError) -> PendingAuthorization {
        let query = parameters(state: state, nonce: nonce, pkce: pkce)
        return pending(url: Self.url(at: try authorizationEndpoint(), query), state: state, nonce: nonce, pkce: pkce)
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
    func parameters(state: String, nonce: String, pkce: PKCE) -> FormParameters {
        var query = FormParameters(capacity: 12 + extras.pairs.count)
        // Names are unique by construction: owned names are refused as extras, and extras are unique.
        func add(_ name: String, _ value: String?) {
            if let value { query.appendUnique(name, value) }
        }
        add("response_type", "code")
        add("client_id", configuration.clientID)
        add("redirect_uri", configuration.redirectURIString)
        add("scope", values[.scope] ?? configuration.scope)
        add("state", state)
        add("nonce", nonce)
        add("code_challenge", pkce.challenge(pkceMethod))
        add("code_challenge_method", pkceMethod.name)
        for parameter in Parameter.allCases where parameter != .scope && parameter != .claimsPurpose {
            add(parameter.name, values[parameter])
        }
        if !claims.isEmpty { add("claims", JSON.serialize(claims.json)) }
        if let appCallbackURI {
            add("requested_flow", "app_to_app")
            add("app_callback_uri", appCallbackURI)
        }
        for pair in extras.pairs { add(pair.name, pair.value) }
        return query
    }

    /// The pending authorization whose browser (or app) leg starts at `url`.
    func pending(url: String, state: String, nonce: String, pkce: PKCE) -> PendingAuthorization {
        PendingAuthorization(
            configuration: configuration, url: url, state: state, nonce: nonce,
            pkce: pkce, pkceMethod: pkceMethod, responseMode: values[.responseMode] ?? "query",
            maxAge: values[.maxAge], appCallbackURI: appCallbackURI,
            requestedScope: values[.scope] ?? configuration.scope)
    }
}
