/// What resource servers checking DPoP proofs (RFC 9449 §4.3, §7) remember between requests: the `jti` of
/// every proof accepted within the window (§11.1, replay), and the key the server's nonces (§8, §9) are
/// made with. One cache is one server as clients see it: resource servers sharing a cache refuse each
/// other's replays and accept each other's nonces, so a host running several `ResourceServer` objects for
/// one API (one per provider, say) shares one. Safe to share between threads.
public final class DPoPReplayCache: Sendable {
    /// Seconds a proof is accepted after its `iat`, and for which its `jti` is kept; also how often the
    /// nonce changes.
    public let window: Int64
    /// The most `jti`s kept at once.
    public let capacity: Int
    public static let defaultWindow: Int64 = 60
    public static let maxWindow: Int64 = 3600
    public static let defaultCapacity = 65536
    public static let maxCapacity = 1 << 22

    /// SHA-256 of the proof key's thumbprint and the `jti` (never the proof itself), and until when it is
    /// kept: the proof's `iat` plus the window, after which the `iat` check refuses the proof anyway.
    private let seen = Locked<[[UInt8]: Int64]>([:])
    private let nonceKey: [UInt8]

    public init(window: Int64 = defaultWindow, capacity: Int = defaultCapacity) throws(TelenoridError) {
        guard window >= 1, window <= DPoPReplayCache.maxWindow else {
            throw TelenoridError(
                .invalidArgument, "the DPoP window is 1 to \(DPoPReplayCache.maxWindow) seconds, not \(window)")
        }
        guard capacity >= 1, capacity <= DPoPReplayCache.maxCapacity else {
            throw TelenoridError(
                .invalidArgument,
                "the DPoP replay cache holds 1 to \(DPoPReplayCache.maxCapacity) proofs, not \(capacity)")
        }
        self.window = window
        self.capacity = capacity
        nonceKey = try Crypto.withRandomBytes(32) { Array($0) }
    }

    var count: Int { seen.withLock { $0.count } }

    /// Records `key` as seen until `until`. False when it was seen already (a replay). A full cache drops
    /// what ran out first; when nothing has, it refuses the proof rather than forget a live `jti` (which
    /// would let that proof be replayed): `.temporarilyUnavailable`, for the server to answer 503.
    func remember(_ key: [UInt8], until: Int64, now: Int64) throws(TelenoridError) -> Bool {
        let outcome = seen.withLock { seen -> Bool? in
            if let kept = seen[key], kept >= now { return false }
            if seen[key] == nil && seen.count >= capacity {
                for (stale, kept) in seen where kept < now { seen[stale] = nil }
                if seen.count >= capacity { return nil }
            }
            seen[key] = until
            return true
        }
        guard let outcome else {
            throw TelenoridError(
                .temporarilyUnavailable, "the DPoP replay cache is full (\(capacity) proofs within the window)")
        }
        return outcome
    }

    /// The nonce to send in `DPoP-Nonce` now (§8.1: 1*NQCHAR, here 43 base64url characters): the window's
    /// number since the epoch and a MAC of it under this cache's random key, so it changes every window and
    /// needs no list of issued nonces to check. Fails only when OpenSSL's HMAC does.
    public func nonce(now: Int64) throws(TelenoridError) -> String {
        guard let nonce = nonce(slot: slot(now)) else {
            throw TelenoridError(.unsupported, "the DPoP nonce could not be made (HMAC-SHA256 failed)")
        }
        return nonce
    }

    /// Whether `nonce` is the one of this window or the one before (a client that just fetched one near the
    /// change is not sent round again). Compared in constant time; nothing is accepted when no MAC can be made.
    func accepts(nonce: String, now: Int64) -> Bool {
        let current = slot(now)
        let given = Array(nonce.utf8)
        for candidate in [current, current &- 1] {
            if let expected = self.nonce(slot: candidate), Crypto.constantTimeEquals(given, Array(expected.utf8)) {
                return true
            }
        }
        return false
    }

    private func slot(_ now: Int64) -> Int64 { now >= 0 ? now / window : (now &- window &+ 1) / window }

    private func nonce(slot: Int64) -> String? {
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: slot >> shift)) }
        guard let mac = JWS.hmac("HS256", secret: nonceKey, data: bytes), mac.count == 32 else { return nil }
        return Base64URL.encode(bytes + mac.prefix(24))
    }
}

/// A DPoP proof refused by a resource server: `.tokenInvalid` whose OAuth `error` is the error code the
/// server puts in its `WWW-Authenticate: DPoP` challenge (RFC 9449 §7.1, §12.2) and whose
/// `error_description` names the rule, for the challenge's `error_description`. That text is the library's
/// own printable ASCII without `"` and `\` (RFC 6750 §3's error_description characters), so a host can put it
/// in the header as it is; what the proof itself said (`detail`) goes only into the message.
extension TelenoridError {
    static func dpopRefusal(_ rule: String, code: String = "invalid_dpop_proof", detail: String? = nil)
        -> TelenoridError
    {
        TelenoridError(
            .tokenInvalid, "DPoP proof refused (\(code)): \(rule)" + (detail.map { ": \($0)" } ?? ""),
            oauthError: code, oauthErrorDescription: rule)
    }
}

extension ResourceServer {
    /// The private members of the key types a proof's `jwk` may have (RFC 7518 §6.2.2, §6.3.2, RFC 8037
    /// §2), and `k` of a symmetric key (§6.4.1): a proof carries the public key only (RFC 9449 §4.3 check 7).
    static let privateJWKMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The nonce to send in the `DPoP-Nonce` header (RFC 9449 §9): with a 401 `use_dpop_nonce` challenge,
    /// or on any answer, so the client has it for its next proof.
    public func dpopNonce() throws(TelenoridError) -> String {
        try dpopCache.withLock { $0 }.nonce(now: client.clock())
    }

    /// Checks the DPoP proof of a request to this resource server (RFC 9449 §4.3 and §7.1): `proof` is the
    /// request's one `DPoP` header value, `method` and `url` the request as the server received it
    /// (its scheme, host and path as the client addressed them; query and fragment are ignored),
    /// `accessToken` the token of its `Authorization: DPoP` header, and `jkt` the thumbprint the token is
    /// bound to (its `cnf.jkt`, RFC 9449 §6). Each refusal is a `dpopRefusal` naming the rule; a full
    /// replay cache is `.temporarilyUnavailable`. Returns the thumbprint of the proof's key.
    @discardableResult
    public func verifyDPoPProof(
        _ proof: String, method: String, url: String, accessToken: SecretBytes, jkt: String
    ) throws(TelenoridError) -> String {
        let cache = dpopCache.withLock { $0 }
        let (algorithms, requireNonce) = options.withLock { ($0.dpopAlgorithms, $0.dpopRequireNonce) }
        // The server's own view of the request is the host's input, not the proof's: a bad one is the
        // host's mistake, not a refusal.
        guard !method.isEmpty, method.utf8.allSatisfy(ASCII.isTokenByte) else {
            throw TelenoridError(.invalidArgument, "the request method is not an HTTP method")
        }
        let target = try DPoPProof.targetURI(url)
        let now = client.clock()

        // Check 2: a well-formed JWT (a JWS in compact form, RFC 7515 §7.1).
        let jws: JWS
        do { jws = try JWS(compact: proof) } catch {
            throw .dpopRefusal(
                "the proof is not a JWS in compact form (RFC 9449 section 4.3 check 2)", detail: error.message)
        }
        guard let claimsValue = try? JSON.parse(jws.payload, limits: JSONLimits(maxDepth: 8)),
            let claims = claimsValue.objectValue
        else { throw .dpopRefusal("the proof's claims are not a JSON object (RFC 9449 section 4.3 check 2)") }
        // Check 4: typ dpop+jwt (a media type: any case, with or without application/, RFC 7515 §4.1.9).
        let typ = jws.header["typ"]?.stringValue.map { ASCII.lowercased($0.utf8) }
        guard typ == "dpop+jwt" || typ == "application/dpop+jwt" else {
            throw .dpopRefusal("typ is not dpop+jwt (RFC 9449 section 4.3 check 4)")
        }
        // Check 5: an asymmetric algorithm on the allow-list (never none, never a MAC).
        guard JWS.asymmetric[jws.algorithm] != nil, algorithms.contains(jws.algorithm) else {
            throw .dpopRefusal(
                "alg is not an allowed asymmetric algorithm (RFC 9449 section 4.3 check 5)",
                detail: DisplayText.escaping(jws.algorithm)
            )
        }
        // Check 7: a public key, and check 6: the signature verifies with it.
        guard let jwkObject = jws.header["jwk"]?.objectValue else {
            throw .dpopRefusal("the header has no jwk object (RFC 9449 section 4.3 check 7)")
        }
        for name in ResourceServer.privateJWKMembers where jwkObject[name] != nil {
            throw .dpopRefusal("the jwk holds a private key member, \(name) (RFC 9449 section 4.3 check 7)")
        }
        let key: JWK
        let thumbprint: String
        do {
            key = try JWK(jwkObject)
            thumbprint = try JWKThumbprint.sha256(of: jwkObject)
        } catch {
            throw .dpopRefusal(
                "the jwk is not a usable public key (RFC 9449 section 4.3 check 7)", detail: error.message)
        }
        do { try jws.verify(with: key) } catch {
            throw .dpopRefusal("the signature does not verify with the jwk (RFC 9449 section 4.3 check 6)")
        }
        // Check 3: the claims a proof to a resource server must have (§4.2, and ath by §7.1).
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else {
            throw .dpopRefusal("the proof has no jti (RFC 9449 section 4.3 check 3)")
        }
        guard let htm = claims["htm"]?.stringValue else {
            throw .dpopRefusal("the proof has no htm (RFC 9449 section 4.3 check 3)")
        }
        guard let htu = claims["htu"]?.stringValue else {
            throw .dpopRefusal("the proof has no htu (RFC 9449 section 4.3 check 3)")
        }
        guard let iat = OIDCClient.seconds(claims["iat"]) else {
            throw .dpopRefusal("the proof has no iat that is a NumericDate (RFC 9449 section 4.3 check 3)")
        }
        guard let ath = claims["ath"]?.stringValue else {
            throw .dpopRefusal(
                "the proof has no ath, which a request with an access token needs (RFC 9449 section 7.1)")
        }
        // Check 8: htm is the method (methods are case-sensitive, RFC 9110 §9.1).
        guard htm == method else {
            throw .dpopRefusal(
                "htm is not the request's method (RFC 9449 section 4.3 check 8)", detail: DisplayText.escaping(htm))
        }
        // Check 9: htu is the request's URI without query and fragment, both normalised (RFC 3986 §6.2.2,
        // §6.2.3) as DPoPProof writes it.
        guard let proofTarget = try? DPoPProof.targetURI(htu), proofTarget == target else {
            throw .dpopRefusal("htu is not the request's URL (RFC 9449 section 4.3 check 9)")
        }
        // Check 10: the server's nonce, when it wants one (§9); a missing or old one asks for the current.
        if requireNonce {
            guard let nonce = claims["nonce"]?.stringValue else {
                throw .dpopRefusal(
                    "the proof has no nonce and this server requires one (RFC 9449 section 9)", code: "use_dpop_nonce")
            }
            guard cache.accepts(nonce: nonce, now: now) else {
                throw .dpopRefusal(
                    "the nonce is not this server's current one (RFC 9449 section 9)", code: "use_dpop_nonce")
            }
        }
        // Check 11: iat within the window: at most the window old, at most the clock tolerance ahead.
        let tolerance = client.configuration.clockToleranceSeconds
        guard iat >= now &- cache.window, iat <= now &+ tolerance else {
            throw .dpopRefusal(
                "iat is outside the accepted window (RFC 9449 section 4.3 check 11)",
                detail: "iat \(iat), \(cache.window) s back and \(tolerance) s ahead of \(now)"
            )
        }
        // Check 12 (§7.1): ath is the hash of the token the request presents.
        guard Crypto.constantTimeEquals(Array(ath.utf8), Array(DPoPProof.accessTokenHash(accessToken).utf8)) else {
            throw .dpopRefusal("ath is not the hash of the access token (RFC 9449 section 4.3 check 12)")
        }
        // Check 12 (§7.1): the proof's key is the one the token is bound to (RFC 7638 thumbprints).
        guard Crypto.constantTimeEquals(Array(thumbprint.utf8), Array(jkt.utf8)) else {
            throw .dpopRefusal(
                "the proof's key is not the one the access token is bound to (cnf.jkt, RFC 9449 section 4.3 check 12)")
        }
        // §11.1: a jti seen within the window is a replay. Checked last, so a refused proof takes no place.
        var replayKey = Array(thumbprint.utf8)
        replayKey.append(UInt8(ascii: "."))
        replayKey += Array(jti.utf8)
        guard try cache.remember(Crypto.sha256(replayKey), until: iat &+ cache.window, now: now) else {
            throw .dpopRefusal("the jti was seen before: a replayed proof (RFC 9449 section 11.1)")
        }
        return thumbprint
    }

    /// As above, with the thumbprint from what the resource server learnt about the token (its `cnf.jkt`, a
    /// JWT access token's claim or the introspection answer's member, RFC 9449 §6.1, §6.2). A token that
    /// is not bound to a key is refused with `invalid_token` (RFC 6750 §3.1): it is no DPoP token.
    @discardableResult
    public func verifyDPoPProof(
        _ proof: String, method: String, url: String, accessToken: SecretBytes, tokenInfo: TokenInfo
    ) throws(TelenoridError) -> String {
        guard let jkt = tokenInfo.confirmationKeyThumbprint else {
            throw .dpopRefusal(
                "the access token is not bound to a DPoP key (no cnf.jkt, RFC 9449 section 6)", code: "invalid_token")
        }
        return try verifyDPoPProof(proof, method: method, url: url, accessToken: accessToken, jkt: jkt)
    }
}
