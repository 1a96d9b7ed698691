import XCTest
@testable import TelenoridCore

final class ProviderTextEscapingTests: XCTestCase {
    /// A provider's error_description and a refused token_type reach the message escaped; the error's
    /// own field keeps the description as the provider sent it.
    func testProviderTextInMessagesIsEscaped() throws {
        let hostile = "bad\u{1B}]0;pwned\u{07}\r\nforged line\u{202E}"
        let body =
            #"{"error":"invalid_grant\u001b[2J","error_description":"bad\u001b]0;pwned\u0007\r\nforged line\u202e"}"#
        let error = OAuthErrorResponse.error(
            from: HTTPResponse(status: 400, headers: [], body: Array(body.utf8)), during: "refresh", now: 0)
        XCTAssertEqual(
            error.message, #"refresh: HTTP 400 invalid_grant\x1B[2J (bad\x1B]0;pwned\x07\x0D\x0Aforged line\u202E)"#)
        XCTAssertEqual(error.oauthErrorDescription, hostile)
        XCTAssertEqual(error.oauthError, "invalid_grant\u{1B}[2J")

        let object = try XCTUnwrap(
            try JSON.parse(#"{"access_token":"a","token_type":"mac\u001b[31m\u2066"}"#).objectValue)
        XCTAssertThrowsError(try TokenResponse(object)) {
            XCTAssertEqual(
                ($0 as? TelenoridError)?.message,
                #"token_type mac\x1B[31m\u2066 is not one this client can use (Bearer or DPoP)"#)
        }

        var callback = FormParameters()
        try callback.append("error", "access_denied\u{1B}[2J")
        XCTAssertThrowsError(try AuthorizationErrorResponse.check(callback, from: "the browser")) {
            XCTAssertEqual(
                ($0 as? TelenoridError)?.message, #"the browser refused the authorization: access_denied\x1B[2J"#)
        }
    }
}
