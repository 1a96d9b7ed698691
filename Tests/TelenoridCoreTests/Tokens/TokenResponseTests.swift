import XCTest
@testable import TelenoridCore

final class TokenResponseTests: XCTestCase {
    func parse(_ text: String) throws -> TokenResponse {
        guard let object = try JSON.parse(text).objectValue else { throw TelenoridError(.malformed, "not an object") }
        return try TokenResponse(object)
    }

    func testLenientWhereHarmless() throws {
        XCTAssertEqual(try parse(#"{"access_token":"a","token_type":"bearer","expires_in":"3600"}"#).expiresIn, 3600)
        XCTAssertEqual(try parse(#"{"access_token":"a","token_type":"BEARER","expires_in":3600.0}"#).expiresIn, 3600)
        XCTAssertNil(try parse(#"{"access_token":"a","token_type":"Bearer","refresh_token":null}"#).refreshToken)
    }

    func testStrictWhereItMatters() {
        for bad in [
            #"{"token_type":"Bearer"}"#, #"{"access_token":"","token_type":"Bearer"}"#,
            #"{"access_token":"a"}"#, #"{"access_token":"a","token_type":"mac"}"#,
            #"{"access_token":1,"token_type":"Bearer"}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":-5}"#,
            #"{"access_token":"a","token_type":"Bearer","expires_in":"1h"}"#,
            #"{"access_token":"a","token_type":"Bearer","id_token":{}}"#
        ] {
            XCTAssertThrowsError(try parse(bad), bad) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidResponse)
            }
        }
    }
}
