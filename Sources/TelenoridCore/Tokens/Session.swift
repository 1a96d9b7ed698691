/// A signed-in user at one provider: the auth state and the client that talks to the provider for it.
/// What needs both — userinfo, checking that the grant is alive, logout — lives here, so every host gets
/// the same behaviour from one call.
public final class Session: Sendable {
    public let state: AuthState
    public let client: OIDCClient

    public init(state: AuthState, client: OIDCClient) {
        self.state = state
        self.client = client
    }

    /// The userinfo claims with a fresh access token. A 401 for a token the state thought valid means the
    /// provider no longer accepts it (revoked, or the provider lost its sessions): refresh once and try
    /// again. A refused refresh signs out (`.authorizationLost`); a second 401 is reported without
    /// signing out, since a fresh token refused at once says more about the endpoint than the grant.
    public func userinfo() throws(TelenoridError) -> JSONObject {
        let tokens = try state.freshTokens()
        do {
            return try client.userinfo(tokens)
        } catch where error.httpStatus == 401 {
            return try client.userinfo(try state.replacing(rejected: tokens))
        }
    }

    /// Whether the grant is still alive, e.g. when an app resumes: asks the userinfo endpoint with the
    /// current access token, which rotates nothing, and refreshes only when it must (the token expired or
    /// was refused, or there is no userinfo endpoint to ask). Returns normally when alive; throws
    /// `.authorizationLost` (and signs out) when the provider refused the grant, `.notSignedIn` when the
    /// state was already signed out, and transient errors as they are.
    public func checkAlive() throws(TelenoridError) {
        guard (try? client.endpoint(.userinfoEndpoint)) != nil else {
            _ = try state.forceRefresh()
            return
        }
        do {
            _ = try userinfo()
        } catch where error.kind == .authorizationError && error.httpStatus == 403 {
            // The token works but may not read userinfo (no openid scope): only a refresh can tell.
            _ = try state.forceRefresh()
        }
    }

    /// The RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0 §2), with the ID token as hint.
    public func endSessionURL(postLogoutRedirectURI: String?, logoutState: String?) throws(TelenoridError) -> String {
        try client.endSessionURL(idTokenHint: state.tokens?.idToken, postLogoutRedirectURI: postLogoutRedirectURI,
                                 state: logoutState)
    }
}
