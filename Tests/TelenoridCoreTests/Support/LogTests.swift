import XCTest
@testable import TelenoridCore

/// The log: levels filter before a message is built, a removed sink hears nothing, failures are told by kind,
/// status and OAuth code only, and the transport's one line per exchange leaves out the query.
final class LogTests: XCTestCase {
    /// What a sink heard.
    private final class Heard: @unchecked Sendable {
        private let lines = Locked<[(Log.Level, String, String)]>([])
        var all: [(Log.Level, String, String)] { lines.withLock { $0 } }
        var sink: Log.Sink {
            { level, event, message in self.lines.withLock { $0.append((level, "\(event)", message)) } }
        }
    }

    override func tearDown() {
        Log.setSink(nil, minimumLevel: 0)
        super.tearDown()
    }

    func testLevelsBelowTheMinimumAreNeitherBuiltNorDelivered() {
        let heard = Heard()
        let built = Locked(0)
        func message(_ text: String) -> String {
            built.withLock { $0 += 1 }
            return text
        }
        Log.info("test.unheard", message("no sink"))
        Log.setSink(heard.sink, minimumLevel: Log.Level.info.rawValue)
        XCTAssertFalse(Log.isEnabled(.debug))
        XCTAssertTrue(Log.isEnabled(.info))
        Log.debug("test.debug", message("below"))
        Log.info("test.info", message("heard"))
        Log.warning("test.warning", message("heard too"))
        XCTAssertEqual(built.withLock { $0 }, 2)
        XCTAssertEqual(
            heard.all.map { "\($0.0.rawValue) \($0.1) \($0.2)" },
            [
                "20 test.info heard", "30 test.warning heard too"
            ])

        Log.setSink(nil, minimumLevel: 0)
        XCTAssertFalse(Log.isEnabled(.error))
        Log.warning("test.removed", message("after removal"))
        XCTAssertEqual(built.withLock { $0 }, 2)
        XCTAssertEqual(heard.all.count, 2)
    }

    func testAFailureIsToldByKindStatusAndOAuthCodeOnly() {
        var error = TelenoridError(
            .authorizationLost, "refresh token rt-secret refused", oauthError: "invalid_grant",
            oauthErrorDescription: "token rt-secret is unknown", httpStatus: 400)
        XCTAssertEqual(Log.describe(error), "authorization lost (HTTP 400) invalid_grant")
        error.oauthError = "not a code"
        XCTAssertEqual(Log.describe(error), "authorization lost (HTTP 400)")
        XCTAssertEqual(Log.describe(TelenoridError(.timeout, "anything")), "timeout")
        // Every kind has a name of its own.
        let names = TelenoridError.Kind.allCases.map { "\($0.name)" }
        XCTAssertEqual(Set(names).count, names.count)
    }

    func testTheTransportLogsEachExchangeWithoutItsQuery() throws {
        let heard = Heard()
        Log.setSink(heard.sink, minimumLevel: Log.Level.debug.rawValue)
        var settings = HTTPSettings()
        settings.connectTimeoutMilliseconds = 2_000
        settings.totalTimeoutMilliseconds = 5_000
        let transport = try CurlTransport(settings: settings)
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        XCTAssertThrowsError(
            try transport.send(HTTPRequest(url: "http://127.0.0.1:1/token?code=c-secret#f")))
        XCTAssertThrowsError(try transport.send(HTTPRequest(url: "ftp://127.0.0.1/x?code=c-secret")))
        let lines = heard.all
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first?.0, .debug)
        XCTAssertEqual(lines.first?.1, "http.request")
        let message = lines.first?.2 ?? ""
        XCTAssertTrue(message.hasPrefix("GET http://127.0.0.1:1/token network error "), message)
        XCTAssertTrue(message.hasSuffix(" ms"), message)
        XCTAssertTrue(lines.last?.2.hasPrefix("GET ftp://127.0.0.1/x insecure URL ") == true, lines.last?.2 ?? "")
        XCTAssertFalse(lines.contains { $0.2.contains("c-secret") })
    }
}
