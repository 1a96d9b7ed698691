import Synchronization
@testable import TelenoridCore

/// Time the tests move by hand.
final class TestClock: Sendable {
    let now = Atomic<Int64>(1_000_000)

    /// A signed-in state (access-0, refresh-0) on this clock, refreshing through a scripted provider.
    func signedInState(expiresIn: Int64) -> (AuthState, ScriptedRefresher) {
        let clock: Clock = { [self] in self.now.load(ordering: .relaxed) }
        let refresher = ScriptedRefresher(clock: clock)
        let tokens = TokenSet(
            accessToken: SecretBytes(Array("access-0".utf8)), tokenType: "Bearer",
            accessTokenExpiresAt: clock() + expiresIn, refreshToken: SecretBytes(Array("refresh-0".utf8)),
            idToken: "h.p.s", scope: "openid")
        return (AuthState(tokens: tokens, refresher: refresher, clock: clock, refreshMarginSeconds: 60), refresher)
    }
}
