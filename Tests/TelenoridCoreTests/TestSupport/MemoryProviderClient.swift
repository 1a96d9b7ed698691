@testable import TelenoridCore

extension MemoryProvider {
    /// A client of this provider: its issuer, then a test class's `settings`, then a test's `extra` over them, on
    /// `clock` (the system's unless a test moves time itself).
    func client(
        _ settings: [ClientConfiguration.Setting: String], _ extra: [ClientConfiguration.Setting: String] = [:],
        clock: @escaping Clock = SystemClock.now
    ) throws -> OIDCClient {
        var all = ClientConfiguration.Settings()
        all[.issuer] = issuer
        for (setting, value) in settings { all[setting] = value }
        for (setting, value) in extra { all[setting] = value }
        return try OIDCClient(configuration: try ClientConfiguration(all), transport: self, clock: clock)
    }
}
