import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// A provider stand-in for what a real one can't be made to do on cue: count refreshes, rotate, fail.
final class ScriptedRefresher: TokenRefresher, Sendable {
    enum Behaviour: Sendable {
        case rotate, keepRefreshToken, lose(String), transient
        /// The token endpoint answers this, judged as the OIDC client judges it.
        case answer(HTTPResponse)
    }
    let behaviour = Locked<Behaviour>(.rotate)
    let calls = Atomic<Int>(0)
    /// Refresh tokens revoked through `revokeGrant`.
    let revoked = Locked<[String]>([])
    let delayMicroseconds = Atomic<UInt32>(0)
    let clock: Clock
    init(clock: @escaping Clock) { self.clock = clock }

    func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet {
        let call = calls.wrappingAdd(1, ordering: .relaxed).newValue
        usleep(delayMicroseconds.load(ordering: .relaxed))
        switch behaviour.withLock({ $0 }) {
        case .lose(let code):
            throw OIDCClient.refreshVerdict(
                TelenoridError(.authorizationError, "refused", oauthError: code, httpStatus: 400))
        case .answer(let response):
            throw OIDCClient.refreshVerdict(OAuthErrorResponse.error(from: response, during: "refresh", now: clock()))
        case .transient:
            throw TelenoridError(.network, "connection refused")
        case .rotate, .keepRefreshToken:
            let rotate = behaviour.withLock { if case .rotate = $0 { return true } else { return false } }
            var next = tokens
            next.accessToken = SecretBytes(Array("access-\(call)".utf8))
            next.accessTokenExpiresAt = clock() + 300
            if rotate { next.refreshToken = SecretBytes(Array("refresh-\(call)".utf8)) }
            return next
        }
    }

    func revokeGrant(_ tokens: TokenSet) throws(TelenoridError) {
        revoked.withLock { $0.append(tokens.refreshToken?.string ?? tokens.accessToken.string) }
    }
}

extension ScriptedRefresher {
    /// A scripted provider holds no host keys.
    func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner {
        throw TelenoridError(.configuration, "no host-held DPoP key here")
    }
}
