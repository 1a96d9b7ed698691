
/// Exchanges a refresh token for new tokens; the OIDC client does it over HTTP, tests do it in memory.
public protocol TokenRefresher: Sendable {
    func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet
}

/// What AppAuth calls AuthState: the tokens of one signed-in user, handed out fresh. Safe to share
/// between threads; when many ask for a token that must be refreshed, one refresh goes out and all of
/// them get its outcome.
public final class AuthState: Sendable {
    struct Snapshot {
        var tokens: TokenSet?
        /// Why the state is signed out, when the provider said so.
        var lostReason: TelenoridError?
        /// Counts finished refresh attempts, so a thread that waited for another's attempt takes its
        /// outcome instead of sending a second request.
        var attempts: UInt64 = 0
        var lastOutcome: Result<TokenSet, TelenoridError>?
    }

    private let snapshot: Locked<Snapshot>
    /// Held for the whole of a refresh round trip: the single-flight gate.
    private let refreshGate = Locked<Bool>(false)  // the value is unused: the lock is the gate
    private let observer = Locked<(@Sendable () -> Void)?>(nil)
    public let refresher: any TokenRefresher
    public let clock: Clock
    public let refreshMarginSeconds: Int64
    /// Who the tokens are from and for, saved with them so they are never restored into another client.
    public let issuer: String?
    public let clientID: String?

    public init(tokens: TokenSet?, refresher: any TokenRefresher, clock: @escaping Clock, refreshMarginSeconds: Int64,
                issuer: String? = nil, clientID: String? = nil) {
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
        observer.withLock { $0 = callback }
    }

    /// An access token valid for at least the refresh margin, refreshing first when needed.
    public func freshTokens() throws(TelenoridError) -> TokenSet {
        let (current, attempts) = snapshot.withLock { ($0.tokens, $0.attempts) }
        guard let current else { throw notSignedInError() }
        if !current.expires(within: refreshMarginSeconds, now: clock()) { return current }
        return try refresh(seenAttempts: attempts, force: false)
    }

    /// Refreshes now, whatever the expiry; joins a refresh already under way instead of starting another.
    public func forceRefresh() throws(TelenoridError) -> TokenSet {
        let attempts = snapshot.withLock { $0.attempts }
        return try refresh(seenAttempts: attempts, force: true)
    }

    /// Forgets the tokens (after a logout or revocation the host asked for).
    public func signOut() {
        snapshot.withLock { $0.tokens = nil; $0.lostReason = nil }
        notify()
    }

    private func refresh(seenAttempts: UInt64, force: Bool) throws(TelenoridError) -> TokenSet {
        // The outcome, and whether this thread changed the state (only that thread tells the observer).
        let (outcome, changed): (Result<TokenSet, TelenoridError>, Bool) = refreshGate.withLock { _ in
            let state = snapshot.withLock { $0 }
            if state.attempts != seenAttempts, let last = state.lastOutcome {
                return (last, false)
            }
            guard let tokens = state.tokens else { return (.failure(notSignedInError()), false) }
            if !force && !tokens.expires(within: refreshMarginSeconds, now: clock()) { return (.success(tokens), false) }
            guard tokens.refreshToken != nil else {
                return (.failure(TelenoridError(.notSignedIn, "the access token expired and there is no refresh token")), false)
            }
            let result: Result<TokenSet, TelenoridError>
            do throws(TelenoridError) {
                result = .success(try refresher.refresh(tokens))
            } catch where AuthState.meansAuthorizationLost(error) {
                var lost = error
                lost.kind = .authorizationLost
                lost.message = "signed out: the provider refused the refresh token: \(error.message)"
                result = .failure(lost)
            } catch {
                result = .failure(error)
            }
            var changed = false
            snapshot.withLock { state in
                state.attempts &+= 1
                state.lastOutcome = result
                switch result {
                case .success(let fresh):
                    state.tokens = fresh
                    changed = true
                case .failure(let error) where error.kind == .authorizationLost:
                    state.tokens = nil
                    state.lostReason = error
                    changed = true
                case .failure: break  // transient: the tokens stay as they were
                }
            }
            return (result, changed)
        }
        if changed { notify() }
        return try outcome.get()
    }

    /// RFC 6749 §5.2 errors that mean the grant itself is gone, as opposed to a passing failure.
    static func meansAuthorizationLost(_ error: TelenoridError) -> Bool {
        guard error.kind == .authorizationError, let code = error.oauthError else { return false }
        return ["invalid_grant", "invalid_client", "unauthorized_client", "access_denied"].contains(code)
    }

    private func notSignedInError() -> TelenoridError {
        if let reason = lostReason {
            return TelenoridError(.notSignedIn, "not signed in: \(reason.message)", oauthError: reason.oauthError,
                                  oauthErrorDescription: reason.oauthErrorDescription, httpStatus: reason.httpStatus)
        }
        return TelenoridError(.notSignedIn, "not signed in")
    }

    private func notify() {
        if let callback = observer.withLock({ $0 }) { callback() }
    }
}
