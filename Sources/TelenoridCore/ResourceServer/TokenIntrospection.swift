/// Introspection answers kept for reuse, keyed by the SHA-256 of the token (never the token itself: the
/// cache outlives the call, and a memory dump must not hand out live tokens). Each is kept until the
/// earlier of the host's max age and the token's `exp`, so an expired token is never reported active.
final class IntrospectionCache: Sendable {
    /// The most answers kept; when full, expired ones go first, then the one that would expire soonest.
    static let capacity = 1024

    private struct Entry {
        var info: TokenInfo
        var until: Int64
        var storedAt: Int64
    }
    private let entries = Locked<[[UInt8]: Entry]>([:])

    func clear() { entries.withLock { $0.removeAll() } }

    var count: Int { entries.withLock { $0.count } }

    /// The answer kept for `key`, unless it ran out or the clock went back past when it was stored.
    func answer(for key: [UInt8], now: Int64) -> TokenInfo? {
        entries.withLock { entries -> TokenInfo? in
            guard let entry = entries[key] else { return nil }
            guard now >= entry.storedAt, now < entry.until else {
                entries[key] = nil
                return nil
            }
            return entry.info
        }
    }

    /// Keeps `info` for at most `maxAge` seconds and never at or past its `exp`.
    func keep(_ info: TokenInfo, for key: [UInt8], now: Int64, maxAge: Int64) {
        var until = now &+ maxAge
        if let exp = info.seconds("exp") { until = min(until, exp) }
        guard until > now else { return }
        entries.withLock { entries in
            if entries[key] == nil && entries.count >= IntrospectionCache.capacity {
                for (stale, entry) in entries where entry.until <= now || now < entry.storedAt {
                    entries[stale] = nil
                }
                if entries.count >= IntrospectionCache.capacity,
                    let soonest = entries.min(by: { $0.value.until < $1.value.until })?.key
                {
                    entries[soonest] = nil
                }
            }
            entries[key] = Entry(info: info, until: until, storedAt: now)
        }
    }
}

extension ResourceServer {
    /// Asks the provider's introspection endpoint about `token` (RFC 7662 §2.1), authenticating as the
    /// client does at the token endpoint (§2.1: the endpoint requires it). `active: false` is an answer,
    /// not an error. The answer is reused for the same token within the cache's max age and never past the
    /// token's `exp`. The token goes out only in the request body, from and in wiping storage.
    public func introspect(_ token: SecretBytes, hint: String?) throws(TelenoridError) -> TokenInfo {
        let maxAge = options.withLock { $0.cacheMaxAge }
        let key = maxAge > 0 ? token.withUnsafeBytes { Crypto.sha256($0) } : []
        if maxAge > 0, let cached = cache.answer(for: key, now: client.clock()) { return cached }
        let info = try client.introspect(token, hint: hint)
        if maxAge > 0 { cache.keep(info, for: key, now: client.clock(), maxAge: maxAge) }
        return info
    }
}

extension OIDCClient {
    /// The largest introspection answer read (RFC 7662 answers are a few hundred bytes).
    static let maxIntrospectionBytes = 64 * 1024

    /// One introspection round trip (RFC 7662 §2.1, §2.2, §2.3).
    func introspect(_ token: SecretBytes, hint: String?) throws(TelenoridError) -> TokenInfo {
        let url = try endpoint(.introspectionEndpoint)
        var parameters = FormParameters()
        try parameters.appendSecret("token", token)
        if let hint { try parameters.append("token_type_hint", hint) }
        let response = try send(proofBy: nil) { () throws(TelenoridError) in
            var request = try authenticatedRequest(url: url, parameters: parameters)
            request.headers.append(("Accept", "application/json"))
            return request
        }
        return try OIDCClient.introspectionAnswer(response, now: clock())
    }

    /// Reads the endpoint's answer: a JSON object with a boolean `active` on 200 (§2.2); anything else is
    /// the provider's refusal (§2.3: 401 for a client it does not accept) or not an answer.
    static func introspectionAnswer(_ response: HTTPResponse, now: Int64) throws(TelenoridError) -> TokenInfo {
        guard response.body.count <= maxIntrospectionBytes else {
            throw TelenoridError(
                .responseTooLarge, "introspection: the answer is over \(maxIntrospectionBytes) bytes",
                httpStatus: response.status)
        }
        let (object, _) = try OAuthErrorResponse.jsonObject(from: response, during: "introspection", now: now)
        return try TokenInfo(introspection: object, what: "the introspection answer")
    }
}
