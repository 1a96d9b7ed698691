import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// The client credentials grant (RFC 6749 §4.4) against the in-memory provider, whose token endpoint hands
/// out a new access token (cc-N, N the request's number) valid for 300 s each time it is asked.
final class ClientCredentialsTests: XCTestCase {
    private let time = TestClock()

    private func client(_ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [:]) throws
        -> OIDCClient
    {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "machine"
        settings[.clientSecret] = "machine-secret"
        for (setting, value) in extra { settings[setting] = value }
        if extra[.clientAuthMethod] == "none" { settings[.clientSecret] = nil }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    private func provider() -> MemoryProvider {
        let provider = MemoryProvider()
        provider.answer(.token) { number in
            MemoryProvider.json(200, #"{"access_token":"cc-\#(number)","token_type":"Bearer","expires_in":300}"#)
        }
        return provider
    }

    private var tokenRequests: (MemoryProvider) -> Int { { $0.requests(to: .token).count } }

    func testTheGrantIsAskedOnceAndRenewedWithinTheRefreshMargin() throws {
        let provider = provider()
        let machine = try ClientCredentials(
            client: try client(provider), scope: "read write", resources: ["https://api.example/"])
        XCTAssertNil(machine.expiresAt)
        let first = try machine.freshTokens()
        XCTAssertTrue(first.accessToken.string.hasPrefix("cc-"))
        XCTAssertEqual(machine.expiresAt, time.now.load(ordering: .relaxed) + 300)
        let form = try provider.lastForm(to: .token)
        XCTAssertEqual(form.pairs.map { $0.name }, ["grant_type", "scope", "resource"])
        XCTAssertEqual(form["grant_type"], "client_credentials")
        XCTAssertEqual(form["scope"], "read write")
        XCTAssertEqual(form["resource"], "https://api.example/")
        XCTAssertNotNil(
            provider.requests(to: .token).last?.authorization, "client_secret_basic (§4.4.2: MUST authenticate)")

        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        time.now.add(239, ordering: .relaxed)  // 61 s left: outside the default margin of 60 s
        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        XCTAssertEqual(tokenRequests(provider), 1)
        time.now.add(1, ordering: .relaxed)  // 60 s left: renewed
        XCTAssertNotEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        XCTAssertEqual(tokenRequests(provider), 2)
    }

    func testARefusedTokenIsReplacedOnce() throws {
        let provider = provider()
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        let first = try machine.freshTokens().accessToken
        XCTAssertNil(try provider.lastForm(to: .token)["scope"], "no scope: the provider's default")
        machine.accessTokenRejected(SecretBytes(Array("a token it does not hold".utf8)))
        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.string)
        machine.accessTokenRejected(first)
        let second = try machine.freshTokens().accessToken
        XCTAssertNotEqual(second.string, first.string)
        machine.accessTokenRejected(first)  // a late report about the old one changes nothing
        XCTAssertEqual(try machine.freshTokens().accessToken.string, second.string)
        machine.accessTokenRejected(nil)
        XCTAssertNotEqual(try machine.freshTokens().accessToken.string, second.string)
    }

    func testThreadsThatNeedATokenAtOnceShareOneRequest() throws {
        let provider = provider()
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        let tokens = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if let token = try? machine.freshTokens().accessToken.string { tokens.withLock { $0.append(token) } }
        }
        XCTAssertEqual(Set(tokens.withLock { $0 }).count, 1)
        XCTAssertEqual(tokens.withLock { $0.count }, 16)
        XCTAssertEqual(tokenRequests(provider), 1)
    }

    func testPublicClientsAndRefusalsAreReported() throws {
        let provider = MemoryProvider()
        XCTAssertThrowsError(
            try ClientCredentials(client: try client(provider, [.clientAuthMethod: "none"]), scope: nil)
        ) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration) }
        XCTAssertThrowsError(try ClientCredentials(client: try client(provider), scope: "")) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
        provider.answer(.token, status: 400, body: #"{"error":"invalid_scope"}"#)
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        XCTAssertThrowsError(try machine.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationError)
            XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "invalid_scope")
        }
        XCTAssertNil(machine.expiresAt)
        provider.answer(
            .token, status: 200,
            body: #"{"access_token":"no-expiry","token_type":"Bearer","id_token":"x.y.z","refresh_token":"r"}"#)
        let kept = try machine.freshTokens()
        XCTAssertNil(kept.idToken, "nothing validated it: not kept")
        XCTAssertNil(kept.refreshToken)
        XCTAssertNil(machine.expiresAt)
    }
}
