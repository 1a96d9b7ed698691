/// The local sign-out a validated logout token asks for (Back-Channel Logout 1.0 §2.7): the client forgets
/// the sign-ins it names. Nothing is revoked at the provider (the provider ended the session itself), and
/// the change is announced as any sign-out is: the auth state's change callback, and the store record, which
/// every state bound to it takes up (with its callback) when it next reads it.
extension AuthState {
    /// Signs the state out (`signOut()`: no revocation) when `token` names its sign-in: the ID token's
    /// `iss`, and `sub` and `sid` as the token gives them. Gives whether it did; a state signed out
    /// already, or without an ID token, is not named.
    public func signOut(for token: LogoutToken) -> Bool {
        guard let claims = tokens?.idTokenClaims, token.names(idTokenClaims: claims) else { return false }
        signOut()
        return true
    }
}

extension AccountRegistry {
    /// Signs out the accounts `token` names and drops them from the registry; gives their ids. An account
    /// of the token's issuer and `sub` is named when the token has no `sid`; with a `sid`, the account's
    /// record must hold a sign-in whose ID token has that `sid` (and that `sub`, when given). Each named
    /// account's record is signed out (as `AuthState.signOut()`, nothing revoked) before the registry drops
    /// it; an account whose record can't be opened is left as it is and the error thrown once the others
    /// are done.
    ///
    /// Finding, signing out and dropping are one step under the registry's exclusive lock, as every other
    /// change of the registry is: otherwise the same user signing in again between the sign-out and the
    /// drop (`add` binds the new sign-in to the record, then puts the account first) would lose the new
    /// sign-in's account, its record live and its entry gone. Locks nest registry first, then an account's
    /// record (opening it, then its update lock for the sign-out); no operation takes them the other way
    /// round. The states opened here are the registry's own, with no observer, so no change callback of
    /// the host runs under the lock: states the host holds on these records take the sign-out up, with
    /// their callbacks, when they next read their record, as after `remove`.
    public func signOut(for token: LogoutToken) throws(TelenoridError) -> [String] {
        guard let issuer = token.issuer else { return [] }
        var named: [String] = []
        var failure: TelenoridError? = nil
        try registry.withExclusiveAccess { () throws(TelenoridError) in
            let entries = try accounts()
            for entry in entries {
                guard entry["issuer"]?.stringValue == issuer, let id = entry["id"]?.stringValue else { continue }
                if let subject = token.subject, entry["subject"]?.stringValue != subject { continue }
                let state: AuthState
                do throws(TelenoridError) { state = try client.openAuthState(try accountRecord(id)) } catch {
                    failure = failure ?? error
                    continue
                }
                if state.signOut(for: token) {
                    named.append(id)
                } else if token.sessionID == nil && !state.isSignedIn {
                    // Named by sub alone and signed out already: dropped all the same.
                    named.append(id)
                }
            }
            if !named.isEmpty {
                try save(entries.filter { entry in !named.contains { $0 == entry["id"]?.stringValue } })
            }
        }
        if let failure { throw failure }
        return named
    }
}
