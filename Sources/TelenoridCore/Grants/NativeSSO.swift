/// OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07, January 2025, whose section numbers are cited here;
/// the Implementer's Draft of 2022 named the device secret's type urn:x-oath:params:oauth:token-type:device-secret,
/// later drafts name it as below): apps of one vendor on one device share a sign-in. The first
/// app signs in with the `device_sso` scope (§3.1) and gets a device secret beside its tokens (§3.4,
/// `TokenSet.deviceSecret`); it puts the ID token and the device secret where the vendor's other apps can read
/// them (the platform's shared storage: the library keeps neither there). A second app then signs the user in
/// without a browser by exchanging the two at the token endpoint (§4, a profile of RFC 8693).
public enum NativeSSO {
    /// §4.1: the token type of the device secret, sent as the actor token.
    public static let deviceSecretTokenType = "urn:openid:params:token-type:device-secret"
    /// §3.1: the scope that asks for a device secret.
    public static let scope = "device_sso"
}

extension OIDCClient {
    /// Signs the user of `idToken` in for this client, as another app of the vendor holding `idToken` and
    /// `deviceSecret` signed them in (Native SSO §4.2): a token exchange with the ID token as the subject
    /// token, the device secret as the actor token, this client's issuer as the audience and `scope` (nil:
    /// the configuration's, which must include openid). The answer (§4.4) must be an access token with an ID
    /// token, which is validated as a sign-in's is (OIDC Core §3.1.3.7; no nonce, none was sent), with its
    /// `ds_hash` checked against the device secret in force (a new one the answer brings, else the one
    /// sent) and its subject and issuer the given ID token's. Before anything is sent, the given ID token
    /// must name this client's issuer and carry the `ds_hash` of `deviceSecret` (§3.4), so a mismatched pair
    /// never leaves the device.
    public func nativeSSO(idToken: String, deviceSecret: SecretBytes, scope: String?) throws(TelenoridError)
        -> AuthState
    {
        let presented = try Self.presentedIDToken(idToken, deviceSecret: deviceSecret)
        guard let issuer = configuration.settings[.issuer], presented.claims["iss"]?.stringValue == issuer else {
            throw TelenoridError(.invalidArgument, "the ID token was not issued by this client's issuer")
        }
        let scope = scope ?? configuration.scope
        guard scope.split(separator: " ").contains("openid") else {
            throw TelenoridError(.invalidArgument, "the scope of a Native SSO sign-in must include openid (§4.2)")
        }
        let request = try TokenExchangeRequest(
            subjectToken: SecretBytes(Array(idToken.utf8)), subjectTokenType: TokenTypeIdentifier.idToken)
        try request.setActor(token: deviceSecret, type: NativeSSO.deviceSecretTokenType)
        // §4.2: the audience is the authorization server's issuer.
        try request.addAudience(issuer)
        try request.setScope(scope)
        let issued = try exchangeToken(request, what: "Native SSO token exchange", sendingClientID: true)
        guard issued.issuedTokenType == TokenTypeIdentifier.accessToken, issued.isAccessTokenType else {
            throw TelenoridError(
                .invalidResponse,
                "the Native SSO token exchange issued \(DisplayText.escaping(issued.issuedTokenType)), "
                    + "not an access token (§4.4)")
        }
        guard let newIDToken = issued.idToken else {
            throw TelenoridError(.invalidResponse, "the Native SSO token exchange answered without an id_token (§4.4)")
        }
        let deviceSecretInForce = issued.deviceSecret ?? deviceSecret
        let claims = try validateIDToken(
            newIDToken,
            expectations: IDTokenExpectations(
                nonce: nil, maxAge: nil, accessToken: issued.token, previous: nil,
                deviceSecret: deviceSecretInForce))
        guard claims["sub"] == presented.claims["sub"] else {
            throw TelenoridError(
                .tokenInvalid, "the Native SSO token exchange's ID token names another user than the one exchanged")
        }
        let tokens = TokenSet(
            accessToken: issued.token, tokenType: issued.tokenType, accessTokenExpiresAt: issued.expiresAt,
            refreshToken: issued.refreshToken, idToken: newIDToken, scope: issued.scope ?? scope,
            dpopSigner: issued.dpopSigner, authorizationDetails: nil, resources: [],
            deviceSecret: deviceSecretInForce)
        Log.info("token.native_sso", "signed in from another app's sign-in (Native SSO)")
        return authState(tokens)
    }

    /// The claims of the ID token another app handed over, unverified (its audience is that app, so this
    /// client can't validate it as its own; the provider checks it), once its `ds_hash` is that of
    /// `deviceSecret` (§3.4: made as at_hash is, by the hash of the token's `alg`).
    static func presentedIDToken(_ idToken: String, deviceSecret: SecretBytes) throws(TelenoridError) -> (
        header: JSONObject, claims: JSONObject
    ) {
        guard deviceSecret.count > 0 else { throw TelenoridError(.invalidArgument, "device_secret is empty") }
        let jws: JWS
        do { jws = try JWS(compact: idToken) } catch {
            throw TelenoridError(.invalidArgument, "the ID token is not a JWS: \(error.message)")
        }
        guard let claims = (try? JSON.parse(jws.payload))?.objectValue else {
            throw TelenoridError(.invalidArgument, "the ID token's payload is not a JSON object")
        }
        guard let dsHash = claims["ds_hash"]?.stringValue,
            let digest = Crypto.digest(forJWSAlgorithm: jws.algorithm, deviceSecret.bytes),
            Crypto.constantTimeEquals(dsHash.utf8, Base64URL.encode(digest.prefix(digest.count / 2)).utf8)
        else {
            throw TelenoridError(
                .invalidArgument, "the ID token's ds_hash is absent or not that of the device secret (Native SSO §3.4)")
        }
        return (jws.header, claims)
    }
}
