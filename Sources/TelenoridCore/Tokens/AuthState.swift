/// Exchanges a refresh token for new tokens; the OIDC client does it over HTTP, tests do it in memory.
/// Class-bound: Embedded Swift has existentials of class-bound protocols only.
public protocol TokenRefresher: AnyObject, Sendable {
    /// One refresh round trip. A refusal that means the grant is gone is thrown as `.authorizationLost`;
    /// any other error leaves the grant as it was.
    func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet
    /// The same round trip, finished despite a cancel that came after its request may have left (the
    /// provider may have rotated the refresh token for it): `cancelledAfterSending` then says the caller
    /// keeps the tokens and reports the call cancelled.
    func refreshFinishingOnceSent(_ tokens: TokenSet) throws(TelenoridError) -> (
        tokens: TokenSet, cancelledAfterSending: Bool
    )
    /// Revokes the grant of `tokens` at the provider (the refresh token, else the access token; RFC 7009).
    func revokeGrant(_ tokens: TokenSet) throws(TelenoridError)
    /// The signer of the host-held DPoP key whose RFC 7638 thumbprint a saved state records (RFC 9449 §6):
    /// tokens bound to it go on only with it. Fails when the refresher has no signer for that key.
    func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner
}

extension TokenRefresher {
    /// A refresher that cannot be cancelled has nothing to finish.
    public func refreshFinishingOnceSent(_ tokens: TokenSet) throws(TelenoridError) -> (
        tokens: TokenSet, cancelledAfterSending: Bool
    ) {
        (try refresh(tokens), false)
    }
}

/// What AppAuth calls AuthState: the tokens of one signed-in user, handed out fresh. Safe to share
/// between threads; when many ask for a token that must be refreshed, one refresh goes out and all of
/// them get its outcome. Bound to a store (`AuthStateStore`), it is also safe to share between processes.
public final class AuthState: Sendable {
    struct Snapshot {
        var tokens: TokenSet?
        /// Why the state is signed out, when the provider said so.
        var lostReason: TelenoridError?
        /// Counts finished refresh attempts, so a thread that waited for another's attempt takes its
        /// outcome instead of sending a second request.
        var attempts: UInt64 = 0
        /// Boxed: a token set inline here would be held, empty, by every state that has not refreshed yet
        /// (most of them); the box is made once per refresh attempt.
        var lastOutcome: Outcome?
        /// Counts sign-outs, so a refresh that was in flight during one knows its result must not land.
        var signOuts: UInt64 = 0
        /// A resource server refused the current access token before its expiry: the next fresh-token
        /// call refreshes (AppAuth's `needsTokenRefresh`).
        var accessTokenRejected = false
        /// The marker of this state's own refresh whose tokens the store did not take: memory is ahead of
        /// the store, which still holds that marker (see "Rotation journal").
        var unsavedMarker: Int64?
        /// Called after every change a host must persist (`setObserver`). Read under the lock, called
        /// outside it.
        var observer: (@Sendable () -> Void)?
        /// The store the state is bound to (`bind`, `attach`). It and the observer are kept here rather than
        /// behind locks of their own (two locks fewer per state): both are only ever copied out, and used
        /// after the lock is let go.
        var store: (any AuthStateStore)?
    }

    /// The outcome of the last finished refresh attempt, for the threads that waited on it.
    final class Outcome: Sendable {
        let result: Result<TokenSet, TelenoridError>
        init(_ result: Result<TokenSet, TelenoridError>) { self.result = result }
    }

    private let snapshot: Locked<Snapshot>
    /// Held for the whole of a refresh round trip: the single-flight gate.
    private let refreshGate = Locked<Bool>(false)  // the value is unused: the lock is the gate
    public let refresher: any TokenRefresher
    public let clock: Clock
    public let refreshMarginSeconds: Int64
    /// Who the tokens are from and for, saved with them so they are never restored into another client.
    public let issuer: String?
    public let clientID: String?

    public init(
        tokens: TokenSet?, refresher: any TokenRefresher, clock: @escaping Clock, refreshMarginSeconds: Int64,
        issuer: String? = nil, clientID: String? = nil
    ) {
        snapshot = Locked(Snapshot(tokens: tokens))
        self.refresher = refresher
        self.clock = clock
        self.refreshMarginSeconds = refreshMarginSeconds
        self.issuer = issuer
        self.clientID = clientID
    }

    public var tokens: TokenSet? { snapshot.withLock { $0.tokens } }
    public var isSignedIn: Bool { tokens != nil }
    public var lostReason: TelenoridError? { snapshot.withLock { $0.lostReason } }

    /// Called after every change a host must persist (a rotation, a sign-out), on the thread that made
    /// it, outside the state's locks.
    public func setObserver(_ callback: (@Sendable () -> Void)?) {
        snapshot.withLock { $0.observer = callback }
    }

    /// An access token valid for at least the refresh margin, refreshing first when needed. Tokens a
    /// refresh brought that the store did not take (`.storeFailed`) are written there before they are used,
    /// through the refresh's own path, which sends nothing while they are fresh; a store that still fails
    /// leaves them in use (the record's marker already says what a process that stops now loses).
    public func freshTokens() throws(TelenoridError) -> TokenSet {
        let (current, attempts, rejected, unsaved) = snapshot.withLock {
            ($0.tokens, $0.attempts, $0.accessTokenRejected, $0.unsavedMarker != nil)
        }
        guard let current else { throw notSignedInError() }
        if !rejected && !current.expires(within: refreshMarginSeconds, now: clock()) {
            return unsaved ? (try? refresh(seenAttempts: attempts, force: false)) ?? current : current
        }
        return try refresh(seenAttempts: attempts, force: false)
    }

    /// Refreshes now, whatever the expiry; joins a refresh already under way instead of starting another.
    public func forceRefresh() throws(TelenoridError) -> TokenSet {
        let attempts = snapshot.withLock { $0.attempts }
        return try refresh(seenAttempts: attempts, force: true)
    }

    /// A resource server refused `accessToken` (nil: the current one) with 401: the next fresh-token call
    /// refreshes. A report about a token the state no longer holds changes nothing, so late reports from
    /// calls made before a refresh do not cause another.
    public func accessTokenRejected(_ accessToken: SecretBytes?) {
        snapshot.withLock { state in
            guard let current = state.tokens?.accessToken else { return }
            if let accessToken, !Crypto.constantTimeEquals(current.bytes, accessToken.bytes) { return }
            state.accessTokenRejected = true
        }
    }

    /// Tokens to use instead of `rejected`, whose access token was just refused: the current ones when
    /// another thread has already replaced it, else the outcome of one refresh.
    public func replacing(rejected: TokenSet) throws(TelenoridError) -> TokenSet {
        accessTokenRejected(rejected.accessToken)
        return try freshTokens()
    }

    /// Forgets the tokens (after a logout or revocation the host asked for). A refresh in flight loses to
    /// it: its result is discarded, and revoked at the provider when it brought new tokens. Gives the
    /// tokens that were held, for the caller to revoke. Bound to a store, the state first re-reads it under
    /// its lock and records the sign-out there, so the tokens given are the live ones, which another
    /// process may have rotated to; when the store can't be reached (its lock held too long, say), the
    /// state signs out here only.
    @discardableResult
    public func signOut() -> TokenSet? {
        let (previous, changed) = (try? signOutRecorded(keepingReason: false)) ?? (clearTokens(), true)
        if changed { Log.info("auth_state.signed_out", "signed out") }
        if changed { notify() }
        return previous
    }

    /// Signs out, then revokes the grant at the provider (RFC 7009). Signing out first means no refresh in
    /// flight can bring the grant back; a failed revocation is reported, but the state stays signed out
    /// (the user asked to be). Bound to a store, the sign-out is recorded there first, under its lock, and
    /// what is revoked is what the store held: when the store can't be read or locked, or holds a state
    /// of another client, that error is thrown and nothing changes.
    public func revoke() throws(TelenoridError) {
        let (tokens, changed) = try signOutRecorded(keepingReason: true)
        if changed { Log.info("auth_state.signed_out", "signed out to revoke the grant") }
        if changed { notify() }
        // Nothing to revoke: the state (and why it was signed out) stays as it is.
        guard let tokens else { throw notSignedInError() }
        try refresher.revokeGrant(tokens)
    }

    /// Signs out in memory and, when bound, in the store, after adopting what the store holds. Gives the
    /// tokens that were live and whether this state changed. `keepingReason`: a state already signed out
    /// stays as it is, with why it was (a revoke with nothing to revoke changes nothing).
    private func signOutRecorded(keepingReason: Bool) throws(TelenoridError) -> (TokenSet?, Bool) {
        guard let store = snapshot.withLock({ $0.store }) else {
            if keepingReason && !isSignedIn { return (nil, false) }
            let previous = clearTokens()
            return (previous, previous != nil)
        }
        // The update lock only: a refresh out in another process does not hold up the sign-out, and sees it
        // when it lands.
        return try updating(in: store) { () throws(TelenoridError) -> (TokenSet?, Bool) in
            let adopted = try adoptStored(from: store).changed
            if keepingReason && !isSignedIn { return (nil, adopted) }
            let previous = clearTokens()
            // A write that fails leaves the memory state authoritative (the store is the host's durability,
            // not its truth in this process); the grant is revoked all the same, so what the store still
            // holds is of no use to anyone.
            try? store.save(serialized())
            return (previous, adopted || previous != nil)
        }
    }

    private func clearTokens() -> TokenSet? {
        snapshot.withLock { state -> TokenSet? in
            defer {
                state.tokens = nil
                state.lostReason = nil
                state.accessTokenRejected = false
                state.signOuts &+= 1
            }
            return state.tokens
        }
    }

    // MARK: Store

    /// From now on the state lives in `store` too: written there now and after every change, and every
    /// refresh holds the store's exclusive lock and starts from what is stored, so processes sharing the
    /// store never redeem one refresh token twice.
    public func bind(to store: any AuthStateStore) throws(TelenoridError) {
        try store.withExclusiveAccess { () throws(TelenoridError) in try store.save(serialized()) }
        attach(to: store)
    }

    /// Writes the state to its bound store now, under the store's update lock, as the next use would:
    /// tokens a refresh brought that the store did not take (`.storeFailed` from that refresh) go over the
    /// record's marker; a record another process changed since (a refresh, a sign-out) is taken up rather
    /// than overwritten, and one whose refresh is under way elsewhere (its marker) is left to that refresh.
    /// `.storeFailed` when the store does not take the write (the tokens stay in memory and in use, and the
    /// write is tried again before their next use); `.invalidArgument` when the state is bound to no store.
    public func save() throws(TelenoridError) {
        guard let store = snapshot.withLock({ $0.store }) else {
            throw TelenoridError(
                .invalidArgument,
                "the auth state is bound to no store or file (bind or open one first): nothing to save to")
        }
        let changed = try updating(in: store) { () throws(TelenoridError) -> Bool in
            let found: (changed: Bool, staleMarker: Bool)
            do throws(TelenoridError) { found = try adoptStored(from: store) } catch {
                throw error.kind == .storeFailed ? AuthState.unsaved(error) : error
            }
            guard !found.staleMarker else { return found.changed }
            do throws(TelenoridError) { try store.save(serialized()) } catch { throw AuthState.unsaved(error) }
            return found.changed
        }
        if changed { notify() }
    }

    /// Binds without writing, for a state just read from `store`: writing it back could put older tokens
    /// over a refresh another process saved in the meantime.
    func attach(to store: any AuthStateStore) {
        snapshot.withLock { $0.store = store }
    }

    /// What the store holds, when it differs from memory: another process refreshed or signed out. The
    /// stored state passes the checks a restore makes (the same issuer and client id; tokens bound to a
    /// host-held key only with that key's signer), or nothing changes. `staleMarker`: the record holds the
    /// marker of a refresh whose process is gone (the caller holds the exclusive lock its writer held).
    /// A record that holds this state's own unsaved marker is behind memory: memory is written over it.
    private func adoptStored(from store: any AuthStateStore) throws(TelenoridError) -> (
        changed: Bool, staleMarker: Bool
    ) {
        guard let text = try store.load() else { return (false, false) }
        let record: (tokens: TokenSet?, refreshStartedAt: Int64?)
        do throws(TelenoridError) {
            record = try AuthState.restoredRecord(text, issuer: issuer, clientID: clientID, refresher: refresher)
        } catch {
            throw store.unreadable(error)
        }
        let unsaved = snapshot.withLock { $0.unsavedMarker }
        if let marker = record.refreshStartedAt, marker == unsaved {
            try store.save(serialized())
            snapshot.withLock { $0.unsavedMarker = nil }
            return (false, false)
        }
        let stored = record.tokens
        let changed = snapshot.withLock { state in
            state.unsavedMarker = nil
            let same: Bool
            switch (state.tokens, stored) {
            case (nil, nil): same = true
            case (let mine?, let theirs?):
                same =
                    mine.accessToken.bytes == theirs.accessToken.bytes
                    && mine.refreshToken?.bytes == theirs.refreshToken?.bytes
            default: same = false
            }
            guard !same else { return false }
            state.tokens = stored
            state.accessTokenRejected = false
            if stored == nil { state.signOuts &+= 1 }
            return true
        }
        return (changed, record.refreshStartedAt != nil)
    }

    // MARK: Refresh

    private typealias Landed = (Result<TokenSet, TelenoridError>, Bool, TokenSet?)

    private func refresh(seenAttempts: UInt64, force: Bool) throws(TelenoridError) -> TokenSet {
        // Set when a cancel came after this thread's request may have left: its answer is kept, and this
        // call (not the threads that share the outcome) reports the cancel.
        var cancelledAfterSending = false
        // The outcome; whether this thread changed the state (only that thread tells the observer); tokens
        // a sign-out made obsolete while they were being fetched.
        let (outcome, changed, orphaned): Landed = refreshGate.withLock { _ in
            // Only the outcome, not a copy of the whole snapshot (tokens, errors): this runs per refresh.
            if let last = snapshot.withLock({ $0.attempts != seenAttempts ? $0.lastOutcome : nil }) {
                return (last.result, false, nil)
            }
            guard let store = snapshot.withLock({ $0.store }) else {
                switch needed(force: force) {
                case .answer(let answer): return (answer, false, nil)
                case .send(let tokens, let signOuts):
                    return land(
                        send(tokens, staleMarker: false, cancelledAfterSending: &cancelledAfterSending),
                        signOuts: signOuts)
                }
            }
            var landed: Landed? = nil
            do throws(TelenoridError) {
                return try exclusively(in: store) { () throws(TelenoridError) -> Landed in
                    let result = attempt(force: force, store: store, cancelledAfterSending: &cancelledAfterSending)
                    landed = result
                    return result
                }
            } catch {
                // A lock not had fails the call; an unlock that failed after the attempt leaves its outcome.
                return landed ?? (.failure(error), false, nil)
            }
        }
        if let orphaned { try? refresher.revokeGrant(orphaned) }
        if changed { notify() }
        let tokens = try outcome.get()
        guard !cancelledAfterSending else {
            throw TelenoridError(
                .cancelled,
                "the refresh was cancelled after its request was sent; its answer was awaited and the new tokens "
                    + "are kept\(snapshot.withLock({ $0.store }) == nil ? "" : " and saved")")
        }
        return tokens
    }

    private enum Need {
        /// No request: the tokens are fresh enough, or the state can't refresh.
        case answer(Result<TokenSet, TelenoridError>)
        /// A refresh of `tokens`, which started when the state had counted `signOuts` sign-outs.
        case send(TokenSet, signOuts: UInt64)
    }

    /// Whether a refresh must go out now (under the gate, and the store's locks when bound).
    private func needed(force: Bool) -> Need {
        let (current, rejected, signOuts) = snapshot.withLock { ($0.tokens, $0.accessTokenRejected, $0.signOuts) }
        guard let tokens = current else { return .answer(.failure(notSignedInError())) }
        if !force && !rejected && !tokens.expires(within: refreshMarginSeconds, now: clock()) {
            return .answer(.success(tokens))
        }
        guard tokens.refreshToken != nil else {
            return .answer(
                .failure(
                    TelenoridError(
                        .notSignedIn,
                        rejected
                            ? "the access token was refused and there is no refresh token"
                            : "the access token expired and there is no refresh token")))
        }
        return .send(tokens, signOuts: signOuts)
    }

    /// One refresh round trip. After a stale marker (see "Rotation journal"), the provider's refusal of
    /// the stored refresh token most likely means it rotated it for the refresh whose answer was lost.
    private func send(_ tokens: TokenSet, staleMarker: Bool, cancelledAfterSending: inout Bool)
        -> Result<TokenSet, TelenoridError>
    {
        do throws(TelenoridError) {
            let refreshed = try refresher.refreshFinishingOnceSent(tokens)
            Log.info("token.refreshed", "tokens refreshed")
            cancelledAfterSending = refreshed.cancelledAfterSending
            return .success(refreshed.tokens)
        } catch {
            Log.warning("token.refresh_failed", Log.describe(error))
            guard staleMarker, error.kind == .authorizationLost else { return .failure(error) }
            var lost = error
            lost.kind = .rotationPossiblyLost
            lost.message =
                "signed out: a refresh was in flight when the process making it stopped, and the provider "
                + "now refuses the stored refresh token; it probably rotated it for that refresh, whose answer "
                + "was never stored, so sign in again: \(error.message)"
            return .failure(lost)
        }
    }

    // MARK: Rotation journal
    //
    // A provider that rotates refresh tokens (RFC 9700 §4.14.2) answers a refresh with a new one and
    // invalidates the old: a process that stops after the request left and before the answer is stored
    // leaves the store with a refresh token the provider no longer honours, and nothing says why. So under
    // the exclusive lock the stored record gets a marker (when the refresh started; no token) before the
    // request leaves, and loses it when the answer is stored, or when the request failed in a way that
    // proves the provider did not act on it. A marker found later, under the exclusive lock its writer held,
    // is one whose process is gone: the refresh goes out with the stored token all the same (the provider
    // may not have received the lost request), and a refusal is reported as `.rotationPossiblyLost`.

    /// One refresh under the gate and the store's exclusive lock: starts from what the store holds
    /// (tokens another process refreshed since this one last looked answer this call, a forced refresh
    /// too: as threads waiting on one refresh share it, processes do), writes the marker, sends, lands.
    private func attempt(force: Bool, store: any AuthStateStore, cancelledAfterSending: inout Bool) -> Landed {
        var adopted = false
        // Under the update lock, so that a sign-out recorded by another process is taken up, not
        // overwritten by the marker.
        let prepared: (Need, Int64?, Bool)
        var ready: (Need, Int64?, Bool)? = nil
        do throws(TelenoridError) {
            prepared = try updating(in: store) { () throws(TelenoridError) -> (Need, Int64?, Bool) in
                let found = try adoptStored(from: store)
                adopted = found.changed
                let need = needed(force: force && !found.changed)
                guard case .send = need else { return (need, nil, found.staleMarker) }
                let marker = clock()
                try store.save(serialized(refreshStartedAt: marker))
                let sending = (need, Optional(marker), found.staleMarker)
                ready = sending
                return sending
            }
        } catch {
            // A failed unlock after the marker went in: the refresh goes on, as its marker says it does.
            // Otherwise nothing was sent; what was taken up from the store before the failure is still news.
            guard let ready else { return (.failure(error), adopted, nil) }
            prepared = ready
        }
        switch prepared.0 {
        case .answer(let answer):
            return (answer, adopted, nil)
        case .send(let tokens, let signOuts):
            let result = send(tokens, staleMarker: prepared.2, cancelledAfterSending: &cancelledAfterSending)
            var landed: Landed? = nil
            _ = try? store.withUpdateAccess { () throws(TelenoridError) in
                landed = land(result, signOuts: signOuts, marker: prepared.1, in: store, reread: true)
            }
            // A store that can't be locked now still gets the outcome: the provider has already rotated the
            // refresh token it replaces.
            let outcome = landed ?? land(result, signOuts: signOuts, marker: prepared.1, in: store, reread: false)
            return (outcome.0, outcome.1 || adopted, outcome.2)
        }
    }

    /// Lands an outcome in a bound state, under the store's update lock when `reread`, after a re-read:
    /// only a sign-out writes without the exclusive lock the refresh holds, so a stored state with no
    /// tokens is one made while the request was out, and it wins as one made here does. The record is
    /// then written without the marker, unless the request failed after it may have reached the provider.
    @inline(never)
    private func land(
        _ outcome: Result<TokenSet, TelenoridError>, signOuts: UInt64, marker: Int64?, in store: any AuthStateStore,
        reread: Bool
    ) -> Landed {
        var signedOutThere = false
        if reread, let text = try? store.load(), let saved = try? AuthState.tokens(fromSerialized: text) {
            signedOutThere = saved.tokens == nil
        }
        // Taken up here unless this process's own sign-out put it there (and told the observer).
        let cleared = signedOutThere && clearTokens() != nil
        let landed = land(outcome, signOuts: signOuts)
        var keepMarker = false
        if case .failure(let error) = landed.0 { keepMarker = AuthState.mayHaveReachedProvider(error) }
        if landed.1 || !keepMarker {
            do throws(TelenoridError) {
                try store.save(serialized())
            } catch {
                // The new tokens live on in memory and are used; the store still holds the marker, which
                // this state recognises as its own and writes over before the tokens are next used. The
                // call says so: a host that stops now loses the rotation, as the marker will tell.
                if case .success = landed.0, landed.1 {
                    snapshot.withLock { $0.unsavedMarker = marker }
                    return (.failure(AuthState.unsaved(error)), true, landed.2)
                }
            }
        }
        return (landed.0, landed.1 || cleared, landed.2)
    }

    static func unsaved(_ error: TelenoridError) -> TelenoridError {
        TelenoridError(
            .storeFailed,
            "the refreshed tokens are kept and used in this process, but the store did not take them; the "
                + "write is tried again before their next use: \(error.message)")
    }

    /// Whether a refresh that failed so may have been acted on by the provider: no answer came after the
    /// request was written, or an answer came that could not be taken (it may have carried new tokens).
    static func mayHaveReachedProvider(_ error: TelenoridError) -> Bool {
        switch error.kind {
        case .timeout, .network, .tls, .cancelled: return !error.requestNotSent
        case .invalidResponse, .tokenInvalid, .responseTooLarge: return true
        default: return false
        }
    }

    /// Takes the outcome of a refresh that started when the state had counted `signOuts` sign-outs.
    @inline(never)
    private func land(_ outcome: Result<TokenSet, TelenoridError>, signOuts: UInt64)
        -> (Result<TokenSet, TelenoridError>, Bool, TokenSet?)
    {
        var result = outcome
        var orphaned: TokenSet? = nil
        let changed = snapshot.withLock { current -> Bool in
            current.attempts &+= 1
            if current.signOuts != signOuts {
                // Signed out while the request was out: the sign-out wins.
                if case .success(let fresh) = result { orphaned = fresh }
                result = .failure(
                    TelenoridError(.notSignedIn, "not signed in: signed out while a refresh was under way"))
                current.lastOutcome = Outcome(result)
                return false
            }
            current.lastOutcome = Outcome(result)
            switch result {
            case .success(let fresh):
                current.tokens = fresh
                current.accessTokenRejected = false
                return true
            case .failure(let error) where error.kind == .authorizationLost || error.kind == .rotationPossiblyLost:
                current.tokens = nil
                current.lostReason = error
                current.accessTokenRejected = false
                return true
            case .failure:
                return false  // transient, or the client's own problem: the tokens stay as they were
            }
        }
        return (result, changed, orphaned)
    }

    private func notSignedInError() -> TelenoridError {
        if let reason = lostReason {
            return TelenoridError(
                .notSignedIn, "not signed in: \(reason.message)", oauthError: reason.oauthError,
                oauthErrorDescription: reason.oauthErrorDescription, httpStatus: reason.httpStatus)
        }
        return TelenoridError(.notSignedIn, "not signed in")
    }

    private func notify() {
        if let callback = snapshot.withLock({ $0.observer }) { callback() }
    }
}
