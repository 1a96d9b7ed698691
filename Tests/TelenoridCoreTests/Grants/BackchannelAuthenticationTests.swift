import XCTest
@testable import TelenoridCore

final class BackchannelAuthenticationTests: XCTestCase {
    private static let acknowledgement = #"{"auth_req_id":"1c266114-a1be-4252-8ad1-04986c5b9ac1","expires_in":120}"#

    private func provider(answer: (status: Int, body: String) = (200, acknowledgement)) -> MemoryProvider {
        let provider = MemoryProvider()
        provider.advertise("backchannel_authentication_endpoint", endpoint: .backchannel)
        provider.answer(.backchannel, status: answer.status, body: answer.body)
        return provider
    }

    private func client(_ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [:]) throws
        -> OIDCClient
    {
        try provider.client(
            [
                .clientID: "call-centre", .redirectURI: "https://client.example.org/cb", .clientSecret: "s3cret",
                .clientAuthMethod: "client_secret_post"
            ], extra, clock: { 1_800_000_000 })
    }

    private func request(_ client: OIDCClient, _ values: [AuthorizationRequest.Parameter: String]) throws
        -> AuthorizationRequest
    {
        var request = AuthorizationRequest(configuration: client.configuration)
        for (parameter, value) in values { try request.set(parameter, value) }
        return request
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\($0)", line: line)
        }
    }

    func testExactlyOneHintIsRequiredBeforeAnyRequest() throws {
        let provider = provider()
        let client = try client(provider)
        assertKind(.invalidArgument, try client.startBackchannelAuthentication(try request(client, [:])))
        assertKind(
            .invalidArgument,
            try client.startBackchannelAuthentication(
                try request(client, [.loginHint: "tel:+4790000000", .idTokenHint: "eyJ.eyJ.sig"])))
        assertKind(
            .invalidArgument,
            try client.startBackchannelAuthentication(
                try request(client, [.loginHintToken: "token", .idTokenHint: "eyJ.eyJ.sig", .loginHint: "x"])))
        assertKind(
            .invalidArgument,
            try client.startBackchannelAuthentication(try request(client, [.loginHint: "x", .scope: "profile"])))
        XCTAssertTrue(provider.requests.withLock { $0 }.isEmpty)
    }

    func testPollModeSendsTheParametersAndKeepsTheAcknowledgement() throws {
        let provider = provider()
        let client = try client(provider)
        var request = try request(
            client,
            [
                .loginHint: "tel:+4790000000", .bindingMessage: "W4SCT", .requestedExpiry: "300",
                .acrValues: "urn:acr:2",
                .prompt: "login", .maxAge: "60"
            ])
        try request.setUserCode(secret("1234"))
        let auth = try client.startBackchannelAuthentication(request)
        XCTAssertEqual(auth.authReqID, "1c266114-a1be-4252-8ad1-04986c5b9ac1")
        XCTAssertEqual(auth.expiresAt, 1_800_000_120)
        XCTAssertEqual(auth.interval, 5)
        let form = try provider.lastForm(to: .backchannel)
        XCTAssertEqual(form["scope"], "openid")
        XCTAssertEqual(form["login_hint"], "tel:+4790000000")
        XCTAssertEqual(form["binding_message"], "W4SCT")
        XCTAssertEqual(form["requested_expiry"], "300")
        XCTAssertEqual(form["acr_values"], "urn:acr:2")
        XCTAssertEqual(form["user_code"], "1234")
        XCTAssertEqual(form["client_id"], "call-centre")
        XCTAssertEqual(form["client_secret"], "s3cret")
        for absent in ["client_notification_token", "prompt", "max_age", "redirect_uri", "response_type", "nonce"] {
            XCTAssertNil(form[absent], absent)
        }
        assertKind(.configuration, try auth.handlePing(authorization: "Bearer x", body: Array("{}".utf8)))
    }

    func testTheBackchannelParametersStayOutOfTheAuthorizationURL() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.set(.bindingMessage, "W4SCT")
        try request.set(.requestedExpiry, "300")
        try request.set(.loginHintToken, "token")
        try request.set(.idTokenHint, "eyJ.eyJ.sig")
        try request.setUserCode(secret("1234"))
        let url = try request.build().url
        XCTAssertTrue(url.contains("id_token_hint=eyJ.eyJ.sig"), url)
        for absent in ["binding_message", "requested_expiry", "login_hint_token", "user_code"] {
            XCTAssertFalse(url.contains(absent), absent)
        }
        assertKind(.invalidArgument, try request.set(.requestedExpiry, "0"))
        assertKind(.invalidArgument, try request.set(.requestedExpiry, "-5"))
        assertKind(.invalidArgument, try request.setUserCode(secret("")))
        assertKind(.parameterConflict, try request.addParameter("user_code", "1"))
    }

    func testPingModeChecksTheBearerTokenAndTheRequestID() throws {
        let provider = provider()
        let client = try client(provider, [.backchannelTokenDeliveryMode: "ping"])
        let auth = try client.startBackchannelAuthentication(try request(client, [.loginHintToken: "lht"]))
        let token = try XCTUnwrap(try provider.lastForm(to: .backchannel)["client_notification_token"])
        XCTAssertEqual(token.utf8.count, 43)  // 32 random bytes, base64url
        let second = try client.startBackchannelAuthentication(try request(client, [.loginHintToken: "lht"]))
        XCTAssertNotEqual(try provider.lastForm(to: .backchannel)["client_notification_token"], token)

        let body = Array(#"{"auth_req_id":"1c266114-a1be-4252-8ad1-04986c5b9ac1"}"#.utf8)
        assertKind(.stateMismatch, try auth.handlePing(authorization: "Bearer wrong", body: body))
        assertKind(.stateMismatch, try auth.handlePing(authorization: "Bearer " + token + "x", body: body))
        assertKind(.stateMismatch, try auth.handlePing(authorization: token, body: body))
        assertKind(.stateMismatch, try auth.handlePing(authorization: "Basic " + token, body: body))
        assertKind(.stateMismatch, try auth.handlePing(authorization: "Bearer  " + token, body: body))
        assertKind(.stateMismatch, try auth.handlePing(authorization: "", body: body))
        assertKind(
            .stateMismatch,
            try auth.handlePing(authorization: "Bearer " + token, body: Array(#"{"auth_req_id":"other"}"#.utf8)))
        for malformed in ["", "[]", "{}", #"{"auth_req_id":7}"#, "not json", String(repeating: " ", count: 5000) + "{}"]
        {
            assertKind(.malformed, try auth.handlePing(authorization: "Bearer " + token, body: Array(malformed.utf8)))
        }
        // The other request's token does not ping this one.
        assertKind(.stateMismatch, try second.handlePing(authorization: "Bearer " + token, body: body))
        try auth.handlePing(authorization: "Bearer " + token, body: body)
        try auth.handlePing(authorization: "bearer " + token, body: body)
    }

    func testHostileAcknowledgementsAreRefused() throws {
        let refused = [
            "{}", "[]", "null", #"{"expires_in":120}"#, #"{"auth_req_id":"","expires_in":120}"#,
            #"{"auth_req_id":7,"expires_in":120}"#, #"{"auth_req_id":"a b","expires_in":120}"#,
            #"{"auth_req_id":"a"}"#, #"{"auth_req_id":"a","expires_in":0}"#, #"{"auth_req_id":"a","expires_in":-1}"#,
            #"{"auth_req_id":"a","expires_in":86401}"#, #"{"auth_req_id":"a","expires_in":1e300}"#,
            #"{"auth_req_id":"a","expires_in":"120"}"#, #"{"auth_req_id":"a","expires_in":1.5}"#,
            #"{"auth_req_id":"a","expires_in":120,"interval":-1}"#,
            #"{"auth_req_id":"a","expires_in":120,"interval":99999999999999999999}"#,
            #"{"auth_req_id":"a","expires_in":120,"interval":"5"}"#,
            #"{"auth_req_id":"\#(String(repeating: "a", count: 1025))","expires_in":120}"#,
            #"{"auth_req_id":"a","expires_in":120,"pad":"\#(String(repeating: "a", count: 17000))"}"#
        ]
        for body in refused {
            assertKind(.invalidResponse, try BackchannelAuthenticationResponse(json: Array(body.utf8)))
        }
        let parsed = try BackchannelAuthenticationResponse(
            json: Array(#"{"auth_req_id":"a","expires_in":60,"interval":2}"#.utf8))
        XCTAssertEqual(parsed.interval, 2)
        XCTAssertEqual(parsed.expiresIn, 60)
    }

    func testTheProvidersErrorsKeepTheirOAuthError() throws {
        for (status, error, kind) in [
            (400, "unknown_user_id", TelenoridError.Kind.authorizationError),
            (400, "invalid_binding_message", .authorizationError),
            (400, "missing_user_code", .authorizationError), (403, "access_denied", .authorizationError),
            (401, "invalid_client", .clientRejected), (400, "unauthorized_client", .clientRejected),
            (400, "expired_login_hint_token", .authorizationError)
        ] {
            let provider = provider(answer: (status, #"{"error":"\#(error)","error_description":"no"}"#))
            let client = try client(provider)
            XCTAssertThrowsError(try client.startBackchannelAuthentication(try request(client, [.loginHint: "x"]))) {
                let failure = $0 as? TelenoridError
                XCTAssertEqual(failure?.kind, kind, error)
                XCTAssertEqual(failure?.oauthError, error)
            }
        }
    }

    func testWithoutAnEndpointTheClientSaysSo() throws {
        let provider = MemoryProvider()
        let client = try client(provider)
        assertKind(.configuration, try client.startBackchannelAuthentication(try request(client, [.loginHint: "x"])))
    }

    func testASignedRequestCarriesTheParametersInsideTheObject() throws {
        let provider = provider()
        let client = try client(
            provider, [.signAuthorizationRequests: "true", .clientPrivateKey: RequestObjectTests.ecPrivate])
        _ = try client.startBackchannelAuthentication(try request(client, [.loginHint: "tel:+4790000000"]))
        let form = try provider.lastForm(to: .backchannel)
        XCTAssertNil(form["login_hint"])
        let jws = try JWS(compact: try XCTUnwrap(form["request"]))
        let claims = try XCTUnwrap(try JSON.parse(jws.payload).objectValue)
        XCTAssertEqual(claims["login_hint"]?.stringValue, "tel:+4790000000")
        XCTAssertEqual(claims["scope"]?.stringValue, "openid")
        XCTAssertEqual(claims["aud"]?.stringValue, provider.issuer)
        XCTAssertEqual(claims["iss"]?.stringValue, "call-centre")
        XCTAssertNotNil(claims["jti"]?.stringValue)
        XCTAssertEqual(form["client_secret"], "s3cret")
    }
}
