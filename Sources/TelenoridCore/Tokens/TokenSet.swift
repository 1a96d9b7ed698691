/// The tokens a signed-in user has, with absolute times: what the auth state keeps and persists.
public struct TokenSet: Sendable {
    public var accessToken: SecretBytes
    public var tokenType: String
    /// Unix seconds; nil when the provider did not say.
    public var accessTokenExpiresAt: Int64?
    public var refreshToken: SecretBytes?
    /// The validated ID token. Its claims are not kept beside it: they are its payload, decoded when asked
    /// (`idTokenClaims`), which halves what a signed-in auth state holds in memory.
    public var idToken: String?
    public var scope: String?
    /// The DPoP key (RFC 9449) the tokens were asked for with: it signs every later request for them.
    public var dpopSigner: DPoPSigner? = nil
    /// What the provider granted (RFC 9396 §7), when the request asked for authorization details.
    public var authorizationDetails: AuthorizationDetails? = nil
    /// The resource indicators (RFC 8707) the sign-in asked for: each refresh asks for them again (§2.2),
    /// so a refreshed access token has the audience the first one had.
    public var resources: [String] = []
    /// The device secret of OpenID Connect Native SSO 1.0 (§3.2): with the ID token, what lets another app of
    /// the same vendor sign the user in (`OIDCClient.nativeSSO`). A secret, kept as the refresh token is.
    public var deviceSecret: SecretBytes? = nil
}

extension TokenSet {
    /// A token set from a response; a refresh response without a refresh token (or ID token, scope, device
    /// secret) keeps the previous one, as RFC 6749 §6 allows the provider to keep the old refresh token.
    /// The response's ID token, if any, must have been validated before.
    public init(response: TokenResponse, receivedAt now: Int64, previous: TokenSet?) {
        self.init(
            accessToken: response.accessToken, tokenType: response.tokenType,
            accessTokenExpiresAt: response.expiresIn.map { seconds in
                let (sum, overflow) = now.addingReportingOverflow(seconds)
                return overflow ? Int64.max : sum
            },
            refreshToken: response.refreshToken ?? previous?.refreshToken,
            idToken: response.idToken ?? previous?.idToken,
            scope: response.scope ?? previous?.scope, dpopSigner: previous?.dpopSigner,
            authorizationDetails: response.authorizationDetails ?? previous?.authorizationDetails,
            resources: previous?.resources ?? [],
            // Native SSO §3.4: the provider may send a new device secret; one that comes replaces the old.
            deviceSecret: response.deviceSecret ?? previous?.deviceSecret)
    }

    /// The ID token's claims, parsed.
    public var idTokenClaims: JSONObject? {
        idToken.flatMap(JWS.payload(ofCompact:)).flatMap { try? JSON.parse($0).objectValue }
    }

    /// True when the access token expires within `margin` seconds of `now` (or has no known expiry and
    /// is therefore used until the resource server refuses it).
    func expires(within margin: Int64, now: Int64) -> Bool {
        guard let expiry = accessTokenExpiresAt else { return false }
        let (deadline, overflow) = now.addingReportingOverflow(margin)
        return overflow || expiry <= deadline
    }
}
