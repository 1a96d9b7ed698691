/// The relying party's side of OpenID Connect Back-Channel Logout 1.0: the provider POSTs a `logout_token`
/// to the client's `backchannel_logout_uri` (§2.5), and the client validates it (§2.6) before it signs out
/// locally what the token names (§2.7). Bound to the client whose provider signs the tokens: its key-set
/// cache and its ID-token algorithm rules check the signature. Each `jti` is accepted once within the
/// window (`maxAge`) a token is accepted in at all. Safe to share between threads.
public final class BackchannelLogout: Sendable {
    public let client: OIDCClient

    public enum Option: Sendable {
        /// Seconds after its `iat` a logout token is still accepted (and its `jti` remembered).
        case maxAge
    }

    /// §2.4's `events` member that makes a JWT a logout token.
    public static let event = "http://schemas.openid.net/event/backchannel-logout"
    public static let defaultMaxAge: Int64 = 300
    public static let maximumMaxAge: Int64 = 24 * 60 * 60

    let maxAge = Locked<Int64>(BackchannelLogout.defaultMaxAge)
    let seen = SeenTokenIDs()

    public init(client: OIDCClient) {
        self.client = client
    }

    public func set(_ option: Option, _ value: String?) throws(TelenoridError) {
        switch option {
        case .maxAge:
            var seconds = BackchannelLogout.defaultMaxAge
            if let value {
                guard let number = Int64(value), number >= 1, number <= BackchannelLogout.maximumMaxAge else {
                    throw TelenoridError(
                        .invalidArgument,
                        "a logout token's max age is a whole number of seconds from 1 to \(BackchannelLogout.maximumMaxAge)"
                    )
                }
                seconds = number
            }
            maxAge.withLock { $0 = seconds }
        }
    }

    /// Validates a logout token as Back-Channel Logout 1.0 §2.6 lists: a JWS (not encrypted) whose `typ`,
    /// when present, is `logout+jwt` (§2.4; or the generic `JWT`), signed as an ID token is (the algorithm
    /// rules and keys of `OIDCClient.validateIDToken`, never `none`), with `iss` the configured issuer, `aud`
    /// containing the client id, an `iat` neither in the future nor older than the max age (give or take
    /// the clock tolerance), an `exp`, when present, not passed, a `jti`, an `events` object whose
    /// back-channel logout member is a JSON object, a `sub` or a `sid` or both (strings), and no `nonce`;
    /// last, a `jti` already accepted within the window is refused (§2.6 step 8). Every refusal is
    /// `.tokenInvalid` (a key set that can't be fetched: that failure) with a message naming the rule; only
    /// an accepted token's `jti` is remembered.
    public func validate(_ token: String) throws(TelenoridError) -> LogoutToken {
        let maxAge = maxAge.withLock { $0 }
        func fail(_ message: String) -> TelenoridError { TelenoridError(.tokenInvalid, "the logout token \(message)") }
        if token.utf8.reduce(0, { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }) == 4 {
            throw fail("is encrypted (a JWE); this library validates signed logout tokens only (§2.6 step 1)")
        }
        let jws: JWS
        do { jws = try JWS(compact: token) } catch {
            throw fail("is not a JWS in compact serialization (§2.4): \(error.message)")
        }
        if let typValue = jws.header["typ"] {
            // §2.4: explicit typing (RFC 8725 §3.11) tells a logout token from an ID token or another JWT;
            // a token typed as some other kind is that kind, whatever its claims say.
            guard let typ = typValue.stringValue else { throw fail("has a typ that is not a string") }
            let lowered = ASCII.lowercased(typ)
            guard lowered == "logout+jwt" || lowered == "application/logout+jwt" || lowered == "jwt" else {
                throw fail("has typ \(DisplayText.escaping(typ)), not logout+jwt (§2.4)")
            }
        }
        // §2.6 steps 2, 3: the signature and the algorithm as for an ID token.
        let claims = try client.verifiedClaims(
            jws, allowed: try client.idTokenAlgorithms(), what: "the logout token")
        let configuration = client.configuration
        let now = client.clock()
        let tolerance = configuration.clockToleranceSeconds

        guard let iss = claims["iss"]?.stringValue, iss == configuration.settings[.issuer] else {
            throw fail(
                "was issued by \(claims["iss"]?.stringValue.map(DisplayText.escaping) ?? "nobody"), not the configured issuer (iss, §2.6 step 4)"
            )
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one)?: audiences = [one]
        case .array(let many)?:
            audiences = many.compactMap { $0.stringValue }
            guard audiences.count == many.count else { throw fail("has a non-string audience (aud)") }
        default: throw fail("has no aud (§2.4)")
        }
        guard audiences.contains(configuration.clientID) else {
            throw fail("is not meant for this client (aud, §2.6 step 4)")
        }
        guard let iat = OIDCClient.seconds(claims["iat"]) else { throw fail("has no numeric iat (§2.4)") }
        guard iat <= now &+ tolerance else { throw fail("was issued in the future (iat \(iat), now \(now))") }
        guard iat >= now &- maxAge &- tolerance else {
            throw fail("is older than \(maxAge) s (iat \(iat), now \(now)); the max age is a setting")
        }
        if let expValue = claims["exp"] {
            guard let exp = OIDCClient.seconds(expValue) else { throw fail("has a non-numeric exp") }
            guard exp > now &- tolerance else { throw fail("expired at \(exp); now is \(now)") }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { throw fail("has no jti (§2.4)") }
        guard let events = claims["events"]?.objectValue else {
            throw fail("has no events object (§2.4, §2.6 step 6)")
        }
        guard let event = events[BackchannelLogout.event] else {
            throw fail("has no \(BackchannelLogout.event) event (§2.6 step 6)")
        }
        guard event.objectValue != nil else {
            throw fail("has a back-channel logout event that is not a JSON object (§2.4)")
        }
        for name in ["sub", "sid"] where claims[name] != nil {
            guard let value = claims[name]?.stringValue, !value.isEmpty else {
                throw fail("has a \(name) that is not a non-empty string")
            }
        }
        guard claims["sub"] != nil || claims["sid"] != nil else {
            throw fail("names neither a sub nor a sid (§2.6 step 5)")
        }
        guard claims["nonce"] == nil else { throw fail("carries a nonce, which a logout token must not (§2.6 step 7)") }
        // §2.6 step 8, last: a token refused for another reason does not use up its jti.
        guard seen.insert(issuer: iss, jti: jti, until: iat &+ maxAge &+ tolerance, now: now) else {
            throw fail("was received before (its jti was accepted within the last \(maxAge) s, §2.6 step 8)")
        }
        return LogoutToken(claims: claims)
    }
}

/// A validated logout token: whom it signs out (§2.4: `sub`, `sid`) and its claims.
public struct LogoutToken: Sendable {
    public let claims: JSONObject

    public var issuer: String? { claims["iss"]?.stringValue }
    /// The end-user signed out at the provider: every session of theirs at this client ends.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The provider's session that ended (the `sid` of the ID tokens issued in it, Front-Channel and
    /// Back-Channel Logout §2.1): only that session ends.
    public var sessionID: String? { claims["sid"]?.stringValue }
    public var tokenID: String? { claims["jti"]?.stringValue }

    /// Whether a sign-in whose ID token has `idTokenClaims` is one this token ends (§2.6 steps 9 to 11,
    /// §2.7): the same `iss`, and the token's `sub` and `sid`, each when given, equal to the ID token's.
    public func names(idTokenClaims: JSONObject) -> Bool {
        guard let issuer, idTokenClaims["iss"]?.stringValue == issuer else { return false }
        if let subject, idTokenClaims["sub"]?.stringValue != subject { return false }
        if let sessionID, idTokenClaims["sid"]?.stringValue != sessionID { return false }
        return true
    }

    public var json: String { JSON.serialize(.object(claims)) }
}

/// The `jti`s of the logout tokens accepted within their window (§2.6 step 8), kept as SHA-256 digests of
/// the issuer, a NUL and the `jti`, so the memory each takes is fixed whatever the token's `jti` is.
final class SeenTokenIDs: Sendable {
    /// The most kept; when full, those out of their window go first, then the one whose window ends
    /// soonest (a flood of valid tokens can push an old `jti` out; the provider must sign each of them).
    static let capacity = 4096

    /// Until when each is kept (Unix seconds).
    private let entries = Locked<[[UInt8]: Int64]>([:])

    var count: Int { entries.withLock { $0.count } }

    /// Records the `jti` until `until`; false when it is recorded already and its window has not ended.
    func insert(issuer: String, jti: String, until: Int64, now: Int64) -> Bool {
        let key = Crypto.sha256(Array(issuer.utf8) + [0] + Array(jti.utf8))
        return entries.withLock { entries -> Bool in
            if let kept = entries[key], now < kept { return false }
            if entries[key] == nil && entries.count >= SeenTokenIDs.capacity {
                for (stale, kept) in entries where kept <= now { entries[stale] = nil }
                if entries.count >= SeenTokenIDs.capacity, let soonest = entries.min(by: { $0.value < $1.value })?.key {
                    entries[soonest] = nil
                }
            }
            entries[key] = until
            return true
        }
    }
}
