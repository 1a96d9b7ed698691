import XCTest
@testable import TelenoridCore

final class CallbackTests: XCTestCase {
    func pending(_ extra: [ClientConfiguration.Setting: String] = [:], fragment: Bool = false) throws
        -> PendingAuthorization
    {
        var request = AuthorizationRequest(configuration: try testConfiguration(extra))
        if fragment { try request.set(.responseMode, "fragment") }
        return try request.build(state: "218gz18yveu1ybajwh2g1h3g", nonce: "n", pkce: try PKCE())
    }

    func kind(_ body: () throws -> Void) -> TelenoridError.Kind? {
        do { try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    func testValidCallbackGivesTheCodeOnce() throws {
        let p = try pending()
        let response = try p.handleCallback(
            "telenorid-example://authcallback/?code=abc%2Fdef&state=218gz18yveu1ybajwh2g1h3g&scope=openid")
        XCTAssertEqual(response.code, "abc/def")
        XCTAssertEqual(response.parameters["scope"], "openid")
        XCTAssertEqual(
            kind {
                _ = try p.handleCallback("telenorid-example://authcallback/?code=x&state=218gz18yveu1ybajwh2g1h3g")
            }, .consumed)
    }

    func testFragmentResponseMode() throws {
        let p = try pending(fragment: true)
        XCTAssertEqual(
            try p.handleCallback("telenorid-example://authcallback/#code=c&state=218gz18yveu1ybajwh2g1h3g").code, "c")
        let q = try pending(fragment: true)
        XCTAssertEqual(
            kind {
                _ = try q.handleCallback("telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g")
            }, .stateMismatch)
    }

    func testARedirectMismatchNamesBothAddressesButNotWhatTheyCarried() throws {
        let p = try pending([.redirectURI: "http://127.0.0.1:53682/callback"])
        do {
            _ = try p.handleCallback("http://127.0.0.1:53683/callback?code=secret-code&state=218gz18yveu1ybajwh2g1h3g")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.kind, .redirectMismatch)
            XCTAssertEqual(
                error.message,
                "the callback arrived at http://127.0.0.1:53683/callback, not at the configured "
                    + "redirect_uri http://127.0.0.1:53682/callback")
        }
    }

    func testStateMustMatch() throws {
        let p = try pending()
        XCTAssertEqual(
            kind { _ = try p.handleCallback("telenorid-example://authcallback/?code=c&state=other") }, .stateMismatch)
        XCTAssertEqual(kind { _ = try p.handleCallback("telenorid-example://authcallback/?code=c") }, .stateMismatch)
        XCTAssertEqual(
            kind { _ = try p.handleCallback("telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3") },
            .stateMismatch)
        // A forged callback does not burn the request: the real one still goes through.
        XCTAssertEqual(
            try p.handleCallback("telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g").code, "c")
    }

    func testRedirectMustBeTheConfiguredOne() throws {
        let p = try pending()
        for url in [
            "telenorid-example://authcallback?code=c&state=218gz18yveu1ybajwh2g1h3g",
            "telenorid-example://other/?code=c&state=218gz18yveu1ybajwh2g1h3g",
            "evil://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g"
        ] {
            XCTAssertEqual(kind { _ = try p.handleCallback(url) }, .redirectMismatch, url)
        }
        let loopback = try pending([.redirectURI: "http://127.0.0.1:53682/callback"])
        XCTAssertEqual(
            kind {
                _ = try loopback.handleCallback("http://127.0.0.1:53683/callback?code=c&state=218gz18yveu1ybajwh2g1h3g")
            }, .redirectMismatch)
        XCTAssertEqual(
            try loopback.handleCallback("http://127.0.0.1:53682/callback?code=c&state=218gz18yveu1ybajwh2g1h3g").code,
            "c")
    }

    func testErrorResponseBecomesTypedError() throws {
        let p = try pending()
        do {
            _ = try p.handleCallback(
                "telenorid-example://authcallback/?error=access_denied&error_description=User+said+no&error_uri=https%3A%2F%2Fid.example.com%2Fe&state=218gz18yveu1ybajwh2g1h3g"
            )
            XCTFail("an error response must throw")
        } catch {
            XCTAssertEqual(error.kind, .authorizationError)
            XCTAssertEqual(error.oauthError, "access_denied")
            XCTAssertEqual(error.oauthErrorDescription, "User said no")
            XCTAssertEqual(error.oauthErrorURI, "https://id.example.com/e")
        }
        XCTAssertFalse(p.isConsumed)
    }

    func testIssuerParameterIsChecked() throws {
        let p = try pending()
        XCTAssertEqual(
            kind {
                _ = try p.handleCallback(
                    "telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g&iss=https%3A%2F%2Fevil.example"
                )
            }, .issuerMismatch)
        XCTAssertEqual(
            try p.handleCallback(
                "telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g&iss=https%3A%2F%2Fid.example.com"
            ).code, "c")
    }

    func testRepeatedOrMalformedParametersAreRefused() throws {
        let p = try pending()
        XCTAssertEqual(
            kind {
                _ = try p.handleCallback(
                    "telenorid-example://authcallback/?code=c&state=218gz18yveu1ybajwh2g1h3g&code=d")
            }, .malformed)
        XCTAssertEqual(
            kind {
                _ = try p.handleCallback("telenorid-example://authcallback/?code=%zz&state=218gz18yveu1ybajwh2g1h3g")
            }, .malformed)
        XCTAssertEqual(
            kind { _ = try p.handleCallback("telenorid-example://authcallback/?state=218gz18yveu1ybajwh2g1h3g") },
            .malformed)
        XCTAssertEqual(kind { _ = try p.handleCallback("::::") }, .malformed)
    }
}

/// Vipps Login app-to-app's app-to-app callbacks, verbatim where Vipps' documentation gives them.
final class AppToAppCallbackTests: XCTestCase {
    func pending(callback: String, endpoint: String = "https://api.vipps.no/access-management-1.0/access/oauth2/auth")
        throws -> PendingAuthorization
    {
        var request = AuthorizationRequest(configuration: try testConfiguration([.authorizationEndpoint: endpoint]))
        try request.setAppToApp(callbackURI: callback)
        return try request.build(state: "218gz18yveu1ybajwh2g1h3g", nonce: "n", pkce: try PKCE())
    }

    func testSuccessCallbacksFromTheSeed() throws {
        for (configured, url) in [
            (
                "https://example.com/app-callback",
                "https://example.com/app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t"
            ),
            (
                "merchantapp://app-callback",
                "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t"
            )
        ] {
            let callback = try pending(callback: configured).handleAppCallback(url, allowedResumeHost: nil)
            XCTAssertEqual(callback.resumeURI, "https://api.vipps.no/vipps-login-idp/index.html?tabid=fjeiwfje43t")
        }
        // The encoded form, with the trailing slash Vipps' first documented example adds.
        let encoded = try pending(callback: "merchant-app://callback").handleAppCallback(
            "merchant-app://callback/?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https%3A%2F%2Fapi.vipps.no%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607f7f0",
            allowedResumeHost: nil)
        XCTAssertEqual(encoded.resumeURI, "https://api.vipps.no/vipps-login-idp/index.html?tabId=7607f7f0")
        XCTAssertNil(
            try pending(callback: "merchant-app://callback").handleAppCallback(
                "merchant-app://callback?state=218gz18yveu1ybajwh2g1h3g", allowedResumeHost: nil
            ).resumeURI)
    }

    func testErrorCallbacksFromTheSeedIncludingTheMalformedOnes() throws {
        for (configured, url) in [
            (
                "https://example.com/app-callback",
                "https://example.com/app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error"
            ),
            (
                "merchantapp://app-callback",
                "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error"
            ),
            (
                "merchantapp://app-callback",
                "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g&error=unknown_error"
            )
        ] {
            let p = try pending(callback: configured)
            XCTAssertThrowsError(try p.handleAppCallback(url, allowedResumeHost: nil), url) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationError)
                XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "unknown_error")
            }
        }
    }

    func testResumeURIMustBeHTTPSOnTheAllowedHost() throws {
        let p = try pending(callback: "merchantapp://app-callback")
        for resume in [
            "http://api.vipps.no/x", "https://evil.example/x", "https://api.vipps.no.evil.example/x",
            "https://user@api.vipps.no/x", "javascript:alert(1)"
        ] {
            let url =
                "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=" + PercentEncoding.encode(resume)
            XCTAssertThrowsError(try p.handleAppCallback(url, allowedResumeHost: nil), resume)
        }
        let url = "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https%3A%2F%2Flogin.example%2Fr"
        XCTAssertEqual(
            try p.handleAppCallback(url, allowedResumeHost: "login.example").resumeURI, "https://login.example/r")
    }

    func testStateAndTargetAreChecked() throws {
        let p = try pending(callback: "merchantapp://app-callback")
        XCTAssertThrowsError(
            try p.handleAppCallback(
                "merchantapp://app-callback?state=nope&resume_uri=https%3A%2F%2Fapi.vipps.no%2F", allowedResumeHost: nil
            )
        ) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .stateMismatch)
        }
        XCTAssertThrowsError(
            try p.handleAppCallback("otherapp://app-callback?state=218gz18yveu1ybajwh2g1h3g", allowedResumeHost: nil)
        ) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .redirectMismatch)
        }
        let plain = try AuthorizationRequest(configuration: try testConfiguration()).build()
        XCTAssertThrowsError(try plain.handleAppCallback("merchantapp://app-callback?state=x", allowedResumeHost: nil))
        {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
        }
        // The app callback does not consume the request: the code still comes to the redirect URI.
        _ = try p.handleAppCallback("merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g", allowedResumeHost: nil)
        XCTAssertFalse(p.isConsumed)
    }
}
