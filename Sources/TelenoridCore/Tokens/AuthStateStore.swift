/// Where an auth state keeps itself so that several processes (an app and its widget, two runs of a
/// command) can share one sign-in without redeeming a refresh token twice: providers that rotate refresh
/// tokens treat a second use as theft and revoke the whole grant (RFC 9700 §4.14.2).
///
/// Two locks: the exclusive one, which a refresh holds for its whole round trip so that one process at a
/// time redeems the refresh token; and the update one, held only while the stored state is read and
/// written back, never across a network call. A sign-out takes only the update lock, so it is recorded at
/// once even while another process's refresh is out, and that refresh, landing under the update lock
/// after a re-read, sees it. Taken together, the exclusive lock comes first. A write that reads nothing
/// (binding a state) needs only the exclusive lock: renamed into place whole, it is ordered with a sign-out
/// one way or the other.
///
/// Class-bound, and its locks take a body without a result: the shipped library is Embedded Swift, which
/// has existentials of class-bound protocols only and calls no generic requirement through one.
/// `exclusively(in:)` and `updating(in:)` carry a result out.
public protocol AuthStateStore: AnyObject, Sendable {
    /// Runs `body` holding a lock that excludes every other thread and process using the same store.
    func withExclusiveAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError)
    /// Runs `body` holding the store's update lock (see above).
    func withUpdateAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError)
    /// The serialized state (`AuthState.serialized()`), or nil when nothing was stored yet. Wiping storage:
    /// it holds the tokens.
    func load() throws(TelenoridError) -> SecretBytes?
    /// Replaces what is stored, atomically: a reader sees the old state or the new one, never a mix.
    func save(_ serialized: SecretBytes) throws(TelenoridError)
    /// The error to report for what `load` gave that is not an auth state (`error` says why): a store
    /// says which record it was.
    func unreadable(_ error: TelenoridError) -> TelenoridError
}

extension AuthStateStore {
    public func unreadable(_ error: TelenoridError) -> TelenoridError { error }
}

/// `body`'s result, run under `store`'s exclusive lock.
func exclusively<T>(in store: any AuthStateStore, _ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
    var result: T? = nil
    try store.withExclusiveAccess { () throws(TelenoridError) in result = try body() }
    return try ran(result)
}

/// `body`'s result, run under `store`'s update lock.
func updating<T>(in store: any AuthStateStore, _ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
    var result: T? = nil
    try store.withUpdateAccess { () throws(TelenoridError) in result = try body() }
    return try ran(result)
}

/// What a lock's body gave: nil only from a store that returned without running it.
private func ran<T>(_ result: T?) throws(TelenoridError) -> T {
    guard let result else {
        throw TelenoridError(.storeFailed, "the store returned from its lock without running the body")
    }
    return result
}
