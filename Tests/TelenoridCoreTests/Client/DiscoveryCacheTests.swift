import Synchronization
import XCTest
@testable import TelenoridCore

/// A provider's discovery documents served from memory, as django-oauth-toolkit mounted under /o/ serves them.
private func discoveryServer() -> MemoryProvider {
    let server = MemoryProvider(issuer: "https://id.example.com/o")
    server.advertise("authorization_endpoint", string: "https://id.example.com/o/authorize/")
    server.advertise("token_endpoint", string: "https://id.example.com/o/token/")
    server.advertise("jwks_uri", string: "https://id.example.com/o/jwks/")
    server.advertise("response_types_supported", strings: ["code"])
    server.advertise("subject_types_supported", strings: ["public"])
    server.advertise("id_token_signing_alg_values_supported", strings: ["RS256"])
    // Only the issuer-appended RFC 8414 form.
    server.answer(
        .authorizationServerMetadata, status: 200,
        body:
            #"{"issuer":"https://id.example.com/o","revocation_endpoint":"https://id.example.com/o/revoke_token/","code_challenge_methods_supported":["S256"]}"#
    )
    return server
}

final class DiscoveryCacheTests: XCTestCase {
    private func client(_ server: MemoryProvider, time: TestClock) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = server.issuer
        settings[.clientID] = "native-app"
        settings[.redirectURI] = "com.example.app:/oauth2redirect"
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: server,
            clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    func testRFC8414IsFoundAtTheIssuerAppendedLocationToo() throws {
        let server = discoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let metadata = try client(server, time: time).discover()
        XCTAssertEqual(metadata.endpoints[.revocationEndpoint], "https://id.example.com/o/revoke_token/")
        XCTAssertEqual(metadata.codeChallengeMethods, ["S256"])
        XCTAssertEqual(
            server.requests.withLock { $0.map(\.url) },
            [
                "https://id.example.com/o/.well-known/openid-configuration",
                "https://id.example.com/.well-known/oauth-authorization-server/o",  // RFC 8414 §3.1 first
                "https://id.example.com/o/.well-known/oauth-authorization-server"
            ])
    }

    func testMetadataIsFetchedAgainWhenItIsADayOld() throws {
        let server = discoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let client = try client(server, time: time)
        _ = try client.discover()
        let fetches = server.requests.withLock { $0.count }
        time.now.store(1_800_000_000 + OIDCClient.metadataLifetime - 1, ordering: .relaxed)
        _ = try client.discover()
        XCTAssertEqual(server.requests.withLock { $0.count }, fetches, "still fresh: no request")
        server.advertise("token_endpoint", string: "https://id.example.com/o/token/v2/")
        time.now.store(1_800_000_000 + OIDCClient.metadataLifetime, ordering: .relaxed)
        XCTAssertEqual(try client.discover().endpoints[.tokenEndpoint], "https://id.example.com/o/token/v2/")
        XCTAssertEqual(server.requests.withLock { $0.count }, 2 * fetches)
        // A clock set back before the fetch does not make old metadata look fresh forever.
        time.now.store(1_700_000_000, ordering: .relaxed)
        _ = try client.discover()
        XCTAssertEqual(server.requests.withLock { $0.count }, 3 * fetches)
    }

    func testAStaleCopyServesThroughATransientOutageButNotThroughABadDocument() throws {
        let server = discoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let client = try client(server, time: time)
        XCTAssertThrowsError(
            try {
                server.failure.withLock { $0 = TelenoridError(.network, "connection refused") }
                defer { server.failure.withLock { $0 = nil } }
                _ = try client.discover()
            }(), "nothing cached yet: the outage is reported")
        _ = try client.discover()
        time.now.store(1_800_000_000 + 2 * OIDCClient.metadataLifetime, ordering: .relaxed)
        for transient in [
            TelenoridError(.timeout, "timed out"),
            TelenoridError(.temporarilyUnavailable, "unavailable", httpStatus: 503)
        ] {
            server.failure.withLock { $0 = transient }
            XCTAssertEqual(try client.discover().endpoints[.tokenEndpoint], "https://id.example.com/o/token/")
        }
        server.failure.withLock { $0 = TelenoridError(.httpStatus, "gone", httpStatus: 404) }
        XCTAssertThrowsError(try client.discover()) { XCTAssertEqual(($0 as? TelenoridError)?.httpStatus, 404) }
    }
}
