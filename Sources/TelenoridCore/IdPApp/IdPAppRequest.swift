/// The request a service-provider (SP) app sends an identity-provider (IdP) app, named as in the Salesforce
/// Mobile SDK identity provider flow: everything the IdP app needs to ask the provider for a code on the
/// SP's behalf, and nothing secret. The SP keeps its PKCE verifier; only the S256 challenge travels.
public struct IdPAppRequest: Sendable, Equatable {
    public let clientID: String
    public let codeChallenge: String
    public let redirectURI: String
    /// Space-free scope names; comma-separated on the wire (`scopes`), space-separated towards the provider.
    public let scopes: [String]
    public let userHint: String?
    public let loginHost: String?
    public let state: String
    /// Not among the Salesforce Mobile SDK's fields: the SP's OIDC nonce, forwarded so the ID token the SP
    /// receives is bound to its own request (OIDC Core §3.1.2.1) even though another app started the
    /// authorization.
    public let nonce: String?

    static let names: Set<String> = [
        "oauth_client_id", "code_challenge", "oauth_redirect_uri", "scopes", "user_hint", "login_host", "state", "nonce"
    ]

    /// The SP side: the request for a pending authorization this app built (and keeps, with its verifier).
    public init(pending: PendingAuthorization, loginHost: String?, userHint: String?) throws(TelenoridError) {
        guard pending.pkceMethod == .s256 else {
            throw TelenoridError(.unsupported, "the IdP-app flow carries only an S256 code_challenge")
        }
        clientID = pending.configuration.clientID
        codeChallenge = pending.pkce.s256Challenge
        redirectURI = pending.redirect.string
        scopes = pending.requestedScope.split(separator: " ").map(String.init)
        // RFC 6749 allows a comma inside a scope name; on the comma-separated wire it would become two.
        guard !scopes.contains(where: { $0.utf8.contains(UInt8(ascii: ",")) }) else {
            throw TelenoridError(
                .unsupported, "a scope name with a comma can't be sent in the IdP-app request's scopes")
        }
        self.userHint = userHint
        self.loginHost = loginHost
        state = pending.state
        nonce = pending.nonce
    }

    /// The IdP side: parses and checks what an SP app sent. `callerRedirectURIs` are the redirect URIs the
    /// host app knows belong to the calling app (from its signature or package id); a request naming any
    /// other is refused, so one app can't have a code sent to another. Unknown parameters are ignored
    /// (RFC 6749 §3.1) and, as only the fields above are kept, never forwarded.
    public init(parameters: FormParameters, callerRedirectURIs: [String]) throws(TelenoridError) {
        try parameters.refuseRepeats(of: IdPAppRequest.names, in: "the IdP-app request")
        func required(_ name: String) throws(TelenoridError) -> String {
            guard let value = parameters[name], !value.isEmpty else {
                throw TelenoridError(.malformed, "the IdP-app request lacks \(name)")
            }
            return value
        }
        clientID = try required("oauth_client_id")
        codeChallenge = try required("code_challenge")
        // S256 challenges are BASE64URL(SHA-256) without padding: exactly 43 characters (RFC 7636 §4.2).
        guard codeChallenge.utf8.count == 43, codeChallenge.utf8.allSatisfy(IdPAppRequest.isBase64URL) else {
            throw TelenoridError(.malformed, "code_challenge must be 43 base64url characters (S256)")
        }
        let redirect = try required("oauth_redirect_uri")
        redirectURI = redirect
        let uri: URI
        do { uri = try URI(parsing: redirect) } catch {
            throw TelenoridError(.malformed, "oauth_redirect_uri is not an absolute URI: \(error.message)")
        }
        guard uri.fragment == nil else {
            throw TelenoridError(.malformed, "oauth_redirect_uri must not have a fragment (RFC 6749 §3.1.2)")
        }
        // Compared exactly: a trailing "/" or a changed escape is another URI (RFC 6749 §3.1.2.3: "simple
        // string comparison").
        guard callerRedirectURIs.contains(where: { $0.utf8.elementsEqual(redirect.utf8) }) else {
            throw TelenoridError(.redirectMismatch, "oauth_redirect_uri does not belong to the calling app")
        }
        let scopeList = try required("scopes")
        let scopeTokens = scopeList.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard scopeTokens.allSatisfy(IdPAppRequest.isScopeToken) else {
            throw TelenoridError(.malformed, "scopes must be a comma-separated list of scope names (RFC 6749 §3.3)")
        }
        scopes = scopeTokens
        state = try required("state")
        userHint = parameters["user_hint"]
        loginHost = parameters["login_host"]
        if let loginHost { try IdPAppRequest.checkLoginHost(loginHost) }
        nonce = parameters["nonce"]
    }

    /// The key-value pairs, known fields only: the Android intent bundle, or the URL's query.
    public var parameters: FormParameters {
        var out = FormParameters()
        func add(_ name: String, _ value: String?) { if let value { try? out.append(name, value) } }
        add("oauth_client_id", clientID)
        add("code_challenge", codeChallenge)
        add("oauth_redirect_uri", redirectURI)
        add("scopes", scopes.joined(separator: ","))
        add("user_hint", userHint)
        add("login_host", loginHost)
        add("state", state)
        add("nonce", nonce)
        return out
    }

    /// The request as a URL on the IdP app's custom scheme (iOS), e.g. `idpapp://authorize`.
    public func url(idpAppURI: String) throws(TelenoridError) -> String {
        try parameters.url(onAppURI: idpAppURI)
    }

    /// Parses a URL on the IdP app's scheme (iOS); `idpAppURI` is the app's own, which the URL must match.
    public init(url: String, idpAppURI: String, callerRedirectURIs: [String]) throws(TelenoridError) {
        let uri = try URI(parsing: url), expected = try URI(parsing: idpAppURI)
        guard uri.hasSameOriginAndPath(as: expected) else {
            throw TelenoridError(.redirectMismatch, "the request did not arrive at the IdP app's URI")
        }
        try self.init(
            parameters: FormParameters(parsing: (uri.query ?? "")[...]), callerRedirectURIs: callerRedirectURIs)
    }

    /// The authorization request the IdP app sends the provider for the SP: the SP's client id, redirect
    /// URI, state, nonce and challenge, `user_hint` as `login_hint`. The IdP app never holds a verifier,
    /// so only the SP can redeem the code.
    public func authorizationURL(authorizationEndpoint: String) throws(TelenoridError) -> String {
        let endpoint = try URI(parsing: authorizationEndpoint)
        guard endpoint.isSecureEndpoint, endpoint.fragment == nil else {
            throw TelenoridError(
                .insecure, "the authorization endpoint must be https (or http on loopback) without a fragment")
        }
        var query = FormParameters()
        func add(_ name: String, _ value: String?) { if let value { try? query.append(name, value) } }
        add("response_type", "code")
        add("client_id", clientID)
        add("redirect_uri", redirectURI)
        add("scope", scopes.joined(separator: " "))
        add("state", state)
        add("nonce", nonce)
        add("code_challenge", codeChallenge)
        add("code_challenge_method", "S256")
        add("login_hint", userHint)
        let separator = endpoint.query == nil ? "?" : "&"
        return query.encoded(after: authorizationEndpoint + separator)
    }

    /// The provider's redirect, intercepted by the IdP app, turned into the response for the SP. The state
    /// must be the SP's; an OAuth error is passed on to the SP as one.
    public func response(fromProviderRedirect redirect: String, loginHost: String) throws(TelenoridError)
        -> IdPAppResponse
    {
        let parameters = try FormParameters(
            redirect: redirect, arrivingAt: URI(parsing: redirectURI),
            mismatch: "the provider's redirect is not to the SP's redirect URI")
        guard let received = parameters["state"], Crypto.constantTimeEquals(received.utf8, state.utf8) else {
            throw TelenoridError(.stateMismatch, "the provider's redirect does not carry the SP's state")
        }
        try IdPAppRequest.checkLoginHost(loginHost)
        if let error = parameters["error"] {
            return IdPAppResponse(
                result: .error(error, description: parameters["error_description"]),
                loginHost: loginHost, state: state, issuer: parameters["iss"])
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw TelenoridError(.malformed, "the provider's redirect carries neither code nor error")
        }
        return IdPAppResponse(result: .code(code), loginHost: loginHost, state: state, issuer: parameters["iss"])
    }

    /// A scope-token is one or more of %x21 / %x23-5B / %x5D-7E (RFC 6749 §3.3). Tokens come from
    /// splitting at commas, so they never hold one.
    static func isScopeToken(_ token: String) -> Bool {
        !token.isEmpty
            && token.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || ASCII.isAlpha(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// A login host is `host` or `host:port`, nothing more: it names where to sign in, never a path.
    static func checkLoginHost(_ host: String, _ kind: TelenoridError.Kind = .malformed) throws(TelenoridError) {
        guard !host.isEmpty, let uri = try? URI(parsing: "https://" + host),
            uri.userInfo == nil, uri.path.isEmpty, uri.query == nil, uri.fragment == nil,
            uri.host?.isEmpty == false
        else {
            throw TelenoridError(kind, "login_host must be a host name, optionally with a port")
        }
    }
}
