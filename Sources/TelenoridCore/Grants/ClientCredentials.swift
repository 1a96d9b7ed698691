/// A machine's own access token (RFC 6749 §4.4): the client asks the token endpoint with nothing but its
/// own authentication, keeps the token, and asks again before it expires. Safe to share between threads:
/// when several need a new token at once, one request goes out and all of them get its outcome.
public final class ClientCredentials: Sendable {
    public let client: OIDCClient
    /// The scope asked for (RFC 6749 §4.4.2); nil sends none, leaving it to the provider's default.
    public let scope: String?
    /// Resource indicators (RFC 8707 §2): the token's intended audiences.
    public let resources: [String]

    private struct Held {
        var tokens: TokenSet?
        /// A resource server refused `tokens`' access token: the next call asks for a new one.
        var rejected = false
    }
    private let held = Locked(Held())
    /// Held for the whole of a token request: the single-flight gate.
    private let gate = Locked<Void>(())

    public init(client: OIDCClient, scope: String?, resources: [String] = []) throws(TelenoridError) {
        // §4.4: "The client credentials grant type MUST only be used by confidential clients."
        if case .none = client.configuration.clientAuthMethod {
            throw TelenoridError(
                .configuration,
                "the client credentials grant needs a client that authenticates (RFC 6749 §4.4); this one is public")
        }
        if let scope, scope.isEmpty { throw TelenoridError(.invalidArgument, "scope is empty") }
        self.client = client
        self.scope = scope
        self.resources = resources
    }

    /// The tokens, valid for at least the configuration's refresh margin: the held ones, else new ones.
    /// The response has no refresh token to use (§4.4.3 says the provider should not issue one): renewing
    /// is asking again.
    public func freshTokens() throws(TelenoridError) -> TokenSet {
        if let usable = usable() { return usable }
        return try gate.withLock { _ throws(TelenoridError) -> TokenSet in
            // Another thread may have renewed them while this one waited at the gate.
            if let usable = usable() { return usable }
            var grant = FormParameters()
            try grant.append("grant_type", "client_credentials")
            if let scope { try grant.append("scope", scope) }
            grant.appendRepeated("resource", resources)
            let response = try client.tokenRequest(
                grant, to: try client.endpoint(.tokenEndpoint), proofBy: nil, during: "client credentials grant")
            var tokens = TokenSet(response: response, receivedAt: client.clock(), previous: nil)
            // Nothing here validates an ID token (no user signs in), so none is kept.
            tokens.idToken = nil
            tokens.refreshToken = nil
            held.withLock { $0 = Held(tokens: tokens) }
            Log.info("token.client_credentials", "a new access token for the client itself")
            return tokens
        }
    }

    /// The held tokens when they are neither refused nor about to expire.
    private func usable() -> TokenSet? {
        let (tokens, rejected) = held.withLock { ($0.tokens, $0.rejected) }
        guard let tokens, !rejected,
            !tokens.expires(within: client.configuration.refreshMarginSeconds, now: client.clock())
        else { return nil }
        return tokens
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
