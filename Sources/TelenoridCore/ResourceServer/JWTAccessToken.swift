extension ResourceServer {
    /// Verifies a JWT access token locally (RFC 9068 §4) and returns its claims: a JWS (not a JWE, not an
    /// opaque token) whose `typ` is `at+jwt` or `application/at+jwt` (or `JWT` when the host accepts it),
    /// signed with an allowed algorithm by a key of the provider's key set (the client's key-set cache),
    /// issued by the configured issuer, naming this resource server in `aud`, within `exp`, `nbf` and
    /// `iat` give or take the configured clock tolerance, with the claims §2.2 requires. Every refusal is
    /// `.tokenInvalid` (a key set that can't be fetched: that failure) with a message saying what failed;
    /// no message quotes the token.
    public func verifyAccessToken(_ token: SecretBytes) throws(TelenoridError) -> TokenInfo {
        let options = options.withLock { $0 }
        func fail(_ message: String) -> TelenoridError { TelenoridError(.tokenInvalid, "the access token \(message)") }
        let jws: JWS
        // Parsed from the wiping storage the export put the token in: no String of it is made.
        do { jws = try JWS(compact: token) } catch {
            // RFC 9068 §2.1: a JWT access token is a JWS in compact serialization; an opaque token (or an
            // encrypted one, five parts) is for introspection.
            throw fail("is not a JWT (RFC 9068 §2.1): \(error.message)")
        }
        // RFC 9068 §4: "typ" must be at+jwt (media types compare without regard to case, RFC 7515 §4.1.9,
        // and may omit the application/ prefix).
        guard let typ = jws.header["typ"]?.stringValue else {
            throw fail("has no typ; an RFC 9068 access token has typ at+jwt")
        }
        let lowered = ASCII.lowercased(typ)
        let isAccessToken = lowered == "at+jwt" || lowered == "application/at+jwt"
        guard isAccessToken || (options.acceptTypJWT && lowered == "jwt") else {
            throw fail(
                "has typ \(DisplayText.escaping(typ)), not at+jwt (RFC 9068 §4)"
                    + (lowered == "jwt" ? "; accepting typ JWT is a setting of the resource server" : ""))
        }
        var allowed = options.algorithms
        if client.configuration.securityProfile == .fapi2 { allowed.formIntersection(FAPI2Profile.algorithms) }
        let claims = try client.verifiedClaims(jws, allowed: allowed, what: "the access token")
        let now = client.clock()
        let tolerance = client.configuration.clockToleranceSeconds

        guard let iss = claims["iss"]?.stringValue, iss == client.configuration.settings[.issuer] else {
            throw fail(
                "was issued by \(claims["iss"]?.stringValue.map(DisplayText.escaping) ?? "nobody"), not the configured issuer"
            )
        }
        let info = try TokenInfo(verifiedClaims: claims)
        guard info.audiences.contains(audience) else {
            throw fail("is not meant for \(DisplayText.escaping(audience)) (aud, RFC 9068 §4)")
        }
        guard let exp = info.seconds("exp") else { throw fail("has no exp") }
        guard exp > now &- tolerance else { throw fail("expired at \(exp); now is \(now)") }
        if let nbf = info.seconds("nbf"), nbf > now &+ tolerance { throw fail("is not valid before \(nbf)") }
        // RFC 9068 §2.2 requires iat, sub, client_id and jti; a typ JWT token predates that profile and is
        // held only to what a JWT itself promises.
        if let iat = info.seconds("iat") {
            guard iat <= now &+ tolerance else { throw fail("was issued in the future (iat \(iat), now \(now))") }
        }
        if isAccessToken {
            for name in ["iat", "sub", "client_id", "jti"] where claims[name] == nil {
                throw fail("has no \(name) (RFC 9068 §2.2)")
            }
        }
        return info
    }
}
