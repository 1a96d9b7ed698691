/// Where an auth state keeps itself so that several processes (an app and its widget, two runs of a
/// command) can share one sign-in without redeeming a refresh token twice: providers that rotate refresh
/// tokens treat a second use as theft and revoke the whole grant (RFC 9700 §4.14.2).
public protocol AuthStateStore: Sendable {
    /// Runs `body` holding a lock that excludes every other thread and process using the same store.
    func withExclusiveAccess<T>(_ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T
    /// The serialized state (`AuthState.serialized()`), or nil when nothing was stored yet. Wiping storage:
    /// it holds the tokens.
    func load() throws(TelenoridError) -> SecretBytes?
    /// Replaces what is stored, atomically: a reader sees the old state or the new one, never a mix.
    func save(_ serialized: SecretBytes) throws(TelenoridError)
}
