import XCTest
@testable import TelenoridCore

/// RFC 9110 §11.6.1: `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`.
final class WWWAuthenticateTests: XCTestCase {
    private let negotiate = "YIIBhwYJKoZIhvcSAQICAQBuggF2MIIBcqADAgEFoQMCAQ6iBwMFACAAAACjggE=="

    func testAChallengeAfterAPaddedToken68IsRead() throws {
        let parsed = AuthenticationChallenge.parse(
            "Negotiate \(negotiate), Bearer error=\"insufficient_user_authentication\", acr_values=\"urn:high\", max_age=60"
        )
        XCTAssertEqual(parsed.map(\.scheme), ["negotiate", "bearer"])
        XCTAssertEqual(parsed[0].token68, negotiate)
        XCTAssertTrue(parsed[0].parameters.isEmpty, "a token68 is not a parameter")
        XCTAssertEqual(parsed[1].parameter("error"), "insufficient_user_authentication")
        XCTAssertEqual(parsed[1].parameter("max_age"), "60")
        XCTAssertNil(parsed[1].token68)

        let stepUp = try XCTUnwrap(
            try StepUpChallenge.parse(
                wwwAuthenticate:
                    "Negotiate \(negotiate), Bearer error=\"insufficient_user_authentication\", acr_values=\"urn:high\""
            ))
        XCTAssertEqual(stepUp.acrValues, ["urn:high"])
        XCTAssertTrue(
            DPoPNonces.asksForNonce(
                status: 401, oauthError: nil,
                wwwAuthenticate: "Basic dXNlcjpwYXNz=, DPoP error=\"use_dpop_nonce\", algs=\"ES256\""))
        XCTAssertTrue(
            DPoPNonces.asksForNonce(
                status: 401, oauthError: nil, wwwAuthenticate: "Negotiate \(negotiate),DPoP error=use_dpop_nonce"))
    }

    func testToken68AndParametersAreToldApart() {
        XCTAssertEqual(
            AuthenticationChallenge.parse("Basic YWxhZGRpbjpvcGVuc2VzYW1l"),
            [AuthenticationChallenge(scheme: "basic", token68: "YWxhZGRpbjpvcGVuc2VzYW1l")])
        XCTAssertEqual(
            AuthenticationChallenge.parse("Newauth a-b.c_d~e+f/g== \t, Bearer"),
            [
                AuthenticationChallenge(scheme: "newauth", token68: "a-b.c_d~e+f/g=="),
                AuthenticationChallenge(scheme: "bearer")
            ])
        // `name=value` and `name = value` are parameters, `name=` before a comma is a token68.
        XCTAssertEqual(
            AuthenticationChallenge.parse("Bearer realm=api, Basic realm = \"x\", Other realm=, DPoP"),
            [
                AuthenticationChallenge(scheme: "bearer", parameters: [(name: "realm", value: "api")]),
                AuthenticationChallenge(scheme: "basic", parameters: [(name: "realm", value: "x")]),
                AuthenticationChallenge(scheme: "other", token68: "realm="),
                AuthenticationChallenge(scheme: "dpop")
            ])
        // The token68 keeps its case; a challenge with one takes no parameters after it.
        XCTAssertEqual(
            AuthenticationChallenge.parse("Negotiate AbC=, realm=x, Bearer"),
            [AuthenticationChallenge(scheme: "negotiate", token68: "AbC=")])
    }

    func testWhatTheGrammarDoesNotAllowEndsTheParse() {
        // Elements of the list are separated by commas: two tokens in a row are not two challenges.
        XCTAssertEqual(AuthenticationChallenge.parse("Basic abc def, Bearer").map(\.scheme), ["basic"])
        XCTAssertEqual(
            AuthenticationChallenge.parse("Bearer a=b c=d, DPoP"),
            [AuthenticationChallenge(scheme: "bearer", parameters: [(name: "a", value: "b")])])
        // `=` inside a token68 is no token68; what came before it stays.
        XCTAssertEqual(
            AuthenticationChallenge.parse("Negotiate a=b=, Bearer"),
            [AuthenticationChallenge(scheme: "negotiate", parameters: [(name: "a", value: "b")])])
        // A token and `=` start a parameter, never a challenge, and a parameter needs a challenge before it.
        XCTAssertTrue(AuthenticationChallenge.parse("Bearer =abc, DPoP").isEmpty)
        XCTAssertEqual(
            AuthenticationChallenge.parse("Negotiate abc=, def==, Bearer"),
            [AuthenticationChallenge(scheme: "negotiate", token68: "abc=")])
        XCTAssertTrue(AuthenticationChallenge.parse("abc==, Bearer").isEmpty)
    }
}
