import XCTest
@testable import TelenoridCore

/// A provider with a pushed authorization request endpoint (RFC 9126), served from memory: its metadata
/// says whether pushing is required, and its PAR endpoint answers what the test set.
private func parProvider(
    requirePush: Bool, hasEndpoint: Bool = true,
    answer: (status: Int, body: String) = (
        201, #"{"request_uri":"urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c","expires_in":60}"#
    )
) -> MemoryProvider {
    let provider = MemoryProvider()
    provider.advertise("jwks_uri", endpoint: .jwks)
    provider.advertise("require_pushed_authorization_requests", json: "\(requirePush)")
    if hasEndpoint { provider.advertise("pushed_authorization_request_endpoint", endpoint: .par) }
    provider.answer(.par, status: answer.status, body: answer.body)
    return provider
}

final class PushedAuthorizationTests: XCTestCase {
    private func client(_ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [:]) throws
        -> OIDCClient
    {
        try provider.client([.clientID: "native-app", .redirectURI: "com.example.app:/oauth2redirect"], extra)
    }

    private func query(_ url: String) throws -> FormParameters {
        let uri = try URI(parsing: url)
        return try FormParameters(parsing: (uri.query ?? "")[...])
    }

    /// A provider without discovery, with its endpoints configured: building a request asks for the
    /// metadata once, not once per decision (push, sign), and goes on without it.
    func testAProviderWithoutDiscoveryIsAskedForItOncePerRequest() throws {
        let provider = MemoryProvider(discovery: false)
        let client = try client(
            provider, [.authorizationEndpoint: provider.issuer + "/authorize", .tokenEndpoint: provider.url(.token)])
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        XCTAssertTrue(pending.url.hasPrefix(provider.issuer + "/authorize?response_type=code&"))
        XCTAssertEqual(provider.requests(to: .discovery).count, 1)
    }

    func testARequiredPushLeavesOnlyClientIDAndRequestURIInTheURL() throws {
        let provider = parProvider(requirePush: true)
        let client = try client(provider)
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.set(.loginHint, "+4799999999")
        let pending = try client.buildAuthorization(request)

        XCTAssertTrue(pending.url.hasPrefix("https://id.example.com/authorize?"))
        let front = try query(pending.url)
        XCTAssertEqual(front.pairs.map(\.name), ["client_id", "request_uri"])
        XCTAssertEqual(front["client_id"], "native-app")
        XCTAssertEqual(front["request_uri"], "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c")

        let pushed = try provider.lastForm(to: .par)
        XCTAssertEqual(provider.requests(to: .par).first?.method, "POST")
        XCTAssertEqual(pushed["response_type"], "code")
        XCTAssertEqual(pushed["redirect_uri"], "com.example.app:/oauth2redirect")
        XCTAssertEqual(pushed["state"], pending.state)
        XCTAssertEqual(pushed["nonce"], pending.nonce)
        XCTAssertEqual(pushed["code_challenge"], pending.pkce.challenge(.s256))
        XCTAssertEqual(pushed["code_challenge_method"], "S256")
        XCTAssertEqual(pushed["login_hint"], "+4799999999")
        XCTAssertEqual(pushed.pairs.filter { $0.name == "client_id" }.count, 1, "a public client sends client_id once")

        // The callback is checked against the pushed request's state as for any other.
        let callback = try pending.handleCallback("com.example.app:/oauth2redirect?code=abc&state=\(pending.state)")
        XCTAssertEqual(callback.code, "abc")
    }

    func testTheHostCanAskForPushingWhenTheProviderDoesNotRequireIt() throws {
        let provider = parProvider(requirePush: false)
        let client = try client(provider, [.pushAuthorizationRequests: "true"])
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        XCTAssertNotNil(try query(pending.url)["request_uri"])
        XCTAssertEqual(provider.requests(to: .par).count, 1)
    }

    func testWithoutPushingTheURLCarriesTheWholeRequestAtTheDiscoveredEndpoint() throws {
        let provider = parProvider(requirePush: false)
        let client = try client(provider)
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        XCTAssertTrue(pending.url.hasPrefix("https://id.example.com/authorize?"))
        let front = try query(pending.url)
        XCTAssertNil(front["request_uri"])
        XCTAssertEqual(front["state"], pending.state)
        XCTAssertEqual(front["code_challenge"], pending.pkce.challenge(.s256))
        XCTAssertEqual(provider.requests(to: .par).count, 0)
    }

    func testARequiredPushWithoutAnEndpointIsTheProvidersShortcoming() throws {
        let provider = parProvider(requirePush: true, hasEndpoint: false)
        let client = try client(provider)
        XCTAssertThrowsError(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(error.kind, .providerUnsupported)
            XCTAssertTrue(error.message.contains("RFC 9126"), error.message)
        }
    }

    func testTheProvidersRefusalKeepsItsOAuthError() throws {
        let provider = parProvider(
            requirePush: true, answer: (400, #"{"error":"invalid_request","error_description":"bad scope"}"#))
        let client = try client(provider)
        XCTAssertThrowsError(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(
                error.kind, .pushRefused, "RFC 9126 §2.3: the push endpoint's refusal, not an error redirect")
            XCTAssertEqual(error.oauthError, "invalid_request")
            XCTAssertEqual(error.oauthErrorDescription, "bad scope")
            XCTAssertEqual(error.httpStatus, 400)
        }
    }

    func testAnswersWithoutAUsableRequestURIAreRefused() throws {
        for body in [
            #"{"expires_in":60}"#, #"{"request_uri":"","expires_in":60}"#, #"{"request_uri":5,"expires_in":60}"#,
            #"{"request_uri":"urn:x","expires_in":0}"#, #"{"request_uri":"urn:x"}"#,
            #"{"request_uri":"urn:x\nLocation: evil","expires_in":60}"#, "[]", "not json"
        ] {
            let provider = parProvider(requirePush: true, answer: (201, body))
            let client = try client(provider)
            XCTAssertThrowsError(
                try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration)), body
            ) {
                XCTAssertEqual(($0 as! TelenoridError).kind, .invalidResponse, body)
            }
        }
        // 200 instead of 201 is taken: some providers answer so.
        let provider = parProvider(requirePush: true, answer: (200, #"{"request_uri":"urn:x","expires_in":90}"#))
        let client = try client(provider)
        XCTAssertEqual(
            try query(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration)).url)[
                "request_uri"], "urn:x")
    }

    func testFAPI2RefusesARequestURIOf600SecondsOrMore() throws {
        let fapi2: [ClientConfiguration.Setting: String] = [.securityProfile: "fapi2", .dpopSigningAlgorithm: "ES256"]
        for (lifetime, profile, accepted) in [
            (600, fapi2, false), (3600, fapi2, false), (599, fapi2, true), (3600, [:], true)
        ] {
            let provider = parProvider(
                requirePush: true, answer: (201, #"{"request_uri":"urn:x","expires_in":\#(lifetime)}"#))
            let client = try client(provider, profile)
            let build = { try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration)) }
            if accepted {
                XCTAssertEqual(try query(try build().url)["request_uri"], "urn:x", "\(lifetime)")
            } else {
                XCTAssertThrowsError(try build(), "\(lifetime)") {
                    XCTAssertEqual(($0 as! TelenoridError).kind, .invalidResponse)
                    XCTAssertTrue(($0 as! TelenoridError).message.contains("§5.3.2.2"), ($0 as! TelenoridError).message)
                }
            }
        }
    }

    func testAConfidentialClientAuthenticatesThePush() throws {
        let provider = parProvider(requirePush: true)
        let client = try client(provider, [.clientSecret: "s3cret", .clientAuthMethod: "client_secret_basic"])
        _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        let request = try XCTUnwrap(provider.requests(to: .par).first)
        XCTAssertEqual(request.authorization?.string, "Basic bmF0aXZlLWFwcDpzM2NyZXQ=")
        XCTAssertEqual(try provider.lastForm(to: .par)["client_id"], "native-app")
        XCTAssertNil(try provider.lastForm(to: .par)["client_secret"])
    }

    func testARequestForAnotherClientIsRefused() throws {
        let provider = parProvider(requirePush: true)
        let client = try client(provider)
        var settings = client.configuration.settings
        settings[.clientID] = "another-app"
        let other = AuthorizationRequest(configuration: try ClientConfiguration(settings))
        XCTAssertThrowsError(try client.buildAuthorization(other)) {
            XCTAssertEqual(($0 as! TelenoridError).kind, .invalidArgument)
        }
        XCTAssertEqual(provider.requests(to: .par).count, 0)
    }

    func testMetadataReadsThePushFields() throws {
        let document =
            #"{"issuer":"https://id.example.com","pushed_authorization_request_endpoint":"https://id.example.com/par","require_pushed_authorization_requests":true}"#
        let metadata = try ProviderMetadata(json: Array(document.utf8), expectedIssuer: "https://id.example.com")
        XCTAssertEqual(metadata.endpoints[.pushedAuthorizationRequestEndpoint], "https://id.example.com/par")
        XCTAssertTrue(metadata.requirePushedAuthorizationRequests)
        let bad = #"{"issuer":"https://id.example.com","require_pushed_authorization_requests":"yes"}"#
        XCTAssertThrowsError(try ProviderMetadata(json: Array(bad.utf8), expectedIssuer: "https://id.example.com"))
        let insecure =
            #"{"issuer":"https://id.example.com","pushed_authorization_request_endpoint":"http://id.example.com/par"}"#
        XCTAssertThrowsError(try ProviderMetadata(json: Array(insecure.utf8), expectedIssuer: "https://id.example.com"))
    }
}
