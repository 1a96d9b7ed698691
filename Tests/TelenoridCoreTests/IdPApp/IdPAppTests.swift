import XCTest
@testable import TelenoridCore

/// The identity-provider app flow (Salesforce Mobile SDK identity provider style): an SP app asks an IdP app
/// for a code, the IdP app gets it from the provider on the SP's behalf.
final class IdPAppTests: XCTestCase {
    let idpURI = "idpapp://authorize"
    let spRedirect = "telenorid-example://authcallback/"

    func spPending() throws -> PendingAuthorization {
        try AuthorizationRequest(configuration: testConfiguration()).build()
    }

    func kind(_ body: @autoclosure () throws -> Any) -> TelenoridError.Kind? {
        do { _ = try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    func testRoundTripInBothFormsCarriesOnlyTheCode() throws {
        let pending = try spPending()
        let request = try IdPAppRequest(pending: pending, loginHost: "id.example.com", userHint: "alice")
        XCTAssertEqual(request.parameters["scopes"], "openid,profile,offline_access")
        XCTAssertEqual(request.parameters["code_challenge"], pending.pkce.s256Challenge)
        XCTAssertFalse(request.parameters.pairs.contains { $0.value == pending.pkce.verifier.string })

        // iOS: a URL on the IdP app's scheme; Android: the same pairs as a bundle.
        let viaURL = try IdPAppRequest(
            url: request.url(idpAppURI: idpURI), idpAppURI: idpURI, callerRedirectURIs: [spRedirect])
        let viaBundle = try IdPAppRequest(parameters: request.parameters, callerRedirectURIs: [spRedirect])
        XCTAssertEqual(viaURL, request)
        XCTAssertEqual(viaBundle, request)

        let authorize = try query(
            of: viaURL.authorizationURL(authorizationEndpoint: "https://id.example.com/oauth/authorize"))
        XCTAssertEqual(authorize["client_id"], "tnn-example")
        XCTAssertEqual(authorize["redirect_uri"], spRedirect)
        XCTAssertEqual(authorize["scope"], "openid profile offline_access")
        XCTAssertEqual(authorize["code_challenge_method"], "S256")
        XCTAssertEqual(authorize["login_hint"], "alice")
        XCTAssertEqual(authorize["state"], pending.state)
        XCTAssertEqual(authorize["nonce"], pending.nonce)

        let response = try viaURL.response(
            fromProviderRedirect: spRedirect + "?code=c0de&state=\(pending.state)",
            loginHost: "id.example.com")
        XCTAssertEqual(response.parameters.pairs.map(\.name), ["code", "login_host", "state"])
        let callback = try pending.handleIdPAppResponse(
            url: response.url(redirectURI: spRedirect), allowedLoginHosts: [])
        XCTAssertEqual(callback.code, "c0de")
        // Answered once: the bundle form of the same response is refused now.
        XCTAssertEqual(
            kind(try pending.handleIdPAppResponse(parameters: response.parameters, allowedLoginHosts: [])), .consumed)
    }

    func testHostileRequestsAreRefused() throws {
        let good = try IdPAppRequest(pending: spPending(), loginHost: "id.example.com", userHint: nil).parameters
        func with(_ name: String, _ value: String?) -> FormParameters {
            var out = FormParameters()
            for pair in good.pairs where pair.name != name { try? out.append(pair.name, pair.value) }
            if let value { try? out.append(name, value) }
            return out
        }
        func refused(_ parameters: FormParameters) -> TelenoridError.Kind? {
            kind(try IdPAppRequest(parameters: parameters, callerRedirectURIs: [spRedirect]))
        }
        XCTAssertEqual(refused(with("code_challenge", "short")), .malformed)
        XCTAssertEqual(refused(with("code_challenge", String(repeating: "+", count: 43))), .malformed)
        XCTAssertEqual(refused(with("oauth_redirect_uri", "evil-app://steal")), .redirectMismatch)
        XCTAssertEqual(refused(with("oauth_redirect_uri", "telenorid-example://authcallback")), .redirectMismatch)
        XCTAssertEqual(refused(with("oauth_redirect_uri", "not a uri")), .malformed)
        XCTAssertEqual(refused(with("state", nil)), .malformed)
        XCTAssertEqual(refused(with("scopes", "openid,,profile")), .malformed)
        XCTAssertEqual(refused(with("login_host", "evil.example/path")), .malformed)
        XCTAssertEqual(
            refused(
                FormParameters(good.pairs.map { (name: $0.name, value: $0.value) } + [(name: "state", value: "again")])),
            .malformed, "a known parameter given twice")
        let url = try IdPAppRequest(parameters: good, callerRedirectURIs: [spRedirect]).url(idpAppURI: idpURI)
        XCTAssertEqual(
            kind(try IdPAppRequest(url: url + "&state=again", idpAppURI: idpURI, callerRedirectURIs: [spRedirect])),
            .malformed)
        XCTAssertEqual(
            kind(try IdPAppRequest(url: url, idpAppURI: "otheridp://authorize", callerRedirectURIs: [spRedirect])),
            .redirectMismatch)
        let comma = try AuthorizationRequest(configuration: testConfiguration([.scope: "openid a,b"])).build()
        XCTAssertEqual(kind(try IdPAppRequest(pending: comma, loginHost: nil, userHint: nil)), .unsupported)
    }

    func testResponsesAreCheckedBySP() throws {
        let pending = try spPending()
        func answer(_ pairs: [(String, String)]) -> TelenoridError.Kind? {
            kind(
                try pending.handleIdPAppResponse(
                    parameters: FormParameters(pairs.map { (name: $0.0, value: $0.1) }), allowedLoginHosts: []))
        }
        XCTAssertEqual(answer([("code", "c"), ("login_host", "id.example.com"), ("state", "other")]), .stateMismatch)
        XCTAssertEqual(
            answer([("code", "c"), ("login_host", "evil.example"), ("state", pending.state)]), .issuerMismatch)
        XCTAssertEqual(answer([("code", "c"), ("state", pending.state)]), .malformed)
        XCTAssertEqual(
            answer([("code", "c"), ("login_host", "id.example.com"), ("state", pending.state), ("code", "d")]),
            .malformed)
        XCTAssertEqual(answer([("error", "access_denied"), ("state", pending.state)]), .authorizationError)
        XCTAssertEqual(
            kind(
                try pending.handleIdPAppResponse(
                    url: "evil://cb?code=c&login_host=id.example.com&state=\(pending.state)", allowedLoginHosts: [])),
            .redirectMismatch)
        XCTAssertFalse(pending.isConsumed, "refused responses leave the request open")
        XCTAssertEqual(
            try pending.handleIdPAppResponse(
                parameters: FormParameters([("code", "c"), ("login_host", "ID.Example.com"), ("state", pending.state)]),
                allowedLoginHosts: []
            ).code, "c")
    }

    func testIdPForwardsProviderErrorsAndChecksTheRedirect() throws {
        let pending = try spPending()
        let request = try IdPAppRequest(pending: pending, loginHost: nil, userHint: nil)
        let error = try request.response(
            fromProviderRedirect: spRedirect + "?error=access_denied&error_description=no&state=\(pending.state)",
            loginHost: "id.example.com")
        XCTAssertEqual(error.result, .error("access_denied", description: "no"))
        XCTAssertEqual(
            kind(
                try request.response(
                    fromProviderRedirect: spRedirect + "?code=c&state=forged", loginHost: "id.example.com")),
            .stateMismatch)
        XCTAssertEqual(
            kind(
                try request.response(
                    fromProviderRedirect: "evil://cb?code=c&state=\(pending.state)", loginHost: "id.example.com")),
            .redirectMismatch)
        XCTAssertEqual(
            kind(try request.authorizationURL(authorizationEndpoint: "http://id.example.com/authorize")), .insecure)
        // RFC 9207: the provider's iss is passed on and checked by the SP.
        let forged = try request.response(
            fromProviderRedirect: spRedirect + "?code=c&state=\(pending.state)&iss=https%3A%2F%2Fevil.example",
            loginHost: "id.example.com")
        XCTAssertEqual(forged.parameters["iss"], "https://evil.example")
        XCTAssertEqual(
            kind(try pending.handleIdPAppResponse(parameters: forged.parameters, allowedLoginHosts: [])),
            .issuerMismatch)
        let genuine = try request.response(
            fromProviderRedirect: spRedirect + "?code=c&state=\(pending.state)&iss=https%3A%2F%2Fid.example.com",
            loginHost: "id.example.com")
        XCTAssertEqual(
            try pending.handleIdPAppResponse(url: genuine.url(redirectURI: spRedirect), allowedLoginHosts: [])
                .parameters["iss"], "https://id.example.com")
        XCTAssertEqual(
            kind(try pending.handleIdPAppResponse(parameters: error.parameters, allowedLoginHosts: [])),
            .authorizationError)
    }

    /// RFC 6749 §3.1: unknown parameters are ignored, as the Salesforce Mobile SDK's SP sends `app_name`;
    /// nothing the library writes afterwards carries them.
    func testUnknownParametersAreIgnoredAndNeverForwarded() throws {
        let pending = try spPending()
        let request = try IdPAppRequest(pending: pending, loginHost: "id.example.com", userHint: nil)
        var bundle = request.parameters
        try bundle.append("app_name", "Example SP")
        let viaBundle = try IdPAppRequest(parameters: bundle, callerRedirectURIs: [spRedirect])
        let viaURL = try IdPAppRequest(
            url: request.url(idpAppURI: idpURI) + "&app_name=x&response_type=token",
            idpAppURI: idpURI, callerRedirectURIs: [spRedirect])
        XCTAssertEqual(viaBundle, request)
        XCTAssertEqual(viaURL, request)
        XCTAssertNil(viaURL.parameters["app_name"])
        let authorize = try viaURL.authorizationURL(authorizationEndpoint: "https://id.example.com/oauth/authorize")
        XCTAssertFalse(authorize.contains("app_name"))
        XCTAssertEqual(try query(of: authorize)["response_type"], "code")

        // The provider's extras (OIDC Session Management's session_state) don't reach the SP either.
        let response = try viaURL.response(
            fromProviderRedirect: spRedirect + "?code=c&state=\(pending.state)&session_state=s",
            loginHost: "id.example.com")
        XCTAssertEqual(response.parameters.pairs.map(\.name), ["code", "login_host", "state"])
        let url = try response.url(redirectURI: spRedirect) + "&app_name=x&access_token=smuggled"
        let callback = try pending.handleIdPAppResponse(url: url, allowedLoginHosts: [])
        XCTAssertEqual(callback.code, "c")
        XCTAssertEqual(callback.parameters.pairs.map(\.name), ["code", "login_host", "state"])
    }

    /// RFC 6749 §3.1.2: a redirect URI may have its own query, which the response keeps.
    func testRedirectURIWithAQueryRoundTrips() throws {
        let redirect = "com.example.sp:/cb?app=x"
        let pending = try AuthorizationRequest(configuration: testConfiguration([.redirectURI: redirect])).build()
        let request = try IdPAppRequest(
            url: IdPAppRequest(pending: pending, loginHost: nil, userHint: nil).url(idpAppURI: idpURI),
            idpAppURI: idpURI, callerRedirectURIs: [redirect])
        XCTAssertEqual(
            try query(of: request.authorizationURL(authorizationEndpoint: "https://id.example.com/oauth/authorize"))[
                "redirect_uri"],
            redirect)
        let response = try request.response(
            fromProviderRedirect: redirect + "&code=c&state=\(pending.state)", loginHost: "id.example.com")
        let url = try response.url(redirectURI: redirect)
        XCTAssertTrue(url.hasPrefix(redirect + "&code=c&"), url)
        // The redirect URI's own pairs must be there unchanged, else it is another redirect URI.
        for elsewhere in ["com.example.sp:/cb?code=c", "com.example.sp:/cb?app=y&code=c"] {
            XCTAssertEqual(
                kind(
                    try request.response(
                        fromProviderRedirect: elsewhere + "&state=\(pending.state)", loginHost: "id.example.com")),
                .redirectMismatch)
            XCTAssertEqual(
                kind(
                    try pending.handleIdPAppResponse(
                        url: elsewhere + "&login_host=id.example.com&state=\(pending.state)",
                        allowedLoginHosts: [])), .redirectMismatch)
        }
        let callback = try pending.handleIdPAppResponse(url: url, allowedLoginHosts: [])
        XCTAssertEqual(callback.code, "c")
        XCTAssertNil(callback.parameters["app"], "the redirect URI's own pairs are not part of the response")
    }
}
