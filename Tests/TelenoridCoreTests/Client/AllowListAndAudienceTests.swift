import XCTest
@testable import TelenoridCore

final class AlgorithmAllowListTests: XCTestCase {
    let time = TestClock()
    let provider = KeyProvider()
    /// RFC 7515 Appendix A.3's P-256 key, as kid ec-1.
    static let ecMembers =
        #""kty":"EC","kid":"ec-1","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0""#

    override func setUp() {
        time.now.store(1_800_000_000, ordering: .relaxed)
        provider.keys.withLock { $0.append("{\(AlgorithmAllowListTests.ecMembers)}") }
    }

    func ecKey() throws -> PrivateKey {
        try PrivateKey(
            text: "{\(AlgorithmAllowListTests.ecMembers),\"d\":\"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI\"}")
    }

    func hs256(_ secret: String) throws -> String {
        let now = time.now.load(ordering: .relaxed)
        let payload = #"{"iss":"\#(provider.issuer)","sub":"alice","aud":"client","iat":\#(now),"exp":\#(now + 600)}"#
        return try JWS.sign(payload: Array(payload.utf8), algorithm: "HS256", hmacSecret: Array(secret.utf8))
    }

    func verify(_ client: OIDCClient, _ token: String) -> TelenoridError.Kind? {
        errorKind { _ = try client.verifyIDToken(token, nonce: nil) }
    }

    func testDiscoveryNarrowsTheDefault() throws {
        provider.advertised.withLock { $0.idToken = ["ES256", "none", "XX999"] }
        let client = try provider.client(time)
        XCTAssertEqual(verify(client, try provider.idToken(time)), .tokenInvalid, "RS256 is not advertised")
        XCTAssertNil(verify(client, try provider.idToken(time, key: try ecKey(), keyID: "ec-1")))
        let none =
            Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"alice"}"#.utf8))
            + "."
        XCTAssertEqual(verify(client, none), .tokenInvalid, "advertising none does not make it acceptable")
    }

    func testNoAdvertisementMeansTheDefault() throws {
        let client = try provider.client(time, [.clientSecret: "s3cret"])
        XCTAssertNil(verify(client, try provider.idToken(time)))
        XCTAssertNil(verify(client, try provider.idToken(time, key: try ecKey(), keyID: "ec-1")))
        XCTAssertEqual(verify(client, try hs256("s3cret")), .tokenInvalid, "HMAC only when advertised")
    }

    func testHMACJoinsWithASecretAndAnAdvertisement() throws {
        provider.advertised.withLock { $0.idToken = ["RS256", "HS256"] }
        XCTAssertNil(verify(try provider.client(time, [.clientSecret: "s3cret"]), try hs256("s3cret")))
        XCTAssertEqual(verify(try provider.client(time, [.clientSecret: "s3cret"]), try hs256("other")), .tokenInvalid)
        XCTAssertEqual(verify(try provider.client(time), try hs256("s3cret")), .tokenInvalid, "no secret, no HMAC")
        provider.advertised.withLock { $0.idToken = ["RS256"] }
        XCTAssertEqual(verify(try provider.client(time, [.clientSecret: "s3cret"]), try hs256("s3cret")), .tokenInvalid)
    }

    func testTheHostsListStandsWhateverIsAdvertised() throws {
        provider.advertised.withLock { $0.idToken = ["ES256"] }
        let client = try provider.client(time, [.idTokenAlgorithms: "RS256"])
        XCTAssertNil(verify(client, try provider.idToken(time)))
        XCTAssertEqual(verify(client, try provider.idToken(time, key: try ecKey(), keyID: "ec-1")), .tokenInvalid)
    }

    func testSignedUserinfoFollowsItsOwnAdvertisement() throws {
        provider.advertised.withLock { $0 = (idToken: ["RS256"], userinfo: ["ES256"]) }
        let client = try provider.client(time)
        XCTAssertEqual(
            errorKind { _ = try client.verifySignedUserinfo(try self.provider.idToken(self.time)) }, .tokenInvalid)
        XCTAssertNoThrow(try client.verifySignedUserinfo(try provider.idToken(time, key: try ecKey(), keyID: "ec-1")))
    }

    func testAClientWithEveryEndpointConfiguredDoesNotDiscoverForTheAllowList() throws {
        provider.advertised.withLock { $0.idToken = ["ES256"] }
        let client = try provider.client(time, [.jwksURI: provider.issuer + "/jwks"])
        XCTAssertNil(verify(client, try provider.idToken(time)), "nothing discovered: the default")
        XCTAssertEqual(provider.requests.withLock { $0 }, [provider.issuer + "/jwks"])
    }
}

final class ClientAssertionAudienceTests: XCTestCase {
    let provider = KeyProvider()

    func audience(_ extra: [ClientConfiguration.Setting: String], to url: String = "https://id.example.com/token")
        throws -> String?
    {
        let client = try provider.client(TestClock(), extra)
        let request = try client.authenticatedRequest(url: url, parameters: FormParameters())
        let form = try FormParameters(parsing: try XCTUnwrap(request.body).string[...])
        let assertion = try JWS(compact: try XCTUnwrap(form["client_assertion"]))
        return try JSON.parse(assertion.payload)["aud"]?.stringValue
    }

    func testTheIssuerByDefaultAndTheTokenEndpointWhenAsked() throws {
        let secret: [ClientConfiguration.Setting: String] = [
            .clientSecret: "s3cret", .clientAuthMethod: "client_secret_jwt",
            .tokenEndpoint: "https://id.example.com/oauth2/token"
        ]
        XCTAssertEqual(try audience(secret), "https://id.example.com")
        XCTAssertEqual(
            try audience(secret.merging([.clientAssertionAudience: "issuer"]) { $1 }), "https://id.example.com")
        let endpoint = secret.merging([.clientAssertionAudience: "token_endpoint"]) { $1 }
        XCTAssertEqual(try audience(endpoint), "https://id.example.com/oauth2/token")
        XCTAssertEqual(
            try audience(endpoint, to: "https://id.example.com/revoke"), "https://id.example.com/oauth2/token",
            "RFC 7523 §3 names the token endpoint, also for revocation")
    }

    func testADiscoveredTokenEndpointServesAsAudienceForPrivateKeyJWT() throws {
        XCTAssertEqual(
            try audience([.clientPrivateKey: JOSEFixtures.rsaPrivatePem, .clientAssertionAudience: "token_endpoint"]),
            "https://id.example.com/token")
    }

    func testOtherValuesAreRefused() throws {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "client"
        settings[.redirectURI] = "com.example.app:/callback"
        settings[.clientAssertionAudience] = "https://id.example.com/token"
        XCTAssertEqual(errorKind { _ = try ClientConfiguration(settings) }, .configuration)
    }

    func testBothNewSettingsReadFromJSON() throws {
        let base = #""issuer":"https://id.example.com","client_id":"client","redirect_uri":"com.example.app:/callback""#
        let configuration = try ClientConfiguration(
            json: "{\(base),\"jwks_max_age_s\":600,\"client_assertion_audience\":\"token_endpoint\"}",
            environment: nil)
        XCTAssertEqual(configuration.jwksMaxAgeSeconds, 600)
        XCTAssertEqual(configuration.clientAssertionAudience, .tokenEndpoint)
        for bad in ["0", "86401", "\"5m\""] {
            XCTAssertEqual(
                errorKind {
                    _ = try ClientConfiguration(json: "{\(base),\"jwks_max_age_s\":\(bad)}", environment: nil)
                },
                .configuration, bad)
        }
    }
}
