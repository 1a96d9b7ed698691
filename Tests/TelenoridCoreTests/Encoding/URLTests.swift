import XCTest
@testable import TelenoridCore

final class URITests: XCTestCase {
    func testSplitsTheParts() throws {
        let uri = try URI(parsing: "HTTPS://user@Example.COM:8443/a/b?x=1&y=2#frag")
        XCTAssertEqual(uri.scheme, "https")
        XCTAssertEqual(uri.host, "example.com")
        XCTAssertEqual(uri.port, 8443)
        XCTAssertEqual(uri.userInfo, "user")
        XCTAssertEqual(uri.path, "/a/b")
        XCTAssertEqual(uri.query, "x=1&y=2")
        XCTAssertEqual(uri.fragment, "frag")
    }

    func testCustomSchemesAndIPv6() throws {
        let app = try URI(parsing: "com.example.app:/oauth2redirect")
        XCTAssertEqual(app.scheme, "com.example.app")
        XCTAssertNil(app.host)
        XCTAssertEqual(app.path, "/oauth2redirect")
        let v6 = try URI(parsing: "http://[::1]:8080/cb")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 8080)
        XCTAssertTrue(v6.isLoopback)
    }

    func testLoopbackAndSecureEndpoints() throws {
        XCTAssertTrue(try URI(parsing: "http://127.0.0.1:9000/token").isSecureEndpoint)
        XCTAssertTrue(try URI(parsing: "http://127.5.6.7/").isLoopback)
        XCTAssertTrue(try URI(parsing: "http://localhost/x").isSecureEndpoint)
        XCTAssertTrue(try URI(parsing: "https://id.example.com/").isSecureEndpoint)
        XCTAssertFalse(try URI(parsing: "http://id.example.com/").isSecureEndpoint)
        XCTAssertFalse(try URI(parsing: "http://127.0.0.1.example.com/").isLoopback)
        XCTAssertFalse(try URI(parsing: "http://127.0.0.256/").isLoopback)
        XCTAssertFalse(try URI(parsing: "https://user@id.example.com/").isSecureEndpoint)
    }

    func testMalformedURLsAreRefused() {
        for bad in [
            "", "no-scheme", "1abc://x", "https://exa mple.com/", "https://example.com:99999/",
            "https://example.com:port/", "https://[::1/", "https://example.com/%zz", "https://exa\u{0}mple.com",
            "https://example.com/\u{e9}", "https://example.com\\@evil.com/", "https://ex<ample.com/"
        ] {
            XCTAssertThrowsError(try URI(parsing: bad), bad)
        }
        XCTAssertThrowsError(try URI(parsing: "https://x/" + String(repeating: "a", count: URI.maxLength)))
    }
}

final class FormParametersTests: XCTestCase {
    func testDecodesFormEncoding() throws {
        let params = try FormParameters(parsing: "code=a%2Fb+c&state=xyz&empty=&flag"[...])
        XCTAssertEqual(params["code"], "a/b c")
        XCTAssertEqual(params["state"], "xyz")
        XCTAssertEqual(params["empty"], "")
        XCTAssertEqual(params["flag"], "")
    }

    func testRepeatedParametersAreRefused() {
        XCTAssertThrowsError(try FormParameters(parsing: "state=a&code=1&state=b"[...]))
        XCTAssertThrowsError(try FormParameters(parsing: "st%61te=a&state=b"[...]))
    }

    func testBadEscapesAndEncodingAreRefused() {
        for bad in ["a=%", "a=%4", "a=%G0", "a=%ff", "=x"] {
            XCTAssertThrowsError(try FormParameters(parsing: bad[...]), bad)
        }
    }

    func testEncodesEverythingOutsideUnreserved() throws {
        var params = FormParameters()
        try params.append("redirect_uri", "com.app://cb/ x?y=1&z")
        try params.append("claims", "{\"a\":\"ø\"}")
        XCTAssertEqual(
            params.encoded,
            "redirect_uri=com.app%3A%2F%2Fcb%2F%20x%3Fy%3D1%26z&claims=%7B%22a%22%3A%22%C3%B8%22%7D")
        let back = try FormParameters(parsing: params.encoded[...])
        XCTAssertEqual(back, params)
    }
}
