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
public protocol AuthStateStore: Sendable {
    /// Runs `body` holding a lock that excludes every other thread and process using the same store.
    func withExclusiveAccess<T>(_ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T
    /// Runs `body` holding the store's update lock (see above).
    func withUpdateAccess<T>(_ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T
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
