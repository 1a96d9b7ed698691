import XCTest
@testable import TelenoridCore

/// The shared in-memory provider checking DPoP proofs (RFC 9449 §4.3), with the answers these flows need:
/// a new DPoP-bound access token at each token request, claims at userinfo, a request URI from the PAR
/// endpoint, and revocation.
private func dpopProvider() -> MemoryProvider {
    let provider = MemoryProvider(issuer: "https://as.example.com", discovery: false, checksDPoPProofs: true)
    provider.answer(.token) { number in
        MemoryProvider.json(
            200, #"{"access_token":"at-\#(number)","token_type":"DPoP","expires_in":300,"refresh_token":"rt"}"#)
    }
    provider.answer(.userinfo, status: 200, body: #"{"sub":"alice"}"#)
    provider.answer(
        .par, status: 201, body: #"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":60}"#)
    provider.answer(.revocation) { _ in HTTPResponse(status: 200, headers: [], body: []) }
    return provider
}

final class DPoPFlowTests: XCTestCase {
    private func client(
        _ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [.dpopSigningAlgorithm: "ES256"]
    ) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "native-app"
        settings[.redirectURI] = "com.example.app:/cb"
        // No openid: these flows are about tokens, not ID tokens.
        settings[.scope] = "api"
        for (name, path) in [
            (ClientConfiguration.Setting.authorizationEndpoint, "/authorize"), (.tokenEndpoint, "/token"),
            (.userinfoEndpoint, "/userinfo"), (.revocationEndpoint, "/revoke"),
            (.pushedAuthorizationRequestEndpoint, "/par")
        ] {
            settings[name] = provider.issuer + path
        }
        for (setting, value) in extra { settings[setting] = value }
        return try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
    }

    private func signIn(_ client: OIDCClient) throws -> AuthState {
        let pending = try AuthorizationRequest(configuration: client.configuration).build()
        return try client.exchangeCode(
            try pending.handleCallback("com.example.app:/cb?code=c0de&state=\(pending.state)"))
    }

    private func kind(_ body: () throws -> Void) -> TelenoridError.Kind? {
        do { try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    func testTheCodeExchangeProvesPossessionAndTheTokensAreBoundToTheKey() throws {
        let provider = dpopProvider()
        let state = try signIn(try client(provider))
        let proof = try XCTUnwrap((try provider.last).proof)
        XCTAssertEqual(proof.claims["htm"]?.stringValue, "POST")
        XCTAssertEqual(proof.claims["htu"]?.stringValue, provider.issuer + "/token")
        XCTAssertNil(proof.claims["ath"], "no access token is presented to the token endpoint")
        XCTAssertEqual(proof.header["alg"]?.stringValue, "ES256")
        let tokens = try XCTUnwrap(state.tokens)
        XCTAssertTrue(tokens.isDPoPBound)
        XCTAssertEqual(
            try JWKThumbprint.sha256(of: try XCTUnwrap(proof.header["jwk"]?.objectValue)), tokens.dpopSigner?.thumbprint
        )
        XCTAssertEqual(tokens.authorization.string, "DPoP " + tokens.accessToken.string)
    }

    func testEachSignInHasItsOwnKey() throws {
        let client = try client(dpopProvider())
        XCTAssertNotEqual(
            try signIn(client).tokens?.dpopSigner?.thumbprint, try signIn(client).tokens?.dpopSigner?.thumbprint)
    }

    func testRefreshUserinfoAndRevocationCarryProofsByTheSameKey() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        let state = try signIn(client)
        let thumbprint = try XCTUnwrap(state.tokens?.dpopSigner?.thumbprint)
        func proofKey() throws -> String {
            try JWKThumbprint.sha256(of: try XCTUnwrap((try provider.last).proof?.header["jwk"]?.objectValue))
        }

        _ = try state.forceRefresh()
        XCTAssertEqual(try proofKey(), thumbprint)
        XCTAssertTrue(try XCTUnwrap(state.tokens).isDPoPBound)

        let authState = ClientAuthState(state: state, client: client)
        XCTAssertEqual(try authState.userinfo()["sub"]?.stringValue, "alice")
        let userinfo = (try provider.last)
        XCTAssertEqual(userinfo.request.authorization?.string, "DPoP " + (state.tokens?.accessToken.string ?? ""))
        XCTAssertEqual(userinfo.proof?.claims["htm"]?.stringValue, "GET")
        XCTAssertEqual(
            userinfo.proof?.claims["ath"]?.stringValue,
            DPoPProof.accessTokenHash(try XCTUnwrap(state.tokens?.accessToken)))
        XCTAssertEqual(try proofKey(), thumbprint)

        try state.revoke()
        XCTAssertEqual((try provider.last).request.url, provider.issuer + "/revoke")
        XCTAssertEqual(try proofKey(), thumbprint)
    }

    /// RFC 8707 §2.2: the resources of the authorization request go to the code exchange and to every
    /// refresh, also after the auth state was saved and restored.
    func testTheResourcesAreAskedForAgainAtEachRefresh() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        var request = AuthorizationRequest(configuration: client.configuration)
        try request.addResource("https://api.example.com/payments")
        try request.addResource("https://api.example.com/accounts")
        let pending = try request.build()
        let state = try client.exchangeCode(
            try pending.handleCallback("com.example.app:/cb?code=c0de&state=\(pending.state)"))
        func resources() throws -> [String] {
            // Split by hand: the library's form parser refuses a repeated name, as RFC 6749 §3.1 has it do.
            try XCTUnwrap((try provider.last).request.body).string.split(separator: "&").filter {
                $0.hasPrefix("resource=")
            }
            .map {
                PercentEncoding.decode(ArraySlice($0.dropFirst("resource=".count).utf8), plusIsSpace: true) ?? ""
            }
        }
        let expected = ["https://api.example.com/payments", "https://api.example.com/accounts"]
        XCTAssertEqual(try resources(), expected)
        _ = try state.forceRefresh()
        XCTAssertEqual(try resources(), expected)
        let restored = try client.restoreAuthState(state.serialized())
        _ = try restored.forceRefresh()
        XCTAssertEqual(try resources(), expected)
        XCTAssertEqual(restored.tokens?.resources, expected)

        _ = try signIn(client).forceRefresh()  // none asked for, none sent
        XCTAssertEqual(try resources(), [])
    }

    func testABearerAnswerToAProofIsRefusedUnlessAllowed() throws {
        let bearer = #"{"access_token":"at","token_type":"bearer","expires_in":300}"#
        let provider = dpopProvider()
        provider.queue(.token, responses: [MemoryProvider.json(200, bearer)])
        XCTAssertEqual(kind { _ = try self.signIn(try self.client(provider)) }, .invalidResponse)

        provider.queue(.token, responses: [MemoryProvider.json(200, bearer)])
        let allowed = try signIn(try client(provider, [.dpopSigningAlgorithm: "ES256", .allowBearerDowngrade: "true"]))
        XCTAssertEqual(allowed.tokens?.authorization.string, "Bearer at")
        // A Bearer token goes to a resource without a proof.
        _ = try ClientAuthState(state: allowed, client: try client(provider)).userinfo()
        XCTAssertNil((try provider.last).proof)
    }

    func testADPoPTokenWithoutAKeyIsRefused() throws {
        let provider = dpopProvider()
        XCTAssertEqual(kind { _ = try self.signIn(try self.client(provider, [:])) }, .invalidResponse)
        XCTAssertNil((try provider.last).proof)
    }

    func testTheTokenEndpointsNonceIsUsedOnceAskedAndRemembered() throws {
        let provider = dpopProvider()
        provider.queue(
            .token,
            responses: [
                MemoryProvider.json(400, #"{"error":"use_dpop_nonce"}"#, [("DPoP-Nonce", "eyJ7S_zG.eyJH0-Z.HX4w-7v")])
            ])
        let state = try signIn(try client(provider))
        XCTAssertEqual(provider.count, 2)
        XCTAssertEqual((try provider.last).proof?.claims["nonce"]?.stringValue, "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        _ = try state.forceRefresh()
        XCTAssertEqual(provider.count, 3, "the remembered nonce needs no second round trip")
        XCTAssertEqual((try provider.last).proof?.claims["nonce"]?.stringValue, "eyJ7S_zG.eyJH0-Z.HX4w-7v")
    }

    func testAServerAskingForANonceAgainIsAnErrorNotALoop() throws {
        let provider = dpopProvider()
        let again = MemoryProvider.json(400, #"{"error":"use_dpop_nonce"}"#, [("DPoP-Nonce", "n1")])
        provider.queue(.token, responses: [again, again, again])
        do {
            _ = try signIn(try client(provider))
            XCTFail("signed in")
        } catch let error as TelenoridError {
            XCTAssertEqual(error.kind, .authorizationError)
            XCTAssertEqual(error.oauthError, "use_dpop_nonce")
            XCTAssertEqual(error.httpStatus, 400)
        }
        XCTAssertEqual(provider.count, 2)

        // Asking without giving a nonce: nothing to retry with.
        let bare = dpopProvider()
        bare.queue(.token, responses: [MemoryProvider.json(400, #"{"error":"use_dpop_nonce"}"#)])
        XCTAssertEqual(kind { _ = try self.signIn(try self.client(bare)) }, .authorizationError)
        XCTAssertEqual(bare.count, 1)
    }

    func testAResourcesNonceChallengeIsAnsweredOnce() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        let state = try signIn(client)
        provider.queue(
            .userinfo,
            responses: [
                HTTPResponse(
                    status: 401,
                    headers: [
                        (
                            "www-authenticate",
                            #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
                        ),
                        ("dpop-nonce", "rs-nonce")
                    ], body: [])
            ])
        XCTAssertEqual(try ClientAuthState(state: state, client: client).userinfo()["sub"]?.stringValue, "alice")
        XCTAssertEqual((try provider.last).proof?.claims["nonce"]?.stringValue, "rs-nonce")
    }

    func testAHostGetsBothHeadersForItsOwnRequests() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        let authState = ClientAuthState(state: try signIn(client), client: client)
        let url = "https://api.example.com/accounts?id=7#top"
        let first = try authState.requestHeaders(method: "GET", url: url, resourceNonce: nil)
        XCTAssertEqual(first.authorization.string, "DPoP " + (authState.state.tokens?.accessToken.string ?? ""))
        let proof = try MemoryProvider.verifiedProof(try XCTUnwrap(first.dpop))
        XCTAssertEqual(proof.claims["htu"]?.stringValue, "https://api.example.com/accounts")
        XCTAssertEqual(proof.claims["htm"]?.stringValue, "GET")
        XCTAssertNotNil(proof.claims["ath"])
        XCTAssertNil(proof.claims["nonce"])

        // The resource asked for a nonce: the retry's proof carries it, and so do later ones to that server.
        let retry = try authState.requestHeaders(method: "GET", url: url, resourceNonce: " rs-1 ")
        XCTAssertEqual(try MemoryProvider.verifiedProof(try XCTUnwrap(retry.dpop)).claims["nonce"]?.stringValue, "rs-1")
        let later = try authState.requestHeaders(
            method: "POST", url: "https://api.example.com/payments", resourceNonce: nil)
        XCTAssertEqual(try MemoryProvider.verifiedProof(try XCTUnwrap(later.dpop)).claims["nonce"]?.stringValue, "rs-1")
        XCTAssertEqual(
            kind { _ = try authState.requestHeaders(method: "GET", url: url, resourceNonce: "bad nonce") },
            .invalidArgument)
        XCTAssertEqual(
            kind { _ = try authState.requestHeaders(method: "G T", url: url, resourceNonce: nil) }, .invalidArgument)
    }

    /// The host's own resource calls: what each answer means for the one retry (RFC 9449 §9, RFC 6750 §3.1).
    func testAResourcesAnswerSaysWhetherToRetryOnce() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        let authState = ClientAuthState(state: try signIn(client), client: client)
        let url = "https://api.example.com/accounts"
        try ResourceAnswerScript(
            requestHeaders: { try authState.requestHeaders(method: "GET", url: url, resourceNonce: nil) },
            resourceAnswered: {
                authState.resourceAnswered(
                    url: url, status: $0, wwwAuthenticate: $1, dpopNonce: $2, authorizationSent: $3)
            },
            tokensGiven: { provider.count }
        ).run()
    }

    func testTheKeyIsSavedAndRestoredWithTheAuthState() throws {
        let provider = dpopProvider()
        let client = try client(provider)
        let state = try signIn(client)
        let text = state.serialized()
        // The key's own document, as it serializes itself, is the state's dpop_key member.
        guard case .key(let key)? = state.tokens?.dpopSigner else { return XCTFail("no library-held DPoP key") }
        XCTAssertTrue(text.string.contains(",\"dpop_key\":\(try key.serialized().string)"))
        let restored = try client.restoreAuthState(text)
        XCTAssertEqual(restored.tokens?.dpopSigner?.thumbprint, state.tokens?.dpopSigner?.thumbprint)
        XCTAssertEqual(restored.serialized().bytes, text.bytes)
        _ = try restored.forceRefresh()
        XCTAssertEqual(
            try JWKThumbprint.sha256(of: try XCTUnwrap((try provider.last).proof?.header["jwk"]?.objectValue)),
            state.tokens?.dpopSigner?.thumbprint)
    }

    func testTokensBoundToAHostKeyAreRestoredOnlyWithThatKey() throws {
        let held = try DPoPKey.generate()
        let signer = try HostKeySigner(algorithm: "ES256", publicJWK: held.publicJWK) { input throws(TelenoridError) in
            try JWS.signature(over: String(decoding: input, as: UTF8.self), key: held.privateKey)
        }
        let provider = dpopProvider()
        let client = try client(provider, [:])
        try client.setDPoPSigner(signer)
        let state = try signIn(client)
        XCTAssertEqual(state.tokens?.dpopSigner?.thumbprint, held.thumbprint)
        let text = state.serialized()
        XCTAssertFalse(text.string.contains("\"d\""), "a host key's private part is never the library's to save")

        let other = try self.client(provider, [:])
        XCTAssertEqual(kind { _ = try other.restoreAuthState(text) }, .configuration)
        try other.setDPoPSigner(signer)
        XCTAssertEqual(try other.restoreAuthState(text).tokens?.dpopSigner?.thumbprint, held.thumbprint)
    }

    func testDPoPJKTBindsTheCodeToTheKeyTheExchangeProves() throws {
        let provider = dpopProvider()
        let client = try client(provider, [.dpopSigningAlgorithm: "EdDSA", .dpopBindAuthorizationCode: "true"])
        let pending = try AuthorizationRequest(configuration: client.configuration).build()
        let jkt = try XCTUnwrap(
            try FormParameters(parsing: (try URI(parsing: pending.url).query ?? "")[...])["dpop_jkt"])
        // Saved while the browser is open and restored: the key comes back with it. It is the document's
        // dpop_key member as the key serializes itself, spliced in without a String.
        let saved = pending.serialized()
        guard case .key(let key)? = pending.dpopSigner else { return XCTFail("no library-held DPoP key") }
        XCTAssertTrue(saved.string.contains(",\"dpop_key\":\(try key.serialized().string)"))
        let restored = try PendingAuthorization(restoring: saved, configuration: client.configuration)
        XCTAssertEqual(restored.serialized().bytes, saved.bytes)
        let state = try client.exchangeCode(
            try restored.handleCallback("com.example.app:/cb?code=c&state=\(pending.state)"))
        XCTAssertEqual(
            try JWKThumbprint.sha256(of: try XCTUnwrap((try provider.last).proof?.header["jwk"]?.objectValue)), jkt)
        XCTAssertEqual(state.tokens?.dpopSigner?.thumbprint, jkt)
    }

    func testAPushCarriesAProofByTheKeyTheExchangeProves() throws {
        let provider = dpopProvider()
        let client = try client(provider, [.dpopSigningAlgorithm: "ES256", .pushAuthorizationRequests: "true"])
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        let push = (try provider.last)
        XCTAssertEqual(push.request.url, provider.issuer + "/par")
        XCTAssertEqual(push.proof?.claims["htu"]?.stringValue, provider.issuer + "/par")
        let pushKey = try JWKThumbprint.sha256(of: try XCTUnwrap(push.proof?.header["jwk"]?.objectValue))
        _ = try client.exchangeCode(try pending.handleCallback("com.example.app:/cb?code=c&state=\(pending.state)"))
        XCTAssertEqual(
            try JWKThumbprint.sha256(of: try XCTUnwrap((try provider.last).proof?.header["jwk"]?.objectValue)), pushKey)
    }

    /// A token goes only where the library itself would send one (RFC 6750 §5.3): https, or http on a
    /// loopback host, without user info. Bearer and DPoP alike.
    func testRequestHeadersAreRefusedForAURLTheLibraryWouldNotSendTo() throws {
        for bearer in [true, false] {
            let provider = bearer ? MemoryProvider(issuer: "https://as.example.com", discovery: false) : dpopProvider()
            if bearer {
                provider.answer(
                    .token, status: 200, body: #"{"access_token":"at","token_type":"Bearer","expires_in":300}"#)
            }
            let client = try client(provider, bearer ? [:] : [.dpopSigningAlgorithm: "ES256"])
            let authState = ClientAuthState(state: try signIn(client), client: client)
            for url in ["http://api.example.com/data", "ftp://api.example.com/data", "https://me@api.example.com/"] {
                XCTAssertThrowsError(try authState.requestHeaders(method: "GET", url: url, resourceNonce: nil), url) {
                    XCTAssertEqual(($0 as? TelenoridError)?.kind, .insecure, url)
                    XCTAssertTrue(($0 as? TelenoridError)?.message.contains("api.example.com") == true, url)
                }
            }
            XCTAssertThrowsError(
                try authState.requestHeaders(method: "GET", url: "http://api.example.com/data", resourceNonce: nil)
            ) { XCTAssertTrue(($0 as? TelenoridError)?.message.contains("http://api.example.com/data") == true) }
            XCTAssertEqual(
                kind { _ = try authState.requestHeaders(method: "GET", url: "not a URL", resourceNonce: nil) },
                .invalidArgument)
            for url in [
                "https://api.example.com/data", "http://127.0.0.1:8080/data", "http://localhost/", "http://[::1]/"
            ] {
                let headers = try authState.requestHeaders(method: "GET", url: url, resourceNonce: nil)
                XCTAssertEqual(headers.dpop == nil, bearer, url)
            }
        }
    }
}
