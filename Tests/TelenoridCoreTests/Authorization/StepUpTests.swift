import XCTest
@testable import TelenoridCore

final class StepUpChallengeTests: XCTestCase {
    // RFC 9470 §3, Figure 2 (the header's folded lines joined).
    func testRFC9470ACRExample() throws {
        let header =
            #"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR""#
        let stepUp = try XCTUnwrap(try StepUpChallenge.parse(wwwAuthenticate: header))
        XCTAssertEqual(
            stepUp,
            StepUpChallenge(acrValues: ["myACR"], errorDescription: "A different authentication level is required"))
    }

    // RFC 9470 §3, Figure 3.
    func testRFC9470MaxAgeExample() throws {
        let header =
            #"Bearer error="insufficient_user_authentication", error_description="More recent authentication is required", max_age="5""#
        let stepUp = try XCTUnwrap(try StepUpChallenge.parse(wwwAuthenticate: header))
        XCTAssertEqual(stepUp, StepUpChallenge(maxAge: 5, errorDescription: "More recent authentication is required"))
    }

    func testDPoPSchemeSeveralValuesAndTokenForm() throws {
        let stepUp = try XCTUnwrap(
            try StepUpChallenge.parse(
                wwwAuthenticate:
                    #"dpop algs="ES256", error=insufficient_user_authentication, acr_values="urn:high  urn:mid", max_age=0"#
            ))
        XCTAssertEqual(stepUp, StepUpChallenge(acrValues: ["urn:high", "urn:mid"], maxAge: 0))
        XCTAssertEqual(
            try StepUpChallenge.parse(
                wwwAuthenticate: #"Bearer error="insufficient_user_authentication", acr_values=" ""#),
            StepUpChallenge(), "blank acr_values names no class")
        // Found by fuzz_www_authenticate: a space before a combining mark is one Character, but still a separator.
        XCTAssertEqual(
            try StepUpChallenge.parse(
                wwwAuthenticate: "Bearer error=insufficient_user_authentication, acr_values=\"a \u{5B7}b\"")?.acrValues,
            ["a", "\u{5B7}b"])
    }

    func testOtherErrorsAndSchemesAreNoStepUp() throws {
        for header in [
            #"Bearer realm="example", error="invalid_token", error_description="The access token expired""#,
            #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
            #"Basic realm="x", error="insufficient_user_authentication""#,
            #"Bearer error="Insufficient_User_Authentication""#,
            #"Bearer acr_values="myACR", max_age=5"#,
            "Bearer", "", "=broken"
        ] {
            XCTAssertNil(try StepUpChallenge.parse(wwwAuthenticate: header), header)
        }
    }

    func testTheStepUpAmongSeveralChallenges() throws {
        let header =
            #"Basic realm="api", Newauth realm="apps", error="insufficient_user_authentication", acr_values=wrong, "#
            + #"Bearer realm="api", error="insufficient_user_authentication", acr_values="gold", DPoP error="insufficient_user_authentication", acr_values="silver""#
        XCTAssertEqual(
            try StepUpChallenge.parse(wwwAuthenticate: header)?.acrValues, ["gold"], "the first bearer or DPoP one")
    }

    func testAMalformedMaxAgeIsAnInvalidResponse() {
        for maxAge in ["-5", "5s", "\"\"", "1.5", "+5", "99999999999", "9223372036854775808"] {
            let header = #"Bearer error="insufficient_user_authentication", max_age="# + maxAge
            XCTAssertEqual(
                errorKind { _ = try StepUpChallenge.parse(wwwAuthenticate: header) }, .invalidResponse, maxAge)
        }
        XCTAssertEqual(
            try StepUpChallenge.parse(
                wwwAuthenticate: #"Bearer error="insufficient_user_authentication", max_age=9999999999"#)?.maxAge,
            9_999_999_999)
        XCTAssertNil(
            try StepUpChallenge.parse(wwwAuthenticate: #"Bearer error="invalid_token", max_age=soon"#),
            "max_age is only read from a step-up challenge")
    }

    func testApplyStepUpAsksForTheLevelAsAnEssentialClaim() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.applyStepUp(StepUpChallenge(acrValues: ["urn:high", "urn:mid"], maxAge: 300))
        let params = try query(of: try request.build().url)
        XCTAssertEqual(params["acr_values"], "urn:high urn:mid")
        XCTAssertEqual(params["max_age"], "300")
        let claims = try JSON.parse(try XCTUnwrap(params["claims"]))
        XCTAssertEqual(claims["id_token"]?["acr"]?["essential"], .bool(true))
        XCTAssertEqual(claims["id_token"]?["acr"]?["values"], .array([.string("urn:high"), .string("urn:mid")]))
        XCTAssertNil(claims["userinfo"])
    }

    func testApplyStepUpWithMaxAgeOnlyAsksForNoClaim() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.applyStepUp(
            try XCTUnwrap(
                try StepUpChallenge.parse(
                    wwwAuthenticate: #"Bearer error="insufficient_user_authentication", max_age="5""#)))
        let params = try query(of: try request.build().url)
        XCTAssertEqual(params["max_age"], "5")
        XCTAssertNil(params["acr_values"])
        XCTAssertNil(params["claims"])
        XCTAssertEqual(try request.build().maxAge, "5", "the pending authorization checks auth_time against it")
    }

    func testApplyStepUpChangesNothingWhenRefused() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.addClaim(ClaimsRequest.Claim(name: "acr", value: .string("urn:low")), to: .idToken)
        XCTAssertEqual(
            errorKind { try request.applyStepUp(StepUpChallenge(acrValues: ["urn:high"], maxAge: 60)) },
            .parameterConflict)
        XCTAssertEqual(request.values, [:])
        var other = AuthorizationRequest(configuration: try testConfiguration())
        XCTAssertEqual(
            errorKind { try other.applyStepUp(StepUpChallenge(acrValues: ["urn:high"], maxAge: -1)) }, .invalidArgument)
        XCTAssertTrue(other.claims.isEmpty)
        XCTAssertEqual(other.values, [:])
    }
}

final class EssentialACRTests: XCTestCase {
    let time = TestClock()
    let provider = KeyProvider()

    override func setUp() {
        time.now.store(1_800_000_000, ordering: .relaxed)
    }

    /// An ID token for the provider's client, valid now, with `acr` when given.
    func idToken(acr: JSONValue?) throws -> String {
        let now = time.now.load(ordering: .relaxed)
        var claims = JSONObject()
        claims.set("iss", .string(provider.issuer))
        claims.set("sub", .string("alice"))
        claims.set("aud", .string("client"))
        claims.set("iat", .number(JSONNumber(now)))
        claims.set("exp", .number(JSONNumber(now + 600)))
        if let acr { claims.set("acr", acr) }
        return try JWS.sign(
            payload: Array(JSON.serialize(.object(claims)).utf8), key: try PrivateKey(pem: JOSEFixtures.rsaPrivatePem),
            keyID: "rsa-1")
    }

    func validate(acr: JSONValue?, essential: [String]?) throws -> TelenoridError? {
        let client = try provider.client(time)
        let token = try idToken(acr: acr)
        do {
            _ = try client.validateIDToken(
                token, expectations: IDTokenExpectations(nonce: nil, essentialACR: essential))
            return nil
        } catch {
            return error
        }
    }

    func testAnACRAmongTheEssentialValuesPasses() throws {
        XCTAssertNil(try validate(acr: .string("urn:mid"), essential: ["urn:high", "urn:mid"]))
    }

    func testAMissingOrOtherACRIsRefused() throws {
        let missing = try XCTUnwrap(try validate(acr: nil, essential: ["urn:high"]))
        XCTAssertEqual(missing.kind, .tokenInvalid)
        XCTAssertTrue(missing.message.contains("OIDC Core §5.5.1.1"), missing.message)
        let other = try XCTUnwrap(try validate(acr: .string("urn:low"), essential: ["urn:high", "urn:mid"]))
        XCTAssertEqual(other.kind, .tokenInvalid)
        XCTAssertTrue(other.message.contains("urn:low"), other.message)
        XCTAssertEqual(
            try validate(acr: .array([.string("urn:high")]), essential: ["urn:high"])?.kind, .tokenInvalid,
            "acr is a string (OIDC Core §2)")
        XCTAssertEqual(
            try validate(acr: .string("URN:HIGH"), essential: ["urn:high"])?.kind, .tokenInvalid,
            "acr values are compared exactly")
    }

    func testWithoutEssentialValuesACRIsNotChecked() throws {
        XCTAssertNil(try validate(acr: nil, essential: nil))
        XCTAssertNil(try validate(acr: .string("urn:low"), essential: nil))
    }
}
