/// A configured client talking to one provider: discovery, keys and every token-endpoint call. Share one
/// per provider between threads: it holds the HTTP connection cache and the metadata and key caches.
public final class OIDCClient: Sendable {
    public let configuration: ClientConfiguration
    let transport: any HTTPTransport
    /// The local clock plus the configured offset.
    public let clock: Clock
    /// What the client learns, is given or makes after it is made, behind one lock: each field is only
    /// copied out or swapped under it, never used while it is held, so one lock serves them all (where a
    /// lock each, and the caches made up front, cost every client seventeen allocations more).
    private struct Held {
        var discovered: Discovered?
        var dpopHostKeySigner: HostKeySigner?
        var clientSigner: HostKeySigner?
        /// Code exchanges a cancel came too late to stop: their states, until the callback is exchanged again.
        var keptExchanges: [(callback: AuthorizationCallback, state: AuthState)] = []
        // Made on first use (each holds locks of its own): many clients never validate an ID token, use
        // DPoP or poll.
        var keys: KeySetCache?
        var dpopNonces: DPoPNonces?
        var sleeps: CancellableSleeps?
    }
    private let held: Locked<Held>

    /// Discovered metadata and when it was fetched, boxed: a read under the lock takes one reference rather
    /// than copying every field, and a client whose endpoints are all configured holds no room for it.
    private final class Discovered: Sendable {
        let metadata: ProviderMetadata
        let fetchedAt: Int64
        init(_ metadata: ProviderMetadata, fetchedAt: Int64) {
            self.metadata = metadata
            self.fetchedAt = fetchedAt
        }
    }

    public init(
        configuration: ClientConfiguration, transport: (any HTTPTransport)? = nil,
        clock: @escaping Clock = SystemClock.now, sleeps: CancellableSleeps? = nil
    ) throws(TelenoridError) {
        self.configuration = configuration
        held = Locked(Held(sleeps: sleeps))
        if let transport {
            self.transport = transport
        } else {
            self.transport = try CurlTransport(settings: configuration.http)
        }
        let offset = configuration.clockOffsetSeconds
        if offset == 0 {
            self.clock = clock  // as given: no closure context per client
        } else {
            self.clock = { clock() &+ offset }
        }
    }

    /// The provider's signing keys (`jwks_uri`), cached.
    var keys: KeySetCache {
        held.withLock { held in
            if let keys = held.keys { return keys }
            let keys = KeySetCache(maxAge: configuration.jwksMaxAgeSeconds)
            held.keys = keys
            return keys
        }
    }

    /// The latest `DPoP-Nonce` of each server this client talks to (RFC 9449 §8, §9).
    var dpopNonces: DPoPNonces {
        held.withLock { held in
            if let nonces = held.dpopNonces { return nonces }
            let nonces = DPoPNonces()
            held.dpopNonces = nonces
            return nonces
        }
    }

    /// The sleeps of the grants that poll (RFC 8628, CIBA), ended by `cancel` like the transfers. A cancel
    /// that comes before they are made finds no sleep under way, as one between two sleeps does.
    var sleeps: CancellableSleeps {
        held.withLock { held in
            if let sleeps = held.sleeps { return sleeps }
            let sleeps = CancellableSleeps()
            held.sleeps = sleeps
            return sleeps
        }
    }

    /// Ends every HTTP transfer of this client under way now (discovery, key sets, token, userinfo,
    /// revocation and pushed requests, its auth states' refreshes included) and every polling wait (RFC 8628,
    /// CIBA) with `.cancelled`, from any thread; calls that start later run normally. Nothing a cancelled
    /// call would have changed is changed, except that a refresh or code exchange whose request may have
    /// left is finished first and its tokens kept (`HTTPRequest.finishOnceSent`).
    public func cancel() {
        transport.cancel()
        held.withLock { $0.sleeps }?.cancel()
    }

    /// A DPoP signer the host holds (a key in Android Keystore, the Secure Enclave, an HSM), used for every
    /// sign-in from now on instead of keys the library makes; nil goes back to `dpop_signing_alg`'s keys.
    /// Auth states bound to a host key are restored only while the same key is set. The signer set before
    /// is retired (`HostKeySigner.retire`): the states and pending authorizations bound to it then sign with
    /// the new one if it is the same key, else their requests fail. Under the FAPI 2.0 profile its
    /// algorithm must be one the profile allows.
    public func setDPoPSigner(_ signer: HostKeySigner?) throws(TelenoridError) {
        try replace(with: signer, role: "DPoP signer") { held, signer in
            defer { held.dpopHostKeySigner = signer }
            return held.dpopHostKeySigner
        }
    }

    var dpopHostKeySigner: HostKeySigner? { held.withLock { $0.dpopHostKeySigner } }

    /// The client's own key held by the host (RFC 7523 client assertions, RFC 9101 request objects), used
    /// instead of `client_private_key` from now on; nil goes back to the configured key. Under the FAPI 2.0
    /// profile its algorithm must be one the profile allows.
    public func setClientSigner(_ signer: HostKeySigner?) throws(TelenoridError) {
        try replace(with: signer, role: "client signer") { held, signer in
            defer { held.clientSigner = signer }
            return held.clientSigner
        }
    }

    var clientSigner: HostKeySigner? { held.withLock { $0.clientSigner } }

    /// Puts `signer` in its slot by `swap` (checked against the FAPI 2.0 profile first), then retires the
    /// one `swap` gives back: a request that took that one before the change may be about to sign with it.
    private func replace(
        with signer: HostKeySigner?, role: String,
        _ swap: (inout Held, HostKeySigner?) -> HostKeySigner?
    ) throws(TelenoridError) {
        if let signer, configuration.securityProfile == .fapi2 {
            try FAPI2Profile.checkHostKey(algorithm: signer.algorithm, role: role)
        }
        let previous = held.withLock { swap(&$0, signer) }
        if let previous, previous !== signer { previous.retire(replacedBy: signer, role: role) }
    }

    // MARK: Discovery

    /// How long discovered metadata is trusted before the next call that needs it fetches it again: a
    /// provider that moves an endpoint or adds `iss` support is noticed within a day by a long-lived client.
    public static let metadataLifetime: Int64 = 24 * 60 * 60

    /// The provider's metadata, fetched on first use and again once it is older than `metadataLifetime`:
    /// OIDC Discovery, completed from RFC 8414's document when the provider serves one. When a refetch
    /// fails for a transient reason (timeout, network, TLS, 5xx) the metadata already held is used, so a
    /// discovery outage does not stop token refreshes; any other failure (issuer mismatch, bad document)
    /// is reported.
    public func discover() throws(TelenoridError) -> ProviderMetadata {
        let now = clock()
        let cached = held.withLock { $0.discovered }
        if let cached, now >= cached.fetchedAt, now - cached.fetchedAt < OIDCClient.metadataLifetime {
            return cached.metadata
        }
        let metadata: ProviderMetadata
        do {
            metadata = try fetchMetadata()
        } catch {
            if let cached, error.isTransient { return cached.metadata }
            throw error
        }
        let fetched = Discovered(metadata, fetchedAt: now)
        held.withLock { $0.discovered = fetched }
        Log.info("discovery.fetched", "provider metadata of \(metadata.issuer)")
        return metadata
    }

    private func fetchMetadata() throws(TelenoridError) -> ProviderMetadata {
        guard let issuer = configuration.settings[.issuer] else {
            throw TelenoridError(.configuration, "issuer is required for discovery")
        }
        let urls = try ProviderMetadata.discoveryURLs(issuer: issuer)
        let response = try transport.send(HTTPRequest(url: urls.openid, headers: [("Accept", "application/json")]))
        guard response.status == 200 else {
            throw OAuthErrorResponse.unexpectedStatus(
                response, "discovery at \(urls.openid) answered HTTP \(response.status)", now: clock())
        }
        var metadata = try ProviderMetadata(json: response.body, expectedIssuer: issuer)
        // RFC 8414 is consulted only for what OIDC left out; its absence is normal.
        if metadata.endpoints[.revocationEndpoint] == nil || metadata.codeChallengeMethods.isEmpty {
            for url in urls.oauth == urls.oauthAppended ? [urls.oauth] : [urls.oauth, urls.oauthAppended] {
                let oauth: HTTPResponse
                do {
                    oauth = try transport.send(HTTPRequest(url: url, headers: [("Accept", "application/json")]))
                } catch let error where error.kind == .cancelled {
                    throw error
                } catch {
                    continue
                }
                if oauth.status == 200, let extra = try? ProviderMetadata(json: oauth.body, expectedIssuer: issuer) {
                    metadata = metadata.filling(from: extra)
                    break
                }
            }
        }
        return metadata
    }

    /// The metadata if discovery ran, without fetching.
    var metadata: ProviderMetadata? { held.withLock { $0.discovered?.metadata } }

    /// The configuration with every endpoint the host did not set filled in from discovery, and what the
    /// provider requires of authorization requests, so a request made from it knows it must be built here.
    public func effectiveConfiguration() throws(TelenoridError) -> ClientConfiguration {
        var settings = configuration.settings
        let metadata = try discover()
        for (setting, url) in metadata.endpoints where settings[setting] == nil { settings[setting] = url }
        return try ClientConfiguration(
            settings, providerRequiresPush: metadata.requirePushedAuthorizationRequests,
            providerRequiresSignedRequests: metadata.requireSignedRequestObject)
    }

    /// An endpoint: the one configured, else the discovered one (discovering on first use).
    func endpoint(_ setting: ClientConfiguration.Setting) throws(TelenoridError) -> String {
        if let explicit = configuration.settings[setting] { return explicit }
        guard let value = try discover().endpoints[setting] else {
            throw TelenoridError(.configuration, "the provider has no \(setting.name) and none is configured")
        }
        return value
    }

    // MARK: Token endpoint

    /// POSTs a grant to the token endpoint with the client's authentication (and a DPoP proof by
    /// `signer`) and returns the parsed token response, or the provider's OAuth error.
    func tokenRequest(
        _ grant: FormParameters, to url: String, proofBy signer: DPoPSigner?,
        during what: String
    ) throws(TelenoridError) -> TokenResponse {
        try tokenRequest(grant, to: url, proofBy: signer, during: what, finishOnceSent: false).tokens
    }

    /// The same, for a grant whose answer must not be lost once it may have left (a code exchange, a
    /// refresh): a cancel after that point lets the answer come (`HTTPRequest.finishOnceSent`), and
    /// `cancelledAfterSending` says the caller must keep the tokens and then report the cancel.
    func tokenRequest(
        _ grant: FormParameters, to url: String, proofBy signer: DPoPSigner?,
        during what: String, finishOnceSent: Bool
    ) throws(TelenoridError) -> (tokens: TokenResponse, cancelledAfterSending: Bool) {
        try tokenRequest(to: url, proofBy: signer, during: what, finishOnceSent: finishOnceSent) {
            () throws(TelenoridError) in grant
        }
    }

    /// The same, with the grant's members made afresh for each attempt (`grant`): a DPoP nonce retry sends a
    /// new single-use assertion (RFC 7523 §3 `jti`) as it sends a new client assertion.
    func tokenRequest(
        to url: String, proofBy signer: DPoPSigner?, during what: String, finishOnceSent: Bool,
        grant: () throws(TelenoridError) -> FormParameters
    ) throws(TelenoridError) -> (tokens: TokenResponse, cancelledAfterSending: Bool) {
        let answer = try tokenEndpointAnswer(
            to: url, proofBy: signer, during: what, finishOnceSent: finishOnceSent,
            secretMembers: TokenResponse.secretMembers, grant: grant)
        let tokens = try TokenResponse(answer.object, secrets: answer.secrets)
        try checkTokenType(tokens.tokenType, proofSent: signer != nil, during: what)
        return (tokens, answer.cancelledAfterSending)
    }

    /// The same POST, answered by a JSON object that is read by its grant's own rules (a token exchange's,
    /// RFC 8693 §2.2.1): `secretMembers` are kept out of the object, in wiping storage.
    func tokenEndpointAnswer(
        to url: String, proofBy signer: DPoPSigner?, during what: String, finishOnceSent: Bool,
        secretMembers: Set<String>, grant: () throws(TelenoridError) -> FormParameters
    ) throws(TelenoridError) -> (object: JSONObject, secrets: [String: SecretBytes], cancelledAfterSending: Bool) {
        let response = try send(proofBy: signer) { () throws(TelenoridError) in
            var request = try authenticatedRequest(url: url, parameters: try grant())
            request.finishOnceSent = finishOnceSent
            return request
        }
        let (object, secrets) = try OAuthErrorResponse.jsonObject(
            from: response, during: what, now: clock(), secretMembers: secretMembers)
        return (object, secrets, response.cancelledAfterSending)
    }

    /// Exchanges the code of a validated callback (and only that) for tokens, validates the ID token, and
    /// gives the auth state of the signed-in user.
    ///
    /// A cancel (`cancel`) after the code may have left does not abandon the exchange: the answer is awaited
    /// within the transfer's timeout, and when it brought valid tokens their auth state is kept for this
    /// callback and `.cancelled` thrown; exchanging the same callback again hands that state out without a
    /// request (once). A cancel before the request was written ends it at once, and the callback may be
    /// exchanged again.
    public func exchangeCode(_ callback: AuthorizationCallback) throws(TelenoridError) -> AuthState {
        if let kept = takeKeptExchange(of: callback) { return kept }
        let pending = callback.pending
        guard pending.configuration.clientID == configuration.clientID,
            pending.redirect.string == configuration.redirect?.string
        else {
            throw TelenoridError(.configuration, "the callback belongs to another client or redirect URI")
        }
        // Resolving the token endpoint first runs discovery when needed, so the RFC 9207 promise below is
        // known before the code leaves.
        let tokenURL = try endpoint(.tokenEndpoint)
        if metadata?.authorizationResponseIssParameterSupported == true && callback.parameters["iss"] == nil {
            throw TelenoridError(.issuerMismatch, "the provider always sends iss (RFC 9207) but the callback had none")
        }
        var grant = FormParameters()
        try grant.append("grant_type", "authorization_code")
        try grant.append("code", callback.code)
        try grant.append("redirect_uri", pending.redirect.string)
        try grant.appendSecret("code_verifier", pending.pkce.verifier)
        // RFC 8707 §2.2: the resources the token is for, as the authorization request named them.
        grant.appendRepeated("resource", pending.resources)
        // RFC 9396 §6.1: only when the host asked for particular details; without them the provider decides.
        if let details = pending.tokenAuthorizationDetails { try grant.append("authorization_details", details.text) }
        // The key the request bound the code to (RFC 9449 §10), else a new sign-in key.
        let signer: DPoPSigner?
        if let bound = pending.dpopSigner {
            signer = bound
        } else if let thumbprint = pending.hostKeyThumbprint {
            signer = try dpopHostKeySigner(forThumbprint: thumbprint, "the pending authorization")
        } else {
            signer = try newSignInSigner()
        }
        guard callback.markExchanged() else {
            throw TelenoridError(.consumed, "this callback's code was already exchanged")
        }
        let response: TokenResponse
        let cancelledAfterSending: Bool
        do {
            (response, cancelledAfterSending) = try tokenRequest(
                grant, to: tokenURL, proofBy: signer, during: "code exchange", finishOnceSent: true)
        } catch {
            // A request that never left leaves the code unseen by the provider: the host may try again.
            if error.requestNotSent { callback.unmarkExchanged() }
            throw error
        }
        let now = clock()
        if let idToken = response.idToken {
            _ = try validateIDToken(
                idToken,
                expectations: .init(
                    nonce: pending.nonce, maxAge: pending.maxAge.flatMap { Int64($0) },
                    accessToken: response.accessToken, previous: nil, essentialACR: pending.essentialACRValues,
                    deviceSecret: response.deviceSecret))
        } else if (response.scope ?? pending.requestedScope).split(separator: " ").contains("openid") {
            throw TelenoridError(.invalidResponse, "the token response has no id_token although openid was requested")
        }
        var tokens = TokenSet(response: response, receivedAt: now, previous: nil)
        tokens.dpopSigner = signer
        tokens.resources = pending.resources
        Log.info("token.exchanged", "code exchanged for \(signer == nil ? "bearer" : "DPoP-bound") tokens")
        let state = authState(tokens)
        guard !cancelledAfterSending else {
            keepExchange(state, of: callback)
            throw TelenoridError(
                .cancelled,
                "the code exchange was cancelled after the code was sent; its tokens are kept: exchange the same "
                    + "callback again to get the signed-in state")
        }
        return state
    }

    /// How many exchanges cancelled after sending are kept for their callbacks; an older one is dropped
    /// (its host never asked again).
    static let keptExchangeLimit = 4

    private func keepExchange(_ state: AuthState, of callback: AuthorizationCallback) {
        held.withLock { held in
            if held.keptExchanges.count >= OIDCClient.keptExchangeLimit { held.keptExchanges.removeFirst() }
            held.keptExchanges.append((callback, state))
        }
    }

    private func takeKeptExchange(of callback: AuthorizationCallback) -> AuthState? {
        held.withLock { held -> AuthState? in
            guard let position = held.keptExchanges.firstIndex(where: { $0.callback === callback }) else {
                return nil
            }
            return held.keptExchanges.remove(at: position).state
        }
    }

    /// An auth state of this client's, refreshing through it.
    func authState(_ tokens: TokenSet?) -> AuthState {
        AuthState(
            tokens: tokens, refresher: self, clock: clock, refreshMarginSeconds: configuration.refreshMarginSeconds,
            issuer: configuration.settings[.issuer], clientID: configuration.clientID)
    }

    // MARK: Userinfo, revocation, logout

    /// The userinfo response as JSON claims; a signed (application/jwt) response is verified first. Its
    /// `sub` must be the ID token's (OIDC Core §5.3.2). A refused access token is `.authorizationError`
    /// with HTTP status 401 (or 403) and the challenge's `error` (RFC 6750 §3), for the auth state to act on.
    public func userinfo(_ tokens: TokenSet) throws(TelenoridError) -> JSONObject {
        let url = try endpoint(.userinfoEndpoint)
        let response = try send(proofBy: tokens.resourceSigner, accessToken: tokens.accessToken) {
            HTTPRequest(
                url: url, headers: [("Accept", "application/json, application/jwt")],
                authorization: tokens.authorization)
        }
        let claims: JSONObject
        if response.status == 200 && response.contentType == "application/jwt" {
            claims = try verifySignedUserinfo(String(decoding: response.body, as: UTF8.self))
        } else if response.status == 401 || response.status == 403 {
            throw OIDCClient.refusedToken(response, during: "userinfo")
        } else {
            claims = try OAuthErrorResponse.jsonObject(from: response, during: "userinfo", now: clock()).object
        }
        guard let sub = claims["sub"]?.stringValue else {
            throw TelenoridError(.invalidResponse, "userinfo has no sub")
        }
        if let expected = tokens.idTokenClaims?["sub"]?.stringValue, expected != sub {
            throw TelenoridError(.tokenInvalid, "userinfo's sub is not the ID token's (OIDC Core §5.3.2)")
        }
        return claims
    }

    /// RFC 6750 §3: a resource server puts its error in WWW-Authenticate (a Bearer or, RFC 9449 §7.1, a
    /// DPoP challenge), not the body; a bodyless 401 without a challenge refuses the token all the same.
    static func refusedToken(_ response: HTTPResponse, during what: String) -> TelenoridError {
        let challenge = response.header("www-authenticate").flatMap { value in
            AuthenticationChallenge.parse(value).first { $0.scheme == "bearer" || $0.scheme == "dpop" }
        }
        let code = challenge?.parameter("error")
        let description = challenge?.parameter("error_description")
        return TelenoridError(
            .authorizationError,
            "\(what) refused the access token: HTTP \(response.status)\(code.map { " \($0)" } ?? "")",
            oauthError: code, oauthErrorDescription: description,
            oauthErrorURI: challenge?.parameter("error_uri"), httpStatus: response.status)
    }

    /// Revokes a token (RFC 7009), with a DPoP proof by `signer` when the token was bound to it. The
    /// provider answers 200 also for tokens it no longer knows.
    public func revoke(_ token: SecretBytes, hint: String?, proofBy signer: DPoPSigner? = nil) throws(TelenoridError) {
        let url = try endpoint(.revocationEndpoint)
        var parameters = FormParameters()
        try parameters.appendSecret("token", token)
        if let hint { try parameters.append("token_type_hint", hint) }
        let response = try send(proofBy: signer) { () throws(TelenoridError) in
            try authenticatedRequest(url: url, parameters: parameters)
        }
        guard response.status == 200 else {
            throw OAuthErrorResponse.error(from: response, during: "revocation", now: clock())
        }
    }

    /// The RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0 §2) to open in the browser.
    public func endSessionURL(idTokenHint: String?, postLogoutRedirectURI: String?, state: String?)
        throws(TelenoridError) -> String
    {
        let endpoint = try endpoint(.endSessionEndpoint)
        var parameters = FormParameters()
        if let idTokenHint { try parameters.append("id_token_hint", idTokenHint) }
        try parameters.append("client_id", configuration.clientID)
        if let postLogoutRedirectURI { try parameters.append("post_logout_redirect_uri", postLogoutRedirectURI) }
        if let state { try parameters.append("state", state) }
        return parameters.encoded(after: endpoint + (endpoint.containsByte(UInt8(ascii: "?")) ? "&" : "?"))
    }
}

extension OIDCClient: TokenRefresher {
    /// One refresh round trip (RFC 6749 §6). A new ID token must name the same issuer, subject and
    /// audience as the first (OIDC Core §12.2).
    public func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet {
        try refreshFinishingOnceSent(tokens).tokens
    }

    /// A refresh whose request, once it may have left, is finished despite a cancel: the provider may have
    /// rotated the refresh token for it (RFC 9700 §4.14.2), so its answer must be kept.
    public func refreshFinishingOnceSent(_ tokens: TokenSet) throws(TelenoridError) -> (
        tokens: TokenSet, cancelledAfterSending: Bool
    ) {
        guard let refreshToken = tokens.refreshToken else {
            throw TelenoridError(.notSignedIn, "there is no refresh token")
        }
        var grant = FormParameters()
        try grant.append("grant_type", "refresh_token")
        try grant.appendSecret("refresh_token", refreshToken)
        grant.appendRepeated("resource", tokens.resources)
        let response: TokenResponse
        let cancelledAfterSending: Bool
        do {
            (response, cancelledAfterSending) = try tokenRequest(
                grant, to: try endpoint(.tokenEndpoint), proofBy: tokens.dpopSigner, during: "refresh",
                finishOnceSent: true)
        } catch {
            throw OIDCClient.refreshVerdict(error)
        }
        if let idToken = response.idToken {
            _ = try validateIDToken(
                idToken,
                expectations: .init(
                    nonce: nil, maxAge: nil, accessToken: response.accessToken,
                    previous: tokens.idTokenClaims, deviceSecret: response.deviceSecret))
        }
        return (TokenSet(response: response, receivedAt: clock(), previous: tokens), cancelledAfterSending)
    }

    /// Revoking the refresh token ends the grant (RFC 7009 §2.1); without one, the access token is all
    /// there is to revoke.
    public func revokeGrant(_ tokens: TokenSet) throws(TelenoridError) {
        if let refreshToken = tokens.refreshToken {
            try revoke(refreshToken, hint: "refresh_token", proofBy: tokens.dpopSigner)
        } else {
            try revoke(tokens.accessToken, hint: "access_token", proofBy: tokens.dpopSigner)
        }
    }
}

extension OIDCClient {
    /// Whether a failed refresh means the grant is gone. Only the token endpoint's own 4xx answers judge
    /// it (5xx, 429 and 3xx are `.temporarilyUnavailable` by then; the client's own rejection is
    /// `.clientRejected`): `invalid_grant`, or a 400/401 without an OAuth error at all (glewlwyd answers a
    /// dead refresh token with a bodyless 400). Anything else leaves the grant as it was.
    static func refreshVerdict(_ error: TelenoridError) -> TelenoridError {
        let refused: Bool
        switch error.kind {
        case .authorizationError: refused = error.oauthError == "invalid_grant"
        case .httpStatus: refused = error.httpStatus == 400 || error.httpStatus == 401
        default: refused = false
        }
        guard refused else { return error }
        var lost = error
        lost.kind = .authorizationLost
        lost.message = "signed out: the provider refused the refresh token: \(error.message)"
        return lost
    }

    /// An auth state from `AuthState.serialized()`, refreshing through this client.
    public func restoreAuthState(_ serialized: SecretBytes) throws(TelenoridError) -> AuthState {
        let tokens = try AuthState.restoredTokens(
            serialized, issuer: configuration.settings[.issuer],
            clientID: configuration.clientID, refresher: self)
        return authState(tokens)
    }

    /// The auth state kept in `store`, bound to it: signed out when the store holds nothing yet.
    public func openAuthState(_ store: any AuthStateStore) throws(TelenoridError) -> AuthState {
        let state = try exclusively(in: store) { () throws(TelenoridError) -> AuthState in
            if let serialized = try store.load() {
                do throws(TelenoridError) { return try restoreAuthState(serialized) } catch {
                    throw store.unreadable(error)
                }
            }
            let empty = authState(nil)
            try store.save(empty.serialized())
            return empty
        }
        state.attach(to: store)
        return state
    }
}
