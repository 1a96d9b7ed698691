/// Where a `KeySetCache` gets the provider's key set (RFC 7517 §5) from: the client's jwks_uri, or a test's
/// stand-in.
protocol KeySource: Sendable {
    func fetchKeySet() throws(TelenoridError) -> JWKSet
}

/// The provider's signing keys, fetched from a key source and cached for `maxAge` seconds: a set older than
/// that is fetched again before use, so a key the provider withdrew stops verifying within `maxAge`.
///
/// A token whose `kid` is not in a fresh set triggers one refetch (the provider rotated its keys), but no
/// more than one per `minimumRefetchInterval`, whether it succeeded or not, so a flood of tokens with
/// made-up key ids can't hammer the provider. After any failed fetch there is no new attempt for that long
/// either: the failure is reported again instead. A set past its age is never used, not even while its
/// refetch fails: the withdrawn key it may hold must not verify, so verification fails with the fetch's
/// (often transient) error until the provider answers.
struct KeySetCache: Sendable {
    static let minimumRefetchInterval: Int64 = 30

    private struct Cache {
        var keys: JWKSet?
        var fetchedAt: Int64 = 0
        /// When a refetch for an unknown key last went out; fetches of a missing or aged set do not count.
        var refetchedAt: Int64?
        var failure: (error: TelenoridError, at: Int64)?
    }
    let maxAge: Int64
    private let cache = Locked(Cache())
    /// One fetch at a time: threads that find the cache wanting wait for the fetch under way, then look again.
    private let fetchGate = Locked<Void>(())

    init(maxAge: Int64) {
        self.maxAge = maxAge
    }

    /// Verifies a JWS with the provider's key that fits it: the one with its `kid`, or, without a `kid`,
    /// each key of the right type in turn. `now` is the client's clock.
    func verify(_ jws: JWS, now: Int64, from source: some KeySource) throws(TelenoridError) {
        if let keys = cache.withLock({ fresh($0, now) }), case let matching = candidates(keys, for: jws),
            !matching.isEmpty
        {
            return try verify(jws, with: matching)
        }
        let matching = try fetchGate.withLock { _ throws(TelenoridError) -> [JWK] in
            let current = cache.withLock { $0 }
            let held = fresh(current, now)
            if let held {
                let matching = candidates(held, for: jws)
                if !matching.isEmpty { return matching }
                if recent(current.refetchedAt, now) {
                    // The refetch for an unknown key failed: the provider's current set is unknown, so the
                    // token is not judged by a set that may predate its key; the failure stands instead.
                    if let failure = current.failure { throw Self.unknownKey(jws, refetchFailed: failure.error) }
                    return matching
                }
            } else if let failure = current.failure, recent(failure.at, now) {
                throw failure.error
            }
            let isRefetch = held != nil
            do throws(TelenoridError) {
                let keys = try source.fetchKeySet()
                Log.info("jwks.fetched", "\(keys.keys.count) keys\(isRefetch ? ", refetched for an unknown key" : "")")
                cache.withLock { state in
                    state = Cache(
                        keys: keys, fetchedAt: now, refetchedAt: isRefetch ? now : state.refetchedAt, failure: nil)
                }
                return candidates(keys, for: jws)
            } catch {
                // A cancelled fetch is no answer from the provider: the next verification may fetch at once.
                guard error.kind != .cancelled else { throw error }
                cache.withLock { state in
                    state.failure = (error, now)
                    if isRefetch { state.refetchedAt = now }
                }
                throw isRefetch ? Self.unknownKey(jws, refetchFailed: error) : error
            }
        }
        guard !matching.isEmpty else { throw TelenoridError(.tokenInvalid, Self.noKey(jws)) }
        try verify(jws, with: matching)
    }

    /// What the set lacks for `jws`; the token's own header values are escaped (outside text).
    private static func noKey(_ jws: JWS) -> String {
        jws.keyID.map { "no key with kid \(DisplayText.escaping($0)) in the provider's key set" }
            ?? "no key of the right type for \(DisplayText.escaping(jws.algorithm)) in the provider's key set"
    }

    /// A token whose key is not in the held set while the refetch for it failed: the failure's kind (often
    /// transient), not `.tokenInvalid`, since the library could not look at the provider's current set.
    private static func unknownKey(_ jws: JWS, refetchFailed failure: TelenoridError) -> TelenoridError {
        var error = failure
        error.message = "\(noKey(jws)), and refetching the set failed: \(failure.message)"
        return error
    }

    /// The cached set while younger than `maxAge`. A clock set back before the fetch does not make the set
    /// look fresh forever.
    private func fresh(_ state: Cache, _ now: Int64) -> JWKSet? {
        guard let keys = state.keys, now >= state.fetchedAt, now - state.fetchedAt < maxAge else { return nil }
        return keys
    }

    private func recent(_ time: Int64?, _ now: Int64) -> Bool {
        guard let time else { return false }
        return now >= time && now - time < KeySetCache.minimumRefetchInterval
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
}
