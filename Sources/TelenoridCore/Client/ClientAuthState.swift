/// A signed-in user at one provider: the auth state and the client that talks to the provider for it.
/// What needs both — userinfo, checking that the grant is alive, logout — lives here, so every host gets
/// the same behaviour from one call.
public final class ClientAuthState: Sendable {
    public let state: AuthState
    public let client: OIDCClient

    public init(state: AuthState, client: OIDCClient) {
        self.state = state
        self.client = client
    }

    /// The userinfo claims with a fresh access token. A 401 for a token the state thought valid means the
    /// provider no longer accepts it (revoked, or the provider lost its sessions): refresh once and try
    /// again. A refused refresh signs out (`.authorizationLost`); a second 401 is reported without
    /// signing out, since a fresh token refused at once says more about the endpoint than the grant. A
    /// 401 that keeps asking for a DPoP nonce (RFC 9449 §9) refused the proof, not the token: reported as it is.
    public func userinfo() throws(TelenoridError) -> JSONObject {
        let tokens = try state.freshTokens()
        do {
            return try client.userinfo(tokens)
        } catch  where error.httpStatus == 401 && error.oauthError != "use_dpop_nonce" {
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
        } catch  where error.kind == .authorizationError && error.httpStatus == 403 {
            // The token works but may not read userinfo (no openid scope): only a refresh can tell.
            _ = try state.forceRefresh()
        }
    }

    /// The `Authorization` and `DPoP` header values for one request of the host's own to a resource server
    /// (`method` and the full `url`), with a fresh access token: `Bearer <token>` and no proof for a Bearer
    /// token; `DPoP <token>` and a proof for this method and URL, bound to the token (`ath`), for a DPoP one
    /// (RFC 9449 §7). A resource that answers 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
    /// (§9) gives a `DPoP-Nonce` header: pass its value as `resourceNonce` and send the request again with
    /// the new headers; the nonce is kept for that server's later requests too. A token goes only where
    /// the library itself would send one (the transport's rule: https, or http on a loopback host, no user
    /// info; RFC 6750 §5.3): any other `url` is refused, `.insecure` naming its scheme and
    /// host (`.invalidArgument` when it is no URL), before anything else happens.
    public func requestHeaders(method: String, url: String, resourceNonce: String?) throws(TelenoridError)
        -> (authorization: SecretBytes, dpop: String?)
    {
        let state = state
        return try client.resourceRequestHeaders(
            method: method, url: url, resourceNonce: resourceNonce, holder: "the auth state"
        ) { () throws(TelenoridError) in try state.freshTokens() }
    }

    /// Reads a resource server's answer to a request sent to `url` with `authorizationSent` (the
    /// `Authorization` value `requestHeaders` gave), as `OIDCClient.resourceAnswered` says: a DPoP-Nonce on any
    /// answer is kept; a 401 asking for a nonce it gave is `.retry`; a 401 refusing the token is `.retry` with
    /// the token reported to the state (`AuthState.accessTokenRejected`), so the next headers carry a refreshed
    /// one; anything else is `.accept`.
    public func resourceAnswered(
        url: String, status: Int, wwwAuthenticate: String?, dpopNonce: String?, authorizationSent: SecretBytes
    ) -> ResourceVerdict {
        let state = state
        return client.resourceAnswered(
            url: url, status: status, wwwAuthenticate: wwwAuthenticate, dpopNonce: dpopNonce,
            authorizationSent: authorizationSent, held: state.tokens?.accessToken
        ) { state.accessTokenRejected($0) }
    }

    /// The RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0 §2), with the ID token as hint.
    public func endSessionURL(postLogoutRedirectURI: String?, logoutState: String?) throws(TelenoridError) -> String {
        try client.endSessionURL(
            idTokenHint: state.tokens?.idToken, postLogoutRedirectURI: postLogoutRedirectURI,
            state: logoutState)
    }
}

extension OIDCClient {
    /// `ClientAuthState.requestHeaders` for the tokens `fresh` gives (an auth state's, a machine's): the URL
    /// checked first, the resource's nonce kept, then the token and, for a DPoP-bound one, its proof.
    /// `holder` names what holds the tokens, for the error about a DPoP token without its key.
    func resourceRequestHeaders(
        method: String, url: String, resourceNonce: String?, holder: String,
        fresh: () throws(TelenoridError) -> TokenSet
    ) throws(TelenoridError) -> (authorization: SecretBytes, dpop: String?) {
        do { _ = try RequestTarget.checkPolicy(url, allowPlainHTTP: false) } catch {
            var refused = error
            refused.message = "no request headers for this URL: \(error.message)"
            throw refused
        }
        if let resourceNonce {
            guard let nonce = DPoPNonces.parseHeader(resourceNonce) else {
                throw TelenoridError(.invalidArgument, "the resource's DPoP-Nonce is not a nonce (RFC 9449 §8.1)")
            }
            dpopNonces.remember(nonce, for: url)
        }
        let tokens = try fresh()
        guard tokens.isDPoPBound else { return (tokens.authorization, nil) }
        // A DPoP token without its proof is refused by the resource (RFC 9449 §7.1): never handed out so.
        guard let signer = tokens.dpopSigner else {
            throw TelenoridError(.configuration, "\(holder) holds a DPoP token without its DPoP key")
        }
        let proof = try DPoPProof.make(
            signer: signer, method: method, url: url, accessToken: tokens.accessToken,
            nonce: dpopNonces.nonce(for: url), now: clock())
        return (tokens.authorization, proof)
    }
}
