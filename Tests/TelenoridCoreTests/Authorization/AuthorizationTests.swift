import XCTest
@testable import TelenoridCore

final class AuthorizationRequestTests: XCTestCase {
    func testURLCarriesEveryParameterEncoded() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.set(.prompt, "login")
        try request.set(.loginHint, "+47 99 99 99 99")
        try request.set(.uiLocales, "nb en")
        try request.set(.acrValues, "urn:level:3")
        try request.set(.maxAge, "300")
        try request.set(.alohaToken, "6d1f7c2e-aloha")
        try request.addParameter("resource", "https://api.example.com/")
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let pending = try request.build(state: "s1", nonce: "n1", pkce: pkce)
        XCTAssertTrue(
            pending.url.hasPrefix(
                "https://id.example.com/oauth/authorize?response_type=code&client_id=tnn-example&redirect_uri=telenorid-example%3A%2F%2Fauthcallback%2F&scope=openid%20profile%20offline_access&state=s1&nonce=n1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
            ), pending.url)
        let params = try query(of: pending.url)
        XCTAssertEqual(params["login_hint"], "+47 99 99 99 99")
        XCTAssertEqual(params["ui_locales"], "nb en")
        XCTAssertEqual(params["max_age"], "300")
        XCTAssertEqual(params["aloha_token"], "6d1f7c2e-aloha")
        XCTAssertEqual(params["resource"], "https://api.example.com/")
        XCTAssertEqual(params["redirect_uri"], "telenorid-example://authcallback/")
        XCTAssertNil(params["claims"])
    }

    func testSecretsAreFreshAndLongEnough() throws {
        let request = AuthorizationRequest(configuration: try testConfiguration())
        let a = try request.build(), b = try request.build()
        XCTAssertNotEqual(a.state, b.state)
        XCTAssertNotEqual(a.nonce, b.nonce)
        XCTAssertEqual(Base64URL.decode(a.state)?.count, 32)
        XCTAssertEqual(Base64URL.decode(a.nonce)?.count, 32)
        XCTAssertEqual(try query(of: a.url)["code_challenge"], a.pkce.s256Challenge)
        // 43 base64url characters, as RFC 7636 §4.1 recommends (each of them random: 258 bits).
        XCTAssertEqual(a.pkce.verifier.count, 43)
        XCTAssertTrue(a.pkce.verifier.bytes.allSatisfy(Set(PKCE.base64URLAlphabet).contains))
        XCTAssertNotEqual(a.pkce.verifier.string, b.pkce.verifier.string)
    }

    // The URL's encoded part is kept between builds: each change must reach the next build, and a copy
    // made before the change must keep building the request as it was.
    func testEveryChangeReachesTheNextBuild() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration([.allowPlainPKCE: "true"]))
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        func built(_ request: AuthorizationRequest) throws -> FormParameters {
            let pending = try request.build(state: "s 1", nonce: "n&1", pkce: pkce)
            let url = try query(of: pending.url)
            // The pushed and request-object paths take the parameter list: the same parameters, in the same order.
            XCTAssertEqual(url, try request.parameters(state: "s 1", nonce: "n&1", pkce: pkce, dpopSigner: nil))
            return url
        }
        let before = request
        XCTAssertEqual(try built(request)["state"], "s 1")
        XCTAssertEqual(try built(request)["nonce"], "n&1")
        try request.set(.prompt, "login")
        XCTAssertEqual(try built(request)["prompt"], "login")
        try request.set(.prompt, nil)
        XCTAssertNil(try built(request)["prompt"])
        try request.set(.scope, "openid email")
        XCTAssertEqual(try built(request)["scope"], "openid email")
        try request.set(.claimsPurpose, "KYC")
        XCTAssertEqual(try built(request)["claims"], #"{"purpose":"KYC"}"#)
        try request.addClaim(.init(name: "email"), to: .userinfo)
        XCTAssertEqual(try built(request)["claims"], #"{"purpose":"KYC","userinfo":{"email":null}}"#)
        try request.addParameter("x-extra", "a b")
        XCTAssertEqual(try built(request)["x-extra"], "a b")
        try request.addResource("https://api.example.com/")
        XCTAssertEqual(try built(request)["resource"], "https://api.example.com/")
        try request.setAppToApp(callbackURI: "merchant-app://callback")
        XCTAssertEqual(try built(request)["app_callback_uri"], "merchant-app://callback")
        request.setAuthorizationDetails(try AuthorizationDetails(json: #"[{"type":"payment"}]"#))
        XCTAssertEqual(try built(request)["authorization_details"], #"[{"type":"payment"}]"#)
        try request.setPKCEMethod(.plain)
        XCTAssertEqual(try built(request)["code_challenge_method"], "plain")
        XCTAssertEqual(try built(request)["code_challenge"], "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let untouched = try built(before)
        XCTAssertEqual(untouched["scope"], "openid profile offline_access")
        XCTAssertEqual(untouched["code_challenge_method"], "S256")
        XCTAssertNil(untouched["claims"])
        XCTAssertNil(untouched["x-extra"])
    }

    // The claims request of the OIDC claims request for native apps (OIDC Core §5.5), with the top-level purpose.
    func testClaimsParameterFromSeed001() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.set(.claimsPurpose, "This is why RP is asking for your information")
        try request.addClaim(
            .init(name: "given_name", essential: true, purpose: "This is why RP needs your name"), to: .idToken)
        try request.addClaim(
            .init(name: "phone_number", essential: true, purpose: "This is why RP needs your phone number"),
            to: .idToken)
        try request.addClaim(.init(name: "acr", values: [.string("urn:a"), .string("urn:b")]), to: .idToken)
        try request.addClaim(.init(name: "birthdate", essential: true), to: .userinfo)
        try request.addClaim(.init(name: "email"), to: .userinfo)
        let claims = try query(of: try request.build().url)["claims"]
        XCTAssertEqual(
            claims,
            #"{"purpose":"This is why RP is asking for your information","id_token":{"given_name":{"essential":true,"purpose":"This is why RP needs your name"},"phone_number":{"essential":true,"purpose":"This is why RP needs your phone number"},"acr":{"values":["urn:a","urn:b"]}},"userinfo":{"birthdate":{"essential":true},"email":null}}"#
        )
        XCTAssertThrowsError(try request.addClaim(.init(name: "email"), to: .userinfo)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .parameterConflict)
        }
    }

    func testExtraParametersCannotOverrideOwnedOnes() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        for owned in [
            "state", "nonce", "client_id", "redirect_uri", "code_challenge", "code_challenge_method",
            "response_type", "scope", "claims", "prompt", "aloha_token", "requested_flow", "app_callback_uri"
        ] {
            XCTAssertThrowsError(try request.addParameter(owned, "x"), owned) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .parameterConflict)
            }
        }
        try request.addParameter("audience", "a")
        XCTAssertThrowsError(try request.addParameter("audience", "b"))
    }

    // Vipps Login app-to-app: requested_flow=app_to_app only ever together with app_callback_uri.
    func testAppToAppParameters() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.setAppToApp(callbackURI: "https://example.com/app-callback")
        let params = try query(of: try request.build().url)
        XCTAssertEqual(params["requested_flow"], "app_to_app")
        XCTAssertEqual(params["app_callback_uri"], "https://example.com/app-callback")
        XCTAssertThrowsError(try request.setAppToApp(callbackURI: "not a uri"))
    }

    func testPlainPKCEOnlyWhenAllowed() throws {
        var strict = AuthorizationRequest(configuration: try testConfiguration())
        XCTAssertThrowsError(try strict.setPKCEMethod(.plain)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .unsupported)
        }
        var lax = AuthorizationRequest(configuration: try testConfiguration([.allowPlainPKCE: "true"]))
        try lax.setPKCEMethod(.plain)
        let pending = try lax.build()
        let params = try query(of: pending.url)
        XCTAssertEqual(params["code_challenge_method"], "plain")
        XCTAssertEqual(params["code_challenge"], pending.pkce.verifier.string)
    }

    func testInvalidTypedValuesAreRefused() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        XCTAssertThrowsError(try request.set(.maxAge, "-1"))
        XCTAssertThrowsError(try request.set(.maxAge, "12345678901"))
        XCTAssertThrowsError(try request.set(.responseMode, "form_post"))
        XCTAssertThrowsError(try request.set(.scope, ""))
    }

    func testNoAuthorizationEndpointIsAConfigurationError() throws {
        var settings = try testConfiguration().settings
        settings[.authorizationEndpoint] = nil
        let request = AuthorizationRequest(configuration: try ClientConfiguration(settings))
        XCTAssertThrowsError(try request.build()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration) }
    }

    func testSerializationRoundTrip() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.setAppToApp(callbackURI: "merchant-app://callback")
        try request.set(.maxAge, "60")
        let pending = try request.build()
        let restored = try PendingAuthorization(restoring: pending.serialized(), configuration: pending.configuration)
        XCTAssertEqual(restored.url, pending.url)
        XCTAssertEqual(restored.state, pending.state)
        XCTAssertEqual(restored.nonce, pending.nonce)
        XCTAssertEqual(restored.pkce.verifier.string, pending.pkce.verifier.string)
        XCTAssertEqual(restored.maxAge, "60")
        XCTAssertEqual(restored.appCallbackURI, "merchant-app://callback")
        let other = try testConfiguration([.clientID: "someone-else"])
        XCTAssertThrowsError(try PendingAuthorization(restoring: pending.serialized(), configuration: other)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
        }
        // Another provider's configuration with the same client id and redirect URI is refused too; a
        // document from before the issuer was recorded restores.
        let otherProvider = try testConfiguration([.issuer: "https://other.example.com"])
        XCTAssertThrowsError(try PendingAuthorization(restoring: pending.serialized(), configuration: otherProvider)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
        }
        let issuer = pending.configuration.settings[.issuer] ?? ""
        let older = pending.serialized().string.replacingFirst("\"issuer\":\"\(issuer)\",", with: "")
        XCTAssertFalse(older.contains("\"issuer\""), older)
        XCTAssertEqual(
            try PendingAuthorization(restoring: secret(older), configuration: pending.configuration).state,
            pending.state)
        let future = pending.serialized().string.replacingFirst("\"version\":1", with: "\"version\":2")
        XCTAssertThrowsError(try PendingAuthorization(restoring: secret(future), configuration: pending.configuration))
        {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .version)
        }
        XCTAssertThrowsError(
            try PendingAuthorization(restoring: secret("{\"version\":1}"), configuration: pending.configuration))
        XCTAssertThrowsError(
            try PendingAuthorization(restoring: secret("not json"), configuration: pending.configuration))
    }

    /// The verifier is spliced into the document as bytes: the document is the one the JSON serializer
    /// wrote when it went through a String, and the verifier is read back from it unchanged.
    func testSerializedVerifierIsTheDocumentsStringMember() throws {
        let pending = try AuthorizationRequest(configuration: try testConfiguration()).build()
        let serialized = pending.serialized()
        let object = try XCTUnwrap(JSON.parse(serialized.string).objectValue)
        XCTAssertEqual(object["code_verifier"]?.stringValue, pending.pkce.verifier.string)
        XCTAssertEqual(JSON.serialize(.object(object)), serialized.string)
        let restored = try PendingAuthorization(restoring: serialized, configuration: pending.configuration)
        XCTAssertEqual(restored.pkce.verifier.string, pending.pkce.verifier.string)
        XCTAssertEqual(restored.pkce.s256Challenge, pending.pkce.s256Challenge)
        XCTAssertEqual(restored.serialized().bytes, serialized.bytes)

        // A verifier that is missing or not a string is malformed; one RFC 7636 §4.1 refuses is refused.
        for (value, kind) in [(nil, .malformed), ("5", .malformed), ("[]", .malformed), (#""short""#, .invalidArgument)]
            as [(String?, TelenoridError.Kind)]
        {
            var broken = JSONObject()
            for member in object.members where member.key != "code_verifier" { broken.set(member.key, member.value) }
            if let value { broken.set("code_verifier", try JSON.parse(value)) }
            XCTAssertThrowsError(
                try PendingAuthorization(
                    restoring: secret(JSON.serialize(.object(broken))),
                    configuration: pending.configuration), value ?? "none"
            ) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, value ?? "none")
            }
        }
    }
}
