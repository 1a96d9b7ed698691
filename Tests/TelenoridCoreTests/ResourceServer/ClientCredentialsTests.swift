import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// The client credentials grant (RFC 6749 §4.4) against the in-memory provider, whose token endpoint hands
/// out a new access token (cc-N, N the request's number) valid for 300 s each time it is asked.
final class ClientCredentialsTests: XCTestCase {
    private let time = TestClock()

    private func client(_ provider: MemoryProvider, _ extra: [ClientConfiguration.Setting: String] = [:]) throws
        -> OIDCClient
    {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "machine"
        settings[.clientSecret] = "machine-secret"
        for (setting, value) in extra { settings[setting] = value }
        if extra[.clientAuthMethod] == "none" { settings[.clientSecret] = nil }
        return try OIDCClient(
            configuration: try ClientConfiguration(settings), transport: provider,
            clock: { [time] in time.now.load(ordering: .relaxed) })
    }

    private func provider() -> MemoryProvider {
        let provider = MemoryProvider()
        provider.answer(.token) { number in
            MemoryProvider.json(200, #"{"access_token":"cc-\#(number)","token_type":"Bearer","expires_in":300}"#)
        }
        return provider
    }

    private var tokenRequests: (MemoryProvider) -> Int { { $0.requests(to: .token).count } }

    func testTheGrantIsAskedOnceAndRenewedWithinTheRefreshMargin() throws {
        let provider = provider()
        let machine = try ClientCredentials(
            client: try client(provider), scope: "read write", resources: ["https://api.example/"])
        XCTAssertNil(machine.expiresAt)
        let first = try machine.freshTokens()
        XCTAssertTrue(first.accessToken.string.hasPrefix("cc-"))
        XCTAssertEqual(machine.expiresAt, time.now.load(ordering: .relaxed) + 300)
        let form = try provider.lastForm(to: .token)
        XCTAssertEqual(form.pairs.map { $0.name }, ["grant_type", "scope", "resource"])
        XCTAssertEqual(form["grant_type"], "client_credentials")
        XCTAssertEqual(form["scope"], "read write")
        XCTAssertEqual(form["resource"], "https://api.example/")
        XCTAssertNotNil(
            provider.requests(to: .token).last?.authorization, "client_secret_basic (§4.4.2: MUST authenticate)")

        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        time.now.add(239, ordering: .relaxed)  // 61 s left: outside the default margin of 60 s
        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        XCTAssertEqual(tokenRequests(provider), 1)
        time.now.add(1, ordering: .relaxed)  // 60 s left: renewed
        XCTAssertNotEqual(try machine.freshTokens().accessToken.string, first.accessToken.string)
        XCTAssertEqual(tokenRequests(provider), 2)
    }

    func testARefusedTokenIsReplacedOnce() throws {
        let provider = provider()
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        let first = try machine.freshTokens().accessToken
        XCTAssertNil(try provider.lastForm(to: .token)["scope"], "no scope: the provider's default")
        machine.accessTokenRejected(SecretBytes(Array("a token it does not hold".utf8)))
        XCTAssertEqual(try machine.freshTokens().accessToken.string, first.string)
        machine.accessTokenRejected(first)
        let second = try machine.freshTokens().accessToken
        XCTAssertNotEqual(second.string, first.string)
        machine.accessTokenRejected(first)  // a late report about the old one changes nothing
        XCTAssertEqual(try machine.freshTokens().accessToken.string, second.string)
        machine.accessTokenRejected(nil)
        XCTAssertNotEqual(try machine.freshTokens().accessToken.string, second.string)
    }

    func testThreadsThatNeedATokenAtOnceShareOneRequest() throws {
        let provider = provider()
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        let tokens = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if let token = try? machine.freshTokens().accessToken.string { tokens.withLock { $0.append(token) } }
        }
        XCTAssertEqual(Set(tokens.withLock { $0 }).count, 1)
        XCTAssertEqual(tokens.withLock { $0.count }, 16)
        XCTAssertEqual(tokenRequests(provider), 1)
    }

    func testPublicClientsAndRefusalsAreReported() throws {
        let provider = MemoryProvider()
        XCTAssertThrowsError(
            try ClientCredentials(client: try client(provider, [.clientAuthMethod: "none"]), scope: nil)
        ) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration) }
        XCTAssertThrowsError(try ClientCredentials(client: try client(provider), scope: "")) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
        provider.answer(.token, status: 400, body: #"{"error":"invalid_scope"}"#)
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        XCTAssertThrowsError(try machine.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .authorizationError)
            XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "invalid_scope")
        }
        XCTAssertNil(machine.expiresAt)
        provider.answer(
            .token, status: 200,
            body: #"{"access_token":"no-expiry","token_type":"Bearer","id_token":"x.y.z","refresh_token":"r"}"#)
        let kept = try machine.freshTokens()
        XCTAssertNil(kept.idToken, "nothing validated it: not kept")
        XCTAssertNil(kept.refreshToken)
        XCTAssertNil(machine.expiresAt)
    }

    func testResourcesAreCheckedAndANewOneDropsTheHeldToken() throws {
        let provider = provider()
        let machine = try ClientCredentials(client: try client(provider), scope: nil)
        let first = try machine.freshTokens().accessToken
        XCTAssertNil(try provider.lastForm(to: .token)["resource"])
        try machine.addResource("https://api.example/")
        for bad in ["not a uri", "https://api.example/#f", "https://api.example/"] {
            XCTAssertThrowsError(try machine.addResource(bad), bad) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
            }
        }
        try machine.addResource("urn:example:second")
        XCTAssertNotEqual(try machine.freshTokens().accessToken.string, first.string, "asked for without them")
        // The form repeats `resource` (RFC 8707 §2), which FormParameters(parsing:) refuses: read it by hand.
        let body = try XCTUnwrap(provider.requests(to: .token).last?.body).string
        let resources = body.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.first == "resource" ? String(parts[1]).removingPercentEncoding : nil
        }
        XCTAssertEqual(resources, ["https://api.example/", "urn:example:second"])
        XCTAssertThrowsError(try ClientCredentials(client: try client(provider), scope: nil, resources: ["x#y"]))
    }

    /// RFC 9449 §5: a client configured for DPoP proves possession at the token endpoint; the DPoP token is
    /// kept with its key, which signs every renewal and every resource request's proof.
    func testAClientConfiguredForDPoPGetsBoundTokensAndProofs() throws {
        let provider = MemoryProvider()
        provider.answer(.token) { number in
            MemoryProvider.json(200, #"{"access_token":"dpop-\#(number)","token_type":"DPoP","expires_in":300}"#)
        }
        let machine = try ClientCredentials(
            client: try client(provider, [.dpopSigningAlgorithm: "ES256"]), scope: nil)
        let tokens = try machine.freshTokens()
        XCTAssertTrue(tokens.isDPoPBound)
        let first = try XCTUnwrap(provider.requests(to: .token).last?.headers.first { $0.name == "DPoP" }?.value)
        let thumbprint = try XCTUnwrap(tokens.dpopSigner?.thumbprint)
        let (header, _) = try MemoryProvider.verifiedProof(first)
        XCTAssertEqual(try JWKThumbprint.sha256(of: try XCTUnwrap(header["jwk"]?.objectValue)), thumbprint)

        let headers = try machine.requestHeaders(
            method: "GET", url: "https://api.example/items?x=1", resourceNonce: nil)
        XCTAssertEqual(headers.authorization.string, "DPoP " + tokens.accessToken.string)
        let proof = try MemoryProvider.verifiedProof(try XCTUnwrap(headers.dpop))
        XCTAssertEqual(proof.claims["htu"]?.stringValue, "https://api.example/items")
        XCTAssertEqual(proof.claims["ath"]?.stringValue, DPoPProof.accessTokenHash(tokens.accessToken))
        XCTAssertEqual(try JWKThumbprint.sha256(of: try XCTUnwrap(proof.header["jwk"]?.objectValue)), thumbprint)

        machine.accessTokenRejected(nil)
        XCTAssertEqual(try machine.freshTokens().dpopSigner?.thumbprint, thumbprint, "the renewal uses the same key")
        XCTAssertEqual(provider.requests(to: .token).count, 2)
        XCTAssertThrowsError(try machine.requestHeaders(method: "GET", url: "http://api.example/", resourceNonce: nil))
        {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .insecure)
        }
    }

    /// The machine's own resource calls read the answer as an auth state's do (RFC 9449 §9, RFC 6750 §3.1):
    /// a nonce is kept, a refused token is replaced before the one retry, anything else is the answer.
    func testAResourcesAnswerSaysWhetherToRetryOnce() throws {
        let provider = MemoryProvider()
        provider.answer(.token) { number in
            MemoryProvider.json(200, #"{"access_token":"dpop-\#(number)","token_type":"DPoP","expires_in":300}"#)
        }
        let machine = try ClientCredentials(client: try client(provider, [.dpopSigningAlgorithm: "ES256"]), scope: nil)
        let url = "https://api.example/items"
        try ResourceAnswerScript(
            requestHeaders: { try machine.requestHeaders(method: "GET", url: url, resourceNonce: nil) },
            resourceAnswered: {
                machine.resourceAnswered(
                    url: url, status: $0, wwwAuthenticate: $1, dpopNonce: $2, authorizationSent: $3)
            },
            tokensGiven: { self.tokenRequests(provider) }
        ).run()
    }

    func testABearerAnswerToAProofIsRefusedUnlessDowngradeIsAllowed() throws {
        let provider = provider()  // token_type Bearer
        let machine = try ClientCredentials(client: try client(provider, [.dpopSigningAlgorithm: "ES256"]), scope: nil)
        XCTAssertThrowsError(try machine.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidResponse)
        }
        let allowed = try ClientCredentials(
            client: try client(provider, [.dpopSigningAlgorithm: "ES256", .allowBearerDowngrade: "true"]), scope: nil)
        let headers = try allowed.requestHeaders(method: "GET", url: "https://api.example/", resourceNonce: nil)
        XCTAssertTrue(headers.authorization.string.hasPrefix("Bearer cc-"))
        XCTAssertNil(headers.dpop)
    }

    /// RFC 7523 §2.1 with the library's own assertion (§3): iss the client, sub the subject, aud the issuer,
    /// a short exp and a new jti each time, signed with the client's key.
    func testTheJWTBearerGrantSignsANewAssertionForEachRequest() throws {
        let provider = provider()
        let client = try client(provider, [.clientPrivateKey: RequestObjectTests.ecPrivate])
        let machine = try ClientCredentials(client: client, grant: .signedAssertion(subject: "alice"), scope: "read")
        _ = try machine.freshTokens()
        machine.accessTokenRejected(nil)
        _ = try machine.freshTokens()
        var identifiers: [String] = []
        for request in provider.requests(to: .token) {
            let form = try FormParameters(parsing: try XCTUnwrap(request.body).string[...])
            XCTAssertEqual(form["grant_type"], "urn:ietf:params:oauth:grant-type:jwt-bearer")
            XCTAssertEqual(form["scope"], "read")
            let jws = try JWS(compact: try XCTUnwrap(form["assertion"]))
            try jws.verify(with: try JWK(try XCTUnwrap(try JSON.parse(RequestObjectTests.ecPublic).objectValue)))
            XCTAssertEqual(jws.header["kid"]?.stringValue, "ec-1")
            let claims = try XCTUnwrap(try JSON.parse(jws.payload).objectValue)
            XCTAssertEqual(claims["iss"]?.stringValue, "machine")
            XCTAssertEqual(claims["sub"]?.stringValue, "alice")
            XCTAssertEqual(claims["aud"]?.stringValue, provider.issuer)
            let now = time.now.load(ordering: .relaxed)
            XCTAssertEqual(claims["exp"]?.int64Value, now + 60)
            identifiers.append(try XCTUnwrap(claims["jti"]?.stringValue))
        }
        XCTAssertEqual(identifiers.count, 2)
        XCTAssertEqual(Set(identifiers).count, 2, "a new jti for each request (RFC 7523 §3)")
        // A client that authenticates with its secret still signs the grant's assertions with its key.
        let basic = try self.client(
            provider, [.clientPrivateKey: RequestObjectTests.ecPrivate, .clientAuthMethod: "client_secret_basic"])
        XCTAssertNil(basic.configuration.clientPrivateKey, "its own authentication does not read the key")
        _ = try ClientCredentials(client: basic, grant: .signedAssertion(subject: "alice"), scope: nil).freshTokens()
        let assertion = try XCTUnwrap(try provider.lastForm(to: .token)["assertion"])
        try JWS(compact: assertion).verify(
            with: try JWK(try XCTUnwrap(try JSON.parse(RequestObjectTests.ecPublic).objectValue)))
        XCTAssertNotNil(provider.requests(to: .token).last?.authorization, "client_secret_basic")
        XCTAssertThrowsError(
            try ClientCredentials(client: try self.client(provider), grant: .signedAssertion(subject: "a"), scope: nil)
        ) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration, "no key to sign with") }
        XCTAssertThrowsError(try ClientCredentials(client: client, grant: .signedAssertion(subject: ""), scope: nil)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
    }

    func testAGivenAssertionIsSentOnceAndMayComeFromAPublicClient() throws {
        let provider = provider()
        let client = try client(provider, [.clientAuthMethod: "none"])
        let assertion = SecretBytes(Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln".utf8))
        let machine = try ClientCredentials(client: client, grant: .givenAssertion(assertion), scope: nil)
        let token = try machine.freshTokens().accessToken
        let form = try provider.lastForm(to: .token)
        XCTAssertEqual(form["assertion"], assertion.string)
        XCTAssertEqual(form["client_id"], "machine")
        XCTAssertEqual(try machine.freshTokens().accessToken.string, token.string)
        machine.accessTokenRejected(nil)
        XCTAssertThrowsError(try machine.freshTokens()) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .consumed) }
        XCTAssertEqual(tokenRequests(provider), 1)
        XCTAssertThrowsError(try machine.bind(to: try AuthStateFile(path: NSTemporaryDirectory() + "/unused.json"))) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(
            try ClientCredentials(client: client, grant: .givenAssertion(SecretBytes(Array("a b".utf8))), scope: nil))
    }

    /// Two holders of the same grant bound to one record share one token request; a holder of another scope
    /// neither takes that token up nor is taken up by it, and replaces the record.
    func testHoldersBoundToOneRecordShareATokenOfTheirGrant() throws {
        let provider = provider()
        let directory = NSTemporaryDirectory() + "/machine-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/machine.json"
        func bound(_ scope: String?) throws -> ClientCredentials {
            let machine = try ClientCredentials(client: try client(provider), scope: scope)
            try machine.bind(to: try AuthStateFile(path: path))
            return machine
        }
        let first = try bound("read"), second = try bound("read")
        let token = try first.freshTokens().accessToken.string
        XCTAssertEqual(try second.freshTokens().accessToken.string, token)
        XCTAssertEqual(tokenRequests(provider), 1)
        let stored = try XCTUnwrap(try AuthStateFile(path: path).load())
        XCTAssertNil(try AuthState.tokens(fromSerialized: stored).tokens?.refreshToken)
        XCTAssertEqual(try AuthState.machineGrant(ofSerialized: stored), #"["client_credentials","read"]"#)

        let other = try bound("write")
        XCTAssertNotEqual(try other.freshTokens().accessToken.string, token)
        XCTAssertEqual(tokenRequests(provider), 2)
        // The record is now the other scope's: a refused token sends `first` to the provider, not to it.
        first.accessTokenRejected(nil)
        let renewed = try first.freshTokens().accessToken.string
        XCTAssertNotEqual(renewed, token)
        XCTAssertEqual(tokenRequests(provider), 3)
        // `second` still holds the old token in memory; refused, it takes up the one `first` stored.
        second.accessTokenRejected(nil)
        XCTAssertEqual(try second.freshTokens().accessToken.string, renewed)
        XCTAssertEqual(tokenRequests(provider), 3)
    }

    /// A token endpoint that asks for a DPoP nonce (RFC 9449 §8) gets the request again with it, and with a new
    /// assertion: the first one's `jti` is spent (RFC 7523 §3).
    func testADPoPNonceRetrySendsANewAssertion() throws {
        let provider = MemoryProvider()
        provider.queue(
            .token,
            responses: [
                MemoryProvider.json(400, #"{"error":"use_dpop_nonce"}"#, [(name: "DPoP-Nonce", value: "n-1")])
            ])
        provider.answer(.token) { number in
            MemoryProvider.json(200, #"{"access_token":"dpop-\#(number)","token_type":"DPoP","expires_in":300}"#)
        }
        let client = try client(
            provider, [.clientPrivateKey: RequestObjectTests.ecPrivate, .dpopSigningAlgorithm: "ES256"])
        let machine = try ClientCredentials(client: client, grant: .signedAssertion(subject: "alice"), scope: nil)
        XCTAssertTrue(try machine.freshTokens().isDPoPBound)
        let requests = provider.requests(to: .token)
        XCTAssertEqual(requests.count, 2)
        let identifiers = try requests.map { request -> String in
            let form = try FormParameters(parsing: try XCTUnwrap(request.body).string[...])
            let jws = try JWS(compact: try XCTUnwrap(form["assertion"]))
            return try XCTUnwrap(try JSON.parse(jws.payload).objectValue?["jti"]?.stringValue)
        }
        XCTAssertNotEqual(identifiers[0], identifiers[1])
        let retried = try XCTUnwrap(requests[1].headers.first { $0.name == "DPoP" }?.value)
        XCTAssertEqual(try MemoryProvider.verifiedProof(retried).claims["nonce"]?.stringValue, "n-1")
    }
}
