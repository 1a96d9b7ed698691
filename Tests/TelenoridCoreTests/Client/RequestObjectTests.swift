import XCTest
@testable import TelenoridCore

/// A provider served from memory whose metadata lists the request object algorithms the test chose and
/// whose pushed authorization request endpoint (RFC 9126) records what was pushed.
private func jarProvider(
    requirePush: Bool = false, requireSigned: Bool = false, requestObjectAlgorithms: [String]? = nil
) -> MemoryProvider {
    let provider = MemoryProvider()
    provider.advertise("pushed_authorization_request_endpoint", endpoint: .par)
    provider.advertise("require_pushed_authorization_requests", json: "\(requirePush)")
    provider.advertise("require_signed_request_object", json: "\(requireSigned)")
    provider.advertise("request_parameter_supported", json: "true")
    if let requestObjectAlgorithms {
        provider.advertise("request_object_signing_alg_values_supported", strings: requestObjectAlgorithms)
    }
    provider.answer(
        .par, status: 201,
        body: #"{"request_uri":"urn:ietf:params:oauth:request_uri:bwc4JK-ESC0w8acc191e-Y1LTC2","expires_in":60}"#)
    return provider
}

final class RequestObjectTests: XCTestCase {
    static let now: Int64 = 1_800_000_000
    /// RFC 7515 Appendix A.3's P-256 key, as kid ec-1: the public half, and the whole key.
    static let ecPublic =
        #"{"kty":"EC","kid":"ec-1","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#
    static let ecPrivate =
        #"{"kty":"EC","kid":"ec-1","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#

    private func client(
        _ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String],
        sign: Bool = true
    ) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "s6BhdRkqt3"
        settings[.redirectURI] = "com.example.app:/oauth2redirect"
        if sign { settings[.signAuthorizationRequests] = "true" }
        for (setting, value) in extra { settings[setting] = value }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider, clock: { RequestObjectTests.now })
    }

    private func query(_ url: String) throws -> FormParameters {
        try FormParameters(parsing: (try URI(parsing: url).query ?? "")[...])
    }

    /// The request object verified with `publicKey` by the library's own JWS verification, and its claims.
    private func verified(_ compact: String, with publicKey: String) throws -> (header: JSONObject, claims: JSONObject)
    {
        let jws = try JWS(compact: compact)
        try jws.verify(with: try JWK(try XCTUnwrap(try JSON.parse(publicKey).objectValue)))
        return (jws.header, try XCTUnwrap(try JSON.parse(jws.payload).objectValue))
    }

    /// The request of OIDC Core §5.5's example claims request, with a max_age.
    private func request(for client: OIDCClient) throws -> AuthorizationRequest {
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.set(.scope, "openid email")
        try request.set(.maxAge, "600")
        try request.addClaim(.init(name: "given_name", essential: true), to: .userinfo)
        try request.addClaim(.init(name: "auth_time", essential: true), to: .idToken)
        try request.addClaim(.init(name: "acr", values: [.string("urn:mace:incommon:iap:silver")]), to: .idToken)
        return request
    }

    func testAnECRequestObjectInTheURLCarriesTheWholeRequestSigned() throws {
        let provider = jarProvider()
        let client = try client(provider, [.clientPrivateKey: Self.ecPrivate])
        let pending = try client.buildAuthorization(try request(for: client))

        XCTAssertTrue(pending.url.hasPrefix("https://id.example.com/authorize?"))
        let front = try query(pending.url)
        XCTAssertEqual(front.pairs.map(\.name), ["client_id", "request", "response_type", "scope"])
        XCTAssertEqual(front["client_id"], "s6BhdRkqt3")
        XCTAssertEqual(front["response_type"], "code")
        XCTAssertEqual(front["scope"], "openid email")
        XCTAssertEqual(provider.requests(to: .par).count, 0)

        let (header, claims) = try verified(try XCTUnwrap(front["request"]), with: Self.ecPublic)
        XCTAssertEqual(header["alg"], .string("ES256"))
        XCTAssertEqual(header["typ"], .string("oauth-authz-req+jwt"))
        XCTAssertEqual(header["kid"], .string("ec-1"))

        XCTAssertEqual(claims["iss"], .string("s6BhdRkqt3"))
        XCTAssertEqual(claims["aud"], .string("https://id.example.com"))
        XCTAssertEqual(claims["client_id"], .string("s6BhdRkqt3"))
        XCTAssertEqual(claims["response_type"], .string("code"))
        XCTAssertEqual(claims["redirect_uri"], .string("com.example.app:/oauth2redirect"))
        XCTAssertEqual(claims["scope"], .string("openid email"))
        XCTAssertEqual(claims["state"], .string(pending.state))
        XCTAssertEqual(claims["nonce"], .string(pending.nonce))
        XCTAssertEqual(claims["code_challenge"], .string(pending.pkce.challenge(.s256)))
        XCTAssertEqual(claims["code_challenge_method"], .string("S256"))
        XCTAssertEqual(claims["max_age"], .number(JSONNumber(600)), "OIDC Core §6.1: max_age is a number")
        let expected = try JSON.parse(
            #"{"id_token":{"auth_time":{"essential":true},"acr":{"values":["urn:mace:incommon:iap:silver"]}},"userinfo":{"given_name":{"essential":true}}}"#
        )
        XCTAssertEqual(claims["claims"], expected, "OIDC Core §6.1: claims is the JSON object itself")

        XCTAssertEqual(claims["iat"]?.int64Value, Self.now)
        let nbf = try XCTUnwrap(claims["nbf"]?.int64Value), exp = try XCTUnwrap(claims["exp"]?.int64Value)
        XCTAssertEqual(nbf, Self.now)
        XCTAssertGreaterThan(exp, nbf)
        XCTAssertLessThanOrEqual(exp - nbf, 3600, "FAPI 2.0 Message Signing: exp at most 60 minutes after nbf")
        let jti = try XCTUnwrap(claims["jti"]?.stringValue)
        XCTAssertGreaterThanOrEqual(jti.utf8.count, 22)

        // Each request object is its own: a second build draws another jti (and state, nonce and PKCE).
        let again = try query(try client.buildAuthorization(try request(for: client)).url)
        let second = try verified(try XCTUnwrap(again["request"]), with: Self.ecPublic).claims
        XCTAssertNotEqual(second["jti"]?.stringValue, jti)

        // The callback is checked against the state inside the object.
        let callback = try pending.handleCallback("com.example.app:/oauth2redirect?code=abc&state=\(pending.state)")
        XCTAssertEqual(callback.code, "abc")
    }

    func testAnRSARequestObjectIsPushedAsClientIDAndRequestWithTheClientsAssertion() throws {
        let provider = jarProvider(requirePush: true)
        let client = try client(provider, [.clientPrivateKey: JOSEFixtures.rsaPrivatePem])
        let pending = try client.buildAuthorization(try request(for: client))

        let front = try query(pending.url)
        XCTAssertEqual(front.pairs.map(\.name), ["client_id", "request_uri"])
        XCTAssertEqual(front["request_uri"], "urn:ietf:params:oauth:request_uri:bwc4JK-ESC0w8acc191e-Y1LTC2")

        // RFC 9126 §3: the request object alone, beside private_key_jwt's own members (client_id once).
        let pushed = try provider.lastForm(to: .par)
        XCTAssertEqual(
            Set(pushed.pairs.map(\.name)), ["client_id", "request", "client_assertion_type", "client_assertion"])
        XCTAssertEqual(pushed.pairs.count, 4)
        XCTAssertEqual(pushed["client_id"], "s6BhdRkqt3")
        XCTAssertEqual(pushed["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        _ = try verified(try XCTUnwrap(pushed["client_assertion"]), with: JOSEFixtures.rsaJwk)

        let (header, claims) = try verified(try XCTUnwrap(pushed["request"]), with: JOSEFixtures.rsaJwk)
        XCTAssertEqual(header["alg"], .string("RS256"))
        XCTAssertEqual(header["typ"], .string("oauth-authz-req+jwt"))
        let thumbprint = try JWKThumbprint.sha256(of: try XCTUnwrap(try JSON.parse(JOSEFixtures.rsaJwk).objectValue))
        XCTAssertEqual(header["kid"], .string(thumbprint), "a PEM key is named by its RFC 7638 thumbprint")
        XCTAssertEqual(claims["iss"], .string("s6BhdRkqt3"))
        XCTAssertEqual(claims["aud"], .string("https://id.example.com"))
        XCTAssertEqual(claims["state"], .string(pending.state))
        XCTAssertEqual(claims["nonce"], .string(pending.nonce))
        XCTAssertEqual(claims["code_challenge"], .string(pending.pkce.challenge(.s256)))
        XCTAssertEqual(claims["max_age"], .number(JSONNumber(600)))
        XCTAssertNotNil(claims["claims"]?.objectValue)
    }

    func testABasicAuthenticatedPushSendsClientIDAndRequestOnly() throws {
        let provider = jarProvider()
        let client = try client(
            provider,
            [
                .clientPrivateKey: Self.ecPrivate, .clientSecret: "s3cret",
                .clientAuthMethod: "client_secret_basic", .pushAuthorizationRequests: "true"
            ])
        _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        let pushed = try provider.lastForm(to: .par)
        XCTAssertEqual(pushed.pairs.map(\.name), ["client_id", "request"])
        XCTAssertEqual(provider.requests(to: .par).first?.authorization?.string, "Basic czZCaGRSa3F0MzpzM2NyZXQ=")
        _ = try verified(try XCTUnwrap(pushed["request"]), with: Self.ecPublic)
    }

    func testWithoutAPrivateKeyNothingIsSigned() throws {
        let provider = jarProvider(requirePush: true)
        let client = try client(provider, [.clientSecret: "s3cret"])
        XCTAssertThrowsError(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(error.kind, .configuration)
            XCTAssertTrue(error.message.contains("RFC 9101"), error.message)
        }
        XCTAssertEqual(provider.requests(to: .par).count, 0)
    }

    func testAKeyWhoseAlgorithmTheProviderDoesNotListIsRefused() throws {
        let provider = jarProvider(requirePush: true, requestObjectAlgorithms: ["PS256", "RS256"])
        let client = try client(provider, [.clientPrivateKey: Self.ecPrivate])
        XCTAssertThrowsError(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(error.kind, .configuration)
            XCTAssertTrue(error.message.contains("RFC 9101"), error.message)
            XCTAssertTrue(error.message.contains("ES256"), error.message)
        }
        XCTAssertEqual(provider.requests(to: .par).count, 0)

        let listing = jarProvider(requirePush: true, requestObjectAlgorithms: ["PS256", "ES256"])
        let accepted = try self.client(listing, [.clientPrivateKey: Self.ecPrivate])
        XCTAssertNoThrow(try accepted.buildAuthorization(AuthorizationRequest(configuration: accepted.configuration)))
        XCTAssertEqual(listing.requests(to: .par).count, 1)
    }

    func testAnExtraParameterCantTakeTheNameOfAJWTClaim() throws {
        let client = try client(jarProvider(), [.clientPrivateKey: Self.ecPrivate])
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.addParameter("exp", "4102444800")
        XCTAssertEqual(errorKind { _ = try client.buildAuthorization(request) }, .parameterConflict)
    }

    func testFAPI2PushesEvenWhenNeitherTheHostNorTheProviderAsks() throws {
        let provider = jarProvider()
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "s6BhdRkqt3"
        settings[.redirectURI] = "com.example.app:/oauth2redirect"
        settings[.clientPrivateKey] = Self.ecPrivate
        settings[.securityProfile] = "fapi2"
        settings[.dpopSigningAlgorithm] = "ES256"
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        XCTAssertEqual(try query(pending.url).pairs.map(\.name), ["client_id", "request_uri"])
        XCTAssertEqual(provider.requests(to: .par).count, 1)
        // FAPI 2.0 alone does not sign: the pushed request is the plain parameters.
        let pushed = try provider.lastForm(to: .par)
        XCTAssertNil(pushed["request"])
        XCTAssertEqual(pushed["state"], pending.state)
    }

    func testMetadataReadsTheRequestObjectFields() throws {
        let issuer = "https://id.example.com"
        let document =
            #"{"issuer":"\#(issuer)","request_object_signing_alg_values_supported":["none","RS256","ES256"],"request_parameter_supported":true}"#
        let metadata = try ProviderMetadata(json: Array(document.utf8), expectedIssuer: issuer)
        XCTAssertEqual(metadata.requestObjectSigningAlgorithms, ["none", "RS256", "ES256"])
        XCTAssertTrue(metadata.requestParameterSupported)

        let silent = try ProviderMetadata(json: Array(#"{"issuer":"\#(issuer)"}"#.utf8), expectedIssuer: issuer)
        XCTAssertEqual(silent.requestObjectSigningAlgorithms, [])
        XCTAssertFalse(silent.requestParameterSupported, "OIDC Discovery §3: false when omitted")
        XCTAssertEqual(silent.filling(from: metadata).requestObjectSigningAlgorithms, ["none", "RS256", "ES256"])

        for bad in [
            #""request_object_signing_alg_values_supported":"RS256""#,
            #""request_object_signing_alg_values_supported":[256]"#,
            #""request_parameter_supported":"true""#
        ] {
            XCTAssertThrowsError(
                try ProviderMetadata(json: Array(#"{"issuer":"\#(issuer)",\#(bad)}"#.utf8), expectedIssuer: issuer), bad
            )
        }
    }

    func testRepeatedParametersAreOneArrayClaimAndJSONParametersTheirValue() throws {
        let provider = jarProvider()
        let client = try client(provider, [.clientPrivateKey: Self.ecPrivate])
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.addResource("https://api.example.com/accounts")
        try request.addResource("https://api.example.com/payments")
        let details = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"123.50"}}]"#
        request.setAuthorizationDetails(try AuthorizationDetails(json: details))
        let front = try query(try client.buildAuthorization(request).url)
        let claims = try verified(try XCTUnwrap(front["request"]), with: Self.ecPublic).claims
        XCTAssertEqual(
            claims["resource"],
            .array([.string("https://api.example.com/accounts"), .string("https://api.example.com/payments")]),
            "RFC 8707 §2: every resource, not the last one")
        XCTAssertEqual(
            claims["authorization_details"], try JSON.parse(details), "RFC 9396 §2: the array itself, not a string")

        var single = AuthorizationRequest(configuration: client.configuration)
        try single.addResource("https://api.example.com/accounts")
        let one = try verified(
            try XCTUnwrap(try query(try client.buildAuthorization(single).url)["request"]), with: Self.ecPublic
        ).claims
        XCTAssertEqual(one["resource"], .string("https://api.example.com/accounts"))
    }

    func testAProviderThatRequiresSignedRequestObjectsGetsThemPushedWithoutTheHostAsking() throws {
        let provider = jarProvider(requireSigned: true)
        let client = try client(provider, [.clientPrivateKey: Self.ecPrivate], sign: false)
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        XCTAssertEqual(
            try query(pending.url).pairs.map(\.name), ["client_id", "request_uri"],
            "RFC 9101 §10.5, pushed as RFC 9126 allows")
        let (_, claims) = try verified(try XCTUnwrap(try provider.lastForm(to: .par)["request"]), with: Self.ecPublic)
        XCTAssertEqual(claims["state"], .string(pending.state))

        let metadata = try ProviderMetadata(
            json: Array(#"{"issuer":"https://id.example.com","require_signed_request_object":true}"#.utf8),
            expectedIssuer: "https://id.example.com")
        XCTAssertTrue(metadata.requireSignedRequestObject)
        XCTAssertThrowsError(
            try ProviderMetadata(
                json: Array(#"{"issuer":"https://id.example.com","require_signed_request_object":1}"#.utf8),
                expectedIssuer: "https://id.example.com"))
    }

    func testAPlainBuildRefusesARequestThatMustBePushedOrSigned() throws {
        // By the configuration: pushed, signed, FAPI 2.0.
        for extra: [ClientConfiguration.Setting: String] in [
            [.pushAuthorizationRequests: "true"], [.signAuthorizationRequests: "true"],
            [.securityProfile: "fapi2", .dpopSigningAlgorithm: "ES256"]
        ] {
            let client = try client(
                jarProvider(), extra.merging([.clientPrivateKey: Self.ecPrivate]) { a, _ in a }, sign: false)
            XCTAssertThrowsError(try AuthorizationRequest(configuration: client.configuration).build(), "\(extra)") {
                let error = $0 as! TelenoridError
                XCTAssertEqual(error.kind, .configuration)
                XCTAssertTrue(error.message.contains("telenorid_client_build_auth_request"), error.message)
            }
        }
        // By the provider's metadata, known to the configuration the client filled in.
        for provider in [jarProvider(requirePush: true), jarProvider(requireSigned: true)] {
            let client = try client(provider, [.clientPrivateKey: Self.ecPrivate], sign: false)
            let effective = try client.effectiveConfiguration()
            XCTAssertEqual(errorKind { _ = try AuthorizationRequest(configuration: effective).build() }, .configuration)
        }
        let relaxed = try client(jarProvider(), [:], sign: false)
        XCTAssertNoThrow(try AuthorizationRequest(configuration: try relaxed.effectiveConfiguration()).build())
    }

    func testAnRSAKeyWithoutAnAlgorithmSignsWhatTheProviderListsAndClientKeyIDNamesIt() throws {
        let provider = jarProvider(requirePush: true, requestObjectAlgorithms: ["PS256"])
        let client = try client(
            provider, [.clientPrivateKey: JOSEFixtures.rsaPrivatePem, .clientKeyID: "registered-2024"])
        _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        let (header, _) = try verified(
            try XCTUnwrap(try provider.lastForm(to: .par)["request"]), with: JOSEFixtures.rsaJwk)
        XCTAssertEqual(header["alg"], .string("PS256"))
        XCTAssertEqual(header["kid"], .string("registered-2024"))
        // A key that declares its algorithm keeps it: a provider that lists others refuses it before the browser.
        let es = try self.client(
            jarProvider(requirePush: true, requestObjectAlgorithms: ["PS256"]), [.clientPrivateKey: Self.ecPrivate])
        XCTAssertEqual(
            errorKind { _ = try es.buildAuthorization(AuthorizationRequest(configuration: es.configuration)) },
            .configuration)
    }
}
