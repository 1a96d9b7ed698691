import Synchronization

/// The provider's signing keys, fetched from jwks_uri and cached. A token whose `kid` is not in the cache
/// triggers one refetch (the provider rotated its keys), but no more than one per
/// `minimumRefetchInterval`, so a flood of tokens with made-up key ids can't hammer the provider.
final class KeySetCache: Sendable {
    static let minimumRefetchInterval: Int64 = 30

    private struct Cache {
        var keys: JWKSet?
        /// Counts fetches, so a thread that waited for another's fetch can tell it happened.
        var generation = 0
        /// When a refetch for an unknown key last went out; the first fetch does not count.
        var refetchedAt: Int64?
    }
    private let cache = Mutex(Cache())
    /// One fetch at a time: threads that find the cache stale wait for the fetch under way.
    private let fetchGate = Mutex<Void>(())

    /// Verifies a JWS with the provider's key that fits it: the one with its `kid`, or, without a `kid`,
    /// each key of the right type in turn.
    func verify(_ jws: JWS, client: OIDCClient) throws(TelenoridError) {
        let cached = cache.withLock { $0 }
        if let keys = cached.keys, !candidates(keys, for: jws).isEmpty {
            return try verify(jws, with: candidates(keys, for: jws))
        }
        let keys: JWKSet = try fetchGate.withLock { _ throws(TelenoridError) -> JWKSet in
            let current = cache.withLock { $0 }
            // Another thread fetched while this one waited.
            if current.generation != cached.generation, let keys = current.keys { return keys }
            let now = client.clock()
            if let keys = current.keys, let last = current.refetchedAt, now &- last < KeySetCache.minimumRefetchInterval {
                return keys
            }
            let fresh = try fetch(client)
            cache.withLock { state in
                if state.keys != nil { state.refetchedAt = now }
                state.keys = fresh
                state.generation &+= 1
            }
            return fresh
        }
        let matching = candidates(keys, for: jws)
        guard !matching.isEmpty else {
            throw TelenoridError(.tokenInvalid, jws.keyID.map { "no key with kid \($0) in the provider's key set" }
                                 ?? "no key of the right type for \(jws.algorithm) in the provider's key set")
        }
        try verify(jws, with: matching)
    }

    private func candidates(_ keys: JWKSet, for jws: JWS) -> [JWK] {
        keys.keys.filter { key in
            key.canVerify(algorithm: jws.algorithm) && (jws.keyID == nil || key.keyID == jws.keyID)
        }
    }

    private func verify(_ jws: JWS, with keys: [JWK]) throws(TelenoridError) {
        var lastError = TelenoridError(.tokenInvalid, "no key verified the signature")
        for key in keys.prefix(8) {
            do { try jws.verify(with: key); return } catch { lastError = error }
        }
        throw lastError
    }

    private func fetch(_ client: OIDCClient) throws(TelenoridError) -> JWKSet {
        let url = try client.endpoint(.jwksURI)
        let response = try client.transport.send(HTTPRequest(url: url, headers: [("Accept", "application/json, application/jwk-set+json")]))
        guard response.status == 200 else {
            throw TelenoridError(.httpStatus, "the key set at \(url) answered HTTP \(response.status)", httpStatus: response.status)
        }
        return try JWKSet(json: response.body)
    }
}
