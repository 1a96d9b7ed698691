/// A machine's own access token: asked for with the client's authentication alone (the client credentials
/// grant, RFC 6749 §4.4) or with a JWT assertion (the JWT bearer grant, RFC 7523 §2.1), kept, and asked for
/// again before it expires. Safe to share between threads: when several need a new token at once, one
/// request goes out and all of them get its outcome; bound to a store (`bind(to:)`), the same holds across
/// the processes sharing that store's record.
public final class ClientCredentials: Sendable {
    /// The grant a machine's token is asked for with.
    public enum Grant: Sendable {
        /// RFC 6749 §4.4: the client's authentication alone.
        case clientCredentials
        /// RFC 7523 §2.1 with an assertion the host made. An assertion is good for one request (§3, `jti`),
        /// so the token it brought can't be renewed: the holder then fails with `.consumed`.
        case givenAssertion(SecretBytes)
        /// RFC 7523 §2.1 with an assertion the library signs with the client's own key (`client_private_key`
        /// or the host's client signer) about `subject` (§3): a new one for each request, so the holder renews
        /// by itself.
        case signedAssertion(subject: String)
    }

    static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    public let client: OIDCClient
    public let grant: Grant
    /// The scope asked for (RFC 6749 §4.4.2, RFC 7523 §2.1); nil sends none, leaving it to the provider.
    public let scope: String?
    /// What signs the assertions of `.signedAssertion` when the host set no client signer: `client_private_key`,
    /// read here when the configuration did not (it reads the key only when its own authentication or requests
    /// sign with it).
    private let assertionKey: PrivateKey?

    private struct Held {
        var tokens: TokenSet?
        /// A resource server refused `tokens`' access token: the next call asks for a new one.
        var rejected = false
        /// Resource indicators (RFC 8707 §2): the token's intended audiences.
        var resources: [String] = []
        /// Where the token is shared with other processes (`bind(to:)`).
        var store: (any AuthStateStore)? = nil
    }
    private let held = Locked(Held())

    /// What only a token request reads and writes, kept by its gate.
    private struct Renewal {
        /// The DPoP key (RFC 9449) of this holder's tokens, made for its first request and kept for the rest.
        var signer: DPoPSigner? = nil
        /// A given assertion went out: it is not sent again.
        var assertionSpent = false
    }
    /// Held for the whole of a token request: the single-flight gate between this process's threads (a
    /// bound store's exclusive lock is the gate between processes).
    private let gate = Locked(Renewal())

    public init(client: OIDCClient, grant: Grant = .clientCredentials, scope: String?, resources: [String] = [])
        throws(TelenoridError)
    {
        switch grant {
        case .clientCredentials:
            // RFC 6749 §4.4: "The client credentials grant type MUST only be used by confidential clients."
            if case .none = client.configuration.clientAuthMethod {
                throw TelenoridError(
                    .configuration,
                    "the client credentials grant needs a client that authenticates (RFC 6749 §4.4); this one is public"
                )
            }
        case .givenAssertion(let assertion):
            // RFC 7523 §2.1: "The value of the "assertion" parameter MUST contain a single JWT."
            guard !assertion.bytes.isEmpty, assertion.bytes.allSatisfy(ASCII.isTokenByte) else {
                throw TelenoridError(.invalidArgument, "the assertion is not a JWT (RFC 7523 §2.1)")
            }
        case .signedAssertion(let subject):
            if subject.isEmpty { throw TelenoridError(.invalidArgument, "subject is empty (RFC 7523 §3)") }
        }
        let configuration = client.configuration
        if case .signedAssertion = grant {
            if let key = configuration.clientPrivateKey {
                assertionKey = key
            } else if let text = configuration.settings.clientPrivateKey, text.count > 0 {
                assertionKey = try ClientConfiguration.clientKey(
                    text, keyID: configuration.settings[.clientKeyID], profile: configuration.securityProfile)
            } else {
                assertionKey = nil
            }
            // The key is needed at every request: a client without one is refused now, not at the first token.
            _ = try ClientCredentials.signingKey(client, assertionKey)
        } else {
            assertionKey = nil
        }
        if let scope, scope.isEmpty { throw TelenoridError(.invalidArgument, "scope is empty") }
        self.client = client
        self.grant = grant
        self.scope = scope
        var checked: [String] = []
        for resource in resources { try AuthorizationRequest.addResource(resource, to: &checked) }
        held.withLock { $0.resources = checked }
    }

    /// Adds a resource indicator (RFC 8707 §2): an absolute URI without a fragment, not added before. A
    /// token held was asked for without it: the next `freshTokens` asks for a new one.
    public func addResource(_ uri: String) throws(TelenoridError) {
        try held.withLock { (held) throws(TelenoridError) in
            try AuthorizationRequest.addResource(uri, to: &held.resources)
            held.tokens = nil
        }
    }

    public var resources: [String] { held.withLock { $0.resources } }

    /// Keeps the token in `store` from now on, for every process that binds a holder of the same grant
    /// (`machineGrant`) to the same record: a new token is asked for under the record's exclusive lock, by
    /// one process at a time, after a look at what the record holds; a token another process got and that
    /// is still fresh is used instead. A record of another grant, scope or resources is not used, and is
    /// replaced by this holder's next token; one saved for another issuer or client is `.configuration` (as
    /// restoring an auth state). A given assertion is the host's alone: `.invalidArgument`.
    public func bind(to store: any AuthStateStore) throws(TelenoridError) {
        guard machineGrant != nil else {
            throw TelenoridError(
                .invalidArgument, "a token from a given assertion is not shared through a store: it can't be renewed")
        }
        held.withLock { $0.store = store }
    }

    /// The tokens, valid for at least the configuration's refresh margin: the held ones, else the bound
    /// store's, else new ones. The response has no refresh token to use (RFC 6749 §4.4.3, RFC 7523 §2.1 ask
    /// the provider not to issue one): renewing is asking again.
    public func freshTokens() throws(TelenoridError) -> TokenSet {
        if let usable = usable() { return usable }
        return try gate.withLock { (renewal: inout Renewal) throws(TelenoridError) -> TokenSet in
            // Another thread may have renewed them while this one waited at the gate.
            if let usable = usable() { return usable }
            guard let store = held.withLock({ $0.store }) else { return try renewed(&renewal) }
            return try exclusively(in: store) { () throws(TelenoridError) -> TokenSet in
                if let stored = try storedTokens(store) {
                    held.withLock {
                        $0.tokens = stored; $0.rejected = false
                    }
                    return stored
                }
                let tokens = try renewed(&renewal)
                try store.save(client.authState(tokens).serialized(refreshStartedAt: nil, machineGrant: machineGrant))
                return tokens
            }
        }
    }

    /// The `Authorization` and `DPoP` header values for one request to a resource server, with a fresh
    /// token (as `ClientAuthState.requestHeaders`): a DPoP-bound token (RFC 9449 §7) goes with a proof for
    /// `method` and `url` made with its key.
    public func requestHeaders(method: String, url: String, resourceNonce: String?) throws(TelenoridError)
        -> (authorization: SecretBytes, dpop: String?)
    {
        try client.resourceRequestHeaders(
            method: method, url: url, resourceNonce: resourceNonce, holder: "the machine's token holder"
        ) { () throws(TelenoridError) in try freshTokens() }
    }

    /// Reads a resource server's answer to a request sent to `url` with `authorizationSent` (the
    /// `Authorization` value `requestHeaders` gave), as `ClientAuthState.resourceAnswered` does for a user's
    /// token (`OIDCClient.resourceAnswered`): a DPoP-Nonce on any answer is kept for that server; a 401 asking
    /// for a nonce it gave is `.retry`; a 401 refusing the token is `.retry` with the token reported
    /// (`accessTokenRejected`), so the next headers carry a new one; anything else is `.accept`.
    public func resourceAnswered(
        url: String, status: Int, wwwAuthenticate: String?, dpopNonce: String?, authorizationSent: SecretBytes
    ) -> ResourceVerdict {
        client.resourceAnswered(
            url: url, status: status, wwwAuthenticate: wwwAuthenticate, dpopNonce: dpopNonce,
            authorizationSent: authorizationSent, held: held.withLock { $0.tokens?.accessToken }
        ) { accessTokenRejected($0) }
    }

    /// One token request of the grant (the caller holds the gate, whose `renewal` this is), its answer kept.
    private func renewed(_ renewal: inout Renewal) throws(TelenoridError) -> TokenSet {
        let tokenURL = try client.endpoint(.tokenEndpoint)
        let (resources, bound) = held.withLock { ($0.resources, $0.tokens?.dpopSigner) }
        let what: String
        switch grant {
        case .clientCredentials: what = "client credentials grant"
        case .givenAssertion, .signedAssertion: what = "JWT bearer grant"
        }
        if case .givenAssertion = grant, renewal.assertionSpent {
            throw TelenoridError(
                .consumed, "the given assertion was used (RFC 7523 §3: once); a new token needs a new assertion")
        }
        // The client's DPoP key when it is configured for DPoP (RFC 9449 §5): the key of the tokens held (also
        // when another process made them), else the one made for this holder's first request.
        if let bound {
            renewal.signer = bound
        } else if renewal.signer == nil {
            renewal.signer = try client.newSignInSigner()
        }
        let signer = renewal.signer
        let response: TokenResponse
        do {
            response = try client.tokenRequest(
                to: tokenURL, proofBy: signer, during: what, finishOnceSent: false
            ) { () throws(TelenoridError) in try grantForm(tokenURL: tokenURL, resources: resources) }.tokens
        } catch {
            if case .givenAssertion = grant, !error.requestNotSent { renewal.assertionSpent = true }
            throw error
        }
        var tokens = TokenSet(response: response, receivedAt: client.clock(), previous: nil)
        // Nothing here validates an ID token (no user signs in), so none is kept.
        tokens.idToken = nil
        tokens.refreshToken = nil
        tokens.dpopSigner = signer
        tokens.resources = resources
        if case .givenAssertion = grant { renewal.assertionSpent = true }
        held.withLock {
            $0.tokens = tokens
            $0.rejected = false
        }
        Log.info(
            "token.client_credentials",
            "a new \(signer == nil ? "bearer" : "DPoP-bound") access token for the client itself (\(what))")
        return tokens
    }

    /// The grant's members of one token request; a signed assertion is made for each (RFC 7523 §3: `jti`
    /// single-use, `exp` a minute away).
    private func grantForm(tokenURL: String, resources: [String]) throws(TelenoridError) -> FormParameters {
        var form = FormParameters()
        switch grant {
        case .clientCredentials:
            try form.append("grant_type", "client_credentials")
        case .givenAssertion(let assertion):
            try form.append("grant_type", Self.jwtBearerGrantType)
            try form.appendSecret("assertion", assertion)
        case .signedAssertion(let subject):
            let key = try Self.signingKey(client, assertionKey)
            try form.append("grant_type", Self.jwtBearerGrantType)
            try form.append(
                "assertion", try client.signedAssertion(subject: subject, signing: .clientKey(key), sentTo: tokenURL))
        }
        if let scope { try form.append("scope", scope) }
        form.appendRepeated("resource", resources)
        return form
    }

    /// The client's own key for the grant's assertions: the host's client signer, when it set one, else
    /// `client_private_key`.
    private static func signingKey(_ client: OIDCClient, _ held: PrivateKey?) throws(TelenoridError) -> ClientKey {
        if let host = client.clientSigner { return .hostKeySigner(host) }
        if let held { return .held(held) }
        throw TelenoridError(
            .configuration,
            "the JWT bearer grant's own assertion (RFC 7523 §2.1) needs the client's key: client_private_key, "
                + "or a signer the host sets on the client")
    }

    /// The held tokens when they are neither refused nor about to expire.
    private func usable() -> TokenSet? {
        let (tokens, rejected) = held.withLock { ($0.tokens, $0.rejected) }
        guard let tokens, !rejected, fresh(tokens) else { return nil }
        return tokens
    }

    private func fresh(_ tokens: TokenSet) -> Bool {
        !tokens.expires(within: client.configuration.refreshMarginSeconds, now: client.clock())
    }

    /// The store's token when it is this grant's, fresh, and not the one refused here; nil otherwise.
    private func storedTokens(_ store: any AuthStateStore) throws(TelenoridError) -> TokenSet? {
        guard let serialized = try store.load() else { return nil }
        let tokens: TokenSet?
        do throws(TelenoridError) {
            guard try AuthState.machineGrant(ofSerialized: serialized) == machineGrant else { return nil }
            tokens = try AuthState.restoredTokens(
                serialized, issuer: client.configuration.settings[.issuer], clientID: client.configuration.clientID,
                refresher: client)
        } catch {
            throw store.unreadable(error)
        }
        guard let tokens, fresh(tokens) else { return nil }
        let refused = held.withLock { held -> Bool in
            guard held.rejected, let mine = held.tokens?.accessToken else { return false }
            return Crypto.constantTimeEquals(mine.bytes, tokens.accessToken.bytes)
        }
        return refused ? nil : tokens
    }

    /// What a stored token was asked for with, so that holders of another grant, scope or resources never
    /// take it up: a JSON array, unambiguous whatever the values hold. Nil for a given assertion.
    var machineGrant: String? {
        var parts: [JSONValue]
        switch grant {
        case .clientCredentials: parts = [.string("client_credentials")]
        case .givenAssertion: return nil
        case .signedAssertion(let subject): parts = [.string(Self.jwtBearerGrantType), .string(subject)]
        }
        parts.append(scope.map { .string($0) } ?? .null)
        parts += resources.map { .string($0) }
        return JSON.serialize(.array(parts))
    }

    /// When the held access token expires (Unix seconds of the client's clock); nil when none is held or
    /// the provider did not say.
    public var expiresAt: Int64? { held.withLock { $0.tokens?.accessTokenExpiresAt } }

    /// A resource server refused `accessToken` (nil: the held one): the next call asks for a new token.
    /// A report about a token no longer held changes nothing.
    public func accessTokenRejected(_ accessToken: SecretBytes?) {
        held.withLock { held in
            guard let current = held.tokens?.accessToken else { return }
            if let accessToken, !Crypto.constantTimeEquals(current.bytes, accessToken.bytes) { return }
            held.rejected = true
        }
    }
}
