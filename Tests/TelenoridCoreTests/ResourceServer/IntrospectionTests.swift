import Foundation
import XCTest
@testable import TelenoridCore

/// A provider whose discovery document names an introspection endpoint (RFC 8414 §2) that answers what the
/// test sets, recording each request.
private final class IntrospectionProvider: HTTPTransport, Sendable {
    let issuer = "https://id.example.com"
    let answer = Locked<(status: Int, body: String)>((200, #"{"active":false}"#))
    let requests = Locked<[HTTPRequest]>([])
    var introspections: [HTTPRequest] { requests.withLock { $0.filter { $0.url == issuer + "/introspect" } } }

    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        requests.withLock { $0.append(request) }
        switch request.url {
        case issuer + "/.well-known/openid-configuration":
            return MemoryProvider.json(
                200,
                #"{"issuer":"\#(issuer)","token_endpoint":"\#(issuer)/token","introspection_endpoint":"\#(issuer)/introspect"}"#
            )
        case issuer + "/introspect", "https://rs.example.com/introspect":
            let (status, body) = answer.withLock { $0 }
            return MemoryProvider.json(status, body)
        default:
            return HTTPResponse(status: 404, headers: [], body: [])
        }
    }
}

final class IntrospectionTests: XCTestCase {
    private let time = TestClock()
    private let token = SecretBytes(Array("mF_9.B5f-4.1JqM".utf8))  // RFC 7662 §2.1's example token

    private func server(
        _ provider: IntrospectionProvider, _ extra: [ClientConfiguration.Setting: String] = [:]
    ) throws -> ResourceServer {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "rs-client"
        settings[.clientSecret] = "rs-secret"
        for (setting, value) in extra { settings[setting] = value }
        let client = try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { [time] in time.now.load(ordering: .relaxed) })
        return try ResourceServer(client: client, audience: "https://rs.example.com/")
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, _ context: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), context, file: file, line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\(context): \($0)", file: file, line: line)
        }
    }

    /// RFC 7662 §2.2's example answer.
    private let example = #"""
        {"active":true,"client_id":"l238j323ds-23ij4","username":"jdoe","scope":"read write dolphin",
        "sub":"Z5O3upPC88QrAjx00dis","aud":"https://protected.example.net/resource",
        "iss":"https://server.example.com/","exp":1419356238,"iat":1419350238,
        "extension_field":"twenty-seven"}
        """#

    func testTheRFCExampleIsReadAndTheRequestAuthenticatesTheClient() throws {
        let provider = IntrospectionProvider()
        provider.answer.withLock { $0 = (200, example) }
        let info = try server(provider).introspect(token, hint: "access_token")
        XCTAssertTrue(info.active)
        XCTAssertEqual(info.string("client_id"), "l238j323ds-23ij4")
        XCTAssertEqual(info.string("username"), "jdoe")
        XCTAssertEqual(info.string("scope"), "read write dolphin")
        XCTAssertEqual(info.string("sub"), "Z5O3upPC88QrAjx00dis")
        XCTAssertEqual(info.audiences, ["https://protected.example.net/resource"])
        XCTAssertEqual(info.string("iss"), "https://server.example.com/")
        XCTAssertEqual(info.seconds("exp"), 1_419_356_238)
        XCTAssertEqual(info.seconds("iat"), 1_419_350_238)
        XCTAssertNil(info.seconds("nbf"))
        XCTAssertEqual(info.memberJSON("extension_field"), #""twenty-seven""#)
        XCTAssertNil(info.memberJSON("absent"))

        let sent = try XCTUnwrap(provider.introspections.last)
        XCTAssertEqual(sent.method, "POST")
        XCTAssertEqual(sent.url, provider.issuer + "/introspect", "the token is never in the URL")
        XCTAssertNotNil(sent.authorization, "client_secret_basic by default (RFC 7662 §2.1)")
        let form = try FormParameters(parsing: try XCTUnwrap(sent.body).string[...])
        XCTAssertEqual(form["token"], "mF_9.B5f-4.1JqM")
        XCTAssertEqual(form["token_type_hint"], "access_token")
    }

    func testEveryClientAuthenticationOfTheTokenEndpointIsUsed() throws {
        let provider = IntrospectionProvider()
        _ = try server(provider, [.clientAuthMethod: "client_secret_post"]).introspect(token, hint: nil)
        var sent = try XCTUnwrap(provider.introspections.last)
        var form = try FormParameters(parsing: try XCTUnwrap(sent.body).string[...])
        XCTAssertNil(sent.authorization)
        XCTAssertEqual(form["client_id"], "rs-client")
        XCTAssertEqual(form["client_secret"], "rs-secret")
        XCTAssertNil(form["token_type_hint"])

        _ = try server(provider, [.clientAuthMethod: "client_secret_jwt"]).introspect(token, hint: nil)
        sent = try XCTUnwrap(provider.introspections.last)
        form = try FormParameters(parsing: try XCTUnwrap(sent.body).string[...])
        XCTAssertEqual(form["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        XCTAssertEqual(try JWS(compact: try XCTUnwrap(form["client_assertion"])).algorithm, "HS256")

        var settings: [ClientConfiguration.Setting: String] = [
            .clientAuthMethod: "private_key_jwt", .clientPrivateKey: JOSEFixtures.rsaPrivatePem
        ]
        settings[.clientSecret] = nil
        _ = try server(provider, settings).introspect(token, hint: nil)
        sent = try XCTUnwrap(provider.introspections.last)
        form = try FormParameters(parsing: try XCTUnwrap(sent.body).string[...])
        XCTAssertEqual(try JWS(compact: try XCTUnwrap(form["client_assertion"])).algorithm, "RS256")
    }

    func testAnInactiveTokenIsAnAnswerNotAnError() throws {
        let provider = IntrospectionProvider()
        let info = try server(provider).introspect(token, hint: nil)
        XCTAssertFalse(info.active)
        XCTAssertEqual(info.json, #"{"active":false}"#)
    }

    func testAnswersThatAreNotRFC7662AreRefused() throws {
        let provider = IntrospectionProvider()
        let rs = try server(provider)
        for body in [
            "{}", #"{"active":"true"}"#, #"{"active":1}"#, "[]", "not json", #"{"active":true,"scope":["a"]}"#,
            #"{"active":true,"exp":"soon"}"#, #"{"active":true,"aud":[1]}"#, #"{"active":true,"cnf":"x"}"#,
            #"{"active":true,"cnf":{"jkt":5}}"#, #"{"active":true,"client_id":null}"#
        ] {
            provider.answer.withLock { $0 = (200, body) }
            assertKind(.invalidResponse, try rs.introspect(token, hint: nil), body)
        }
        provider.answer.withLock {
            $0 = (200, #"{"active":true,"cnf":{"jkt":"0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}}"#)
        }
        XCTAssertEqual(
            try rs.introspect(token, hint: nil).confirmationKeyThumbprint, "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        )
        provider.answer.withLock { $0 = (401, #"{"error":"invalid_client"}"#) }
        assertKind(.clientRejected, try rs.introspect(token, hint: nil))
        provider.answer.withLock { $0 = (503, "") }
        assertKind(.temporarilyUnavailable, try rs.introspect(token, hint: nil))
        provider.answer.withLock {
            $0 = (200, #"{"active":true,"pad":""# + String(repeating: "x", count: 70_000) + "\"}")
        }
        assertKind(.responseTooLarge, try rs.introspect(token, hint: nil))
    }

    func testTheConfiguredEndpointWinsAndNoneIsAConfigurationError() throws {
        let provider = IntrospectionProvider()
        _ = try server(provider, [.introspectionEndpoint: "https://rs.example.com/introspect"]).introspect(
            token, hint: nil)
        XCTAssertEqual(provider.requests.withLock { $0.last?.url }, "https://rs.example.com/introspect")
        XCTAssertEqual(provider.requests.withLock { $0.count }, 1, "no discovery for a configured endpoint")

        final class NoIntrospection: HTTPTransport {
            func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
                MemoryProvider.json(
                    200, #"{"issuer":"https://id.example.com","token_endpoint":"https://id.example.com/t"}"#)
            }
        }
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "rs"
        settings[.clientSecret] = "s"
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: NoIntrospection())
        assertKind(.configuration, try ResourceServer(client: client, audience: "a").introspect(token, hint: nil))
        let insecure = #"{"issuer":"https://id.example.com","introspection_endpoint":"http://rs.example.com/i"}"#
        assertKind(
            .insecure, try ProviderMetadata(json: Array(insecure.utf8), expectedIssuer: "https://id.example.com"))
    }

    func testTheCacheKeepsAnAnswerForItsMaxAgeAndNeverPastExp() throws {
        let provider = IntrospectionProvider()
        let rs = try server(provider)
        let now = time.now.load(ordering: .relaxed)
        provider.answer.withLock { $0 = (200, #"{"active":true,"exp":\#(now + 30)}"#) }
        // Off by default: every call asks.
        _ = try rs.introspect(token, hint: nil)
        _ = try rs.introspect(token, hint: nil)
        XCTAssertEqual(provider.introspections.count, 2)

        try rs.set(.introspectionCacheMaxAge, "60")
        _ = try rs.introspect(token, hint: nil)
        _ = try rs.introspect(token, hint: nil)
        XCTAssertEqual(provider.introspections.count, 3, "the second answer came from the cache")
        _ = try rs.introspect(SecretBytes(Array("another".utf8)), hint: nil)
        XCTAssertEqual(provider.introspections.count, 4, "another token is asked about")
        XCTAssertFalse(rs.cache.count == 0)

        time.now.add(30, ordering: .relaxed)  // the token's exp: the kept answer must not say active now
        provider.answer.withLock { $0 = (200, #"{"active":false}"#) }
        XCTAssertFalse(try rs.introspect(token, hint: nil).active)
        XCTAssertEqual(provider.introspections.count, 5)

        // Without exp, the max age bounds it; an inactive answer is kept as well.
        XCTAssertFalse(try rs.introspect(token, hint: nil).active)
        XCTAssertEqual(provider.introspections.count, 5)
        time.now.add(60, ordering: .relaxed)
        provider.answer.withLock { $0 = (200, #"{"active":true}"#) }
        XCTAssertTrue(try rs.introspect(token, hint: nil).active)
        XCTAssertEqual(provider.introspections.count, 6)

        // A clock set back does not make a kept answer young again.
        time.now.subtract(10, ordering: .relaxed)
        _ = try rs.introspect(token, hint: nil)
        XCTAssertEqual(provider.introspections.count, 7)

        // Setting the max age to 0 empties the cache.
        try rs.set(.introspectionCacheMaxAge, "0")
        XCTAssertEqual(rs.cache.count, 0)
        assertKind(.invalidArgument, try rs.set(.introspectionCacheMaxAge, "-1"))
        assertKind(.invalidArgument, try rs.set(.introspectionCacheMaxAge, "86401"))
        assertKind(.invalidArgument, try rs.set(.introspectionCacheMaxAge, "ten"))
    }

    func testTheCacheHoldsAtMostItsCapacity() {
        let cache = IntrospectionCache()
        let info = TokenInfoTestData.active
        for number in 0..<(IntrospectionCache.capacity + 10) {
            cache.keep(info, for: Crypto.sha256(Array("token-\(number)".utf8)), now: 1000, maxAge: 60 + Int64(number))
        }
        XCTAssertEqual(cache.count, IntrospectionCache.capacity)
        XCTAssertNil(cache.answer(for: Crypto.sha256(Array("token-0".utf8)), now: 1000), "the soonest to expire went")
        XCTAssertNotNil(cache.answer(for: Crypto.sha256(Array("token-1033".utf8)), now: 1000))
    }
}

enum TokenInfoTestData {
    static var active: TokenInfo {
        var claims = JSONObject()
        claims.set("active", .bool(true))
        return try! TokenInfo(introspection: claims, what: "test")
    }
}
