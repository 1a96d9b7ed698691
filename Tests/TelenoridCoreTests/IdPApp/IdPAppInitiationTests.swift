import XCTest
@testable import TelenoridCore

/// IdP-initiated sign-in (Salesforce Mobile SDK identity provider's `user_hint` loop-back): the IdP app's
/// message for a chosen user, the SP's reading of it, and the hint carried back into the SP's request.
final class IdPAppInitiationTests: XCTestCase {
    let spAppURI = "com.example.sp://idp-initiated"

    func kind(_ body: @autoclosure () throws -> Any) -> TelenoridError.Kind? {
        do { _ = try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    func testMessageRoundTripsAndLoopsBackAsLoginHint() throws {
        let url = try IdPAppInitiation.url(
            spAppURI: spAppURI, userHint: "00D1:0051", loginHost: "login.example.com:8443")
        XCTAssertEqual(url, spAppURI + "?user_hint=00D1%3A0051&login_host=login.example.com%3A8443")
        let read = try IdPAppInitiation.read(url: url, spAppURI: spAppURI)
        XCTAssertEqual(read.userHint, "00D1:0051")
        XCTAssertEqual(read.loginHost, "login.example.com:8443")
        let pairs = try IdPAppInitiation.parameters(userHint: read.userHint, loginHost: read.loginHost)
        XCTAssertEqual(pairs.pairs.map(\.name), ["user_hint", "login_host"])
        let request = try IdPAppRequest(
            pending: AuthorizationRequest(configuration: testConfiguration()).build(), loginHost: read.loginHost,
            userHint: read.userHint)
        XCTAssertTrue(
            try request.authorizationURL(authorizationEndpoint: "https://login.example.com/authorize")
                .contains("login_hint=00D1%3A0051"))
    }

    func testHostileMessagesAreRefused() throws {
        func read(_ query: String) -> TelenoridError.Kind? {
            kind(try IdPAppInitiation.read(url: spAppURI + "?" + query, spAppURI: spAppURI))
        }
        XCTAssertNil(read("app_name=x&user_hint=u&login_host=h"))
        XCTAssertEqual(read("user_hint=u&user_hint=v&login_host=h"), .malformed)
        XCTAssertEqual(read("user_hint=u"), .malformed)
        XCTAssertEqual(read("user_hint=a%0Ab&login_host=h"), .malformed)
        XCTAssertEqual(read("user_hint=" + String(repeating: "a", count: 256) + "&login_host=h"), .malformed)
        XCTAssertNil(read("user_hint=" + String(repeating: "a", count: 255) + "&login_host=h"))
        XCTAssertEqual(read("user_hint=u&login_host=h%2Fpath"), .malformed)
        XCTAssertEqual(
            kind(try IdPAppInitiation.read(url: "evil.app://x?user_hint=u&login_host=h", spAppURI: spAppURI)),
            .redirectMismatch)
        var repeated = FormParameters()
        repeated.appendUnique("user_hint", "u")
        repeated.appendUnique("login_host", "h")
        repeated.appendUnique("login_host", "evil.example")
        XCTAssertEqual(kind(try IdPAppInitiation.read(repeated)), .malformed)
        XCTAssertEqual(kind(try IdPAppInitiation.parameters(userHint: "a\u{7F}", loginHost: "h")), .invalidArgument)
        XCTAssertEqual(kind(try IdPAppInitiation.parameters(userHint: "u", loginHost: "u@h")), .invalidArgument)
    }
}
