import Synchronization
import XCTest
@testable import TelenoridCore

/// A provider's discovery documents served from memory, with a switch to make them fail.
private final class DiscoveryServer: HTTPTransport {
    let requests = Locked<[String]>([])
    let failure = Locked<TelenoridError?>(nil)
    let tokenEndpoint = Locked("https://id.example.com/o/token/")
    let issuer = "https://id.example.com/o"

    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        requests.withLock { $0.append(request.url) }
        if let failure = failure.withLock({ $0 }) { throw failure }
        let body: String
        switch request.url {
        case issuer + "/.well-known/openid-configuration":
            body = #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize/","token_endpoint":"\#(tokenEndpoint.withLock { $0 })","jwks_uri":"\#(issuer)/jwks/","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}"#
        // Only the issuer-appended RFC 8414 form, as django-oauth-toolkit mounted under /o/ serves it.
        case issuer + "/.well-known/oauth-authorization-server":
            body = #"{"issuer":"\#(issuer)","revocation_endpoint":"\#(issuer)/revoke_token/","code_challenge_methods_supported":["S256"]}"#
        default:
            return HTTPResponse(status: 404, headers: [], body: Array("not found".utf8))
        }
        return HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: Array(body.utf8))
    }
}

final class DiscoveryCacheTests: XCTestCase {
    private func client(_ server: DiscoveryServer, time: TestClock) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = server.issuer
        settings[.clientID] = "native-app"
        settings[.redirectURI] = "com.example.app:/oauth2redirect"
        return try OIDCClient(configuration: try ClientConfiguration(settings), transport: server,
                              clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    func testRFC8414IsFoundAtTheIssuerAppendedLocationToo() throws {
        let server = DiscoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let metadata = try client(server, time: time).discover()
        XCTAssertEqual(metadata.revocationEndpoint, "https://id.example.com/o/revoke_token/")
        XCTAssertEqual(metadata.codeChallengeMethods, ["S256"])
        XCTAssertEqual(server.requests.withLock { $0 }, [
            "https://id.example.com/o/.well-known/openid-configuration",
            "https://id.example.com/.well-known/oauth-authorization-server/o",  // RFC 8414 §3.1 first
            "https://id.example.com/o/.well-known/oauth-authorization-server",
        ])
    }

    func testMetadataIsFetchedAgainWhenItIsADayOld() throws {
        let server = DiscoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let client = try client(server, time: time)
        _ = try client.discover()
        let fetches = server.requests.withLock { $0.count }
        time.now.store(1_800_000_000 + OIDCClient.metadataLifetime - 1, ordering: .relaxed)
        _ = try client.discover()
        XCTAssertEqual(server.requests.withLock { $0.count }, fetches, "still fresh: no request")
        server.tokenEndpoint.withLock { $0 = "https://id.example.com/o/token/v2/" }
        time.now.store(1_800_000_000 + OIDCClient.metadataLifetime, ordering: .relaxed)
        XCTAssertEqual(try client.discover().tokenEndpoint, "https://id.example.com/o/token/v2/")
        XCTAssertEqual(server.requests.withLock { $0.count }, 2 * fetches)
        // A clock set back before the fetch does not make old metadata look fresh forever.
        time.now.store(1_700_000_000, ordering: .relaxed)
        _ = try client.discover()
        XCTAssertEqual(server.requests.withLock { $0.count }, 3 * fetches)
    }

    func testAStaleCopyServesThroughATransientOutageButNotThroughABadDocument() throws {
        let server = DiscoveryServer()
        let time = TestClock(); time.now.store(1_800_000_000, ordering: .relaxed)
        let client = try client(server, time: time)
        XCTAssertThrowsError(try {
            server.failure.withLock { $0 = TelenoridError(.network, "connection refused") }
            defer { server.failure.withLock { $0 = nil } }
            _ = try client.discover()
        }(), "nothing cached yet: the outage is reported")
        _ = try client.discover()
        time.now.store(1_800_000_000 + 2 * OIDCClient.metadataLifetime, ordering: .relaxed)
        for transient in [TelenoridError(.timeout, "timed out"), TelenoridError(.temporarilyUnavailable, "unavailable", httpStatus: 503)] {
            server.failure.withLock { $0 = transient }
            XCTAssertEqual(try client.discover().tokenEndpoint, "https://id.example.com/o/token/")
        }
        server.failure.withLock { $0 = TelenoridError(.httpStatus, "gone", httpStatus: 404) }
        XCTAssertThrowsError(try client.discover()) { XCTAssertEqual(($0 as? TelenoridError)?.httpStatus, 404) }
    }
}
