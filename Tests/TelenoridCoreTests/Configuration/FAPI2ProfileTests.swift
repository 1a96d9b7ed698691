import XCTest
@testable import TelenoridCore

/// The FAPI 2.0 Security Profile mode (`security_profile` "fapi2"): what it refuses, and what it changes.
final class FAPI2ProfileTests: XCTestCase {
    /// A fresh P-256 key as a private JWK, which signs client assertions with ES256.
    static func es256Key() throws -> String { try DPoPKey.generate(algorithm: "ES256").privateKey.privateJWK().string }
    // RFC 8037 Appendix A.1's Ed25519 key, with its private part.
    static let ed25519Key =
        #"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
    static let state = "218gz18yveu1ybajwh2g1h3g"

    /// A public client with DPoP, the smallest configuration the profile accepts, plus `extra`.
    private func fapi(_ extra: [ClientConfiguration.Setting: String] = [:]) throws -> ClientConfiguration {
        var settings: [ClientConfiguration.Setting: String] = [
            .securityProfile: "fapi2", .dpopSigningAlgorithm: "ES256"
        ]
        settings.merge(extra) { $1 }
        return try testConfiguration(settings)
    }

    /// The error building the configuration fails with; fails the test if it is built.
    private func refusal(
        _ extra: [ClientConfiguration.Setting: String], removing: [ClientConfiguration.Setting] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) -> TelenoridError? {
        var settings: [ClientConfiguration.Setting: String] = [
            .securityProfile: "fapi2", .dpopSigningAlgorithm: "ES256"
        ]
        settings.merge(extra) { $1 }
        for setting in removing { settings[setting] = nil }
        do {
            _ = try testConfiguration(settings)
            XCTFail("the configuration was accepted", file: file, line: line)
            return nil
        } catch let error as TelenoridError {
            XCTAssertEqual(error.kind, .configuration, error.message, file: file, line: line)
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    private func assertRule(
        _ extra: [ClientConfiguration.Setting: String], removing: [ClientConfiguration.Setting] = [],
        _ rule: String, mentioning detail: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = refusal(extra, removing: removing, file: file, line: line) else { return }
        XCTAssertTrue(
            error.message.hasPrefix("FAPI 2.0 Security Profile \(rule): "), error.message, file: file, line: line)
        XCTAssertTrue(error.message.contains(detail), error.message, file: file, line: line)
    }

    func testPlainPKCEIsRefused() {
        assertRule([.allowPlainPKCE: "true"], "§5.3.3.2 item 3", mentioning: "allow_plain_pkce")
    }

    func testClientSecretAuthenticationIsRefused() {
        for method in ["client_secret_basic", "client_secret_post", "client_secret_jwt"] {
            assertRule(
                [.clientAuthMethod: method, .clientSecret: "s3cret-s3cret-s3cret-s3cret-s3cret"], "§5.3.3.1 item 2",
                mentioning: method)
        }
    }

    /// Without dpop_signing_alg the configuration is accepted, since the host may set a DPoP signer on the
    /// client, whose algorithm is then the profile's; a sign-in with neither is refused.
    func testASignInNeedsDPoPFromTheSettingsOrAHostSigner() throws {
        for extra: [ClientConfiguration.Setting: String] in [[:], [.clientPrivateKey: try Self.es256Key()]] {
            var settings: [ClientConfiguration.Setting: String] = [
                .securityProfile: "fapi2", .authorizationEndpoint: "https://id.example.com/authorize",
                .pushedAuthorizationRequestEndpoint: "https://id.example.com/par"
            ]
            settings.merge(extra) { $1 }
            let client = try OIDCClient(
                configuration: try testConfiguration(settings), transport: fapiRecordingTransport())
            do {
                _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
                XCTFail("a sign-in without DPoP was started")
            } catch {
                XCTAssertEqual(error.kind, .configuration)
                XCTAssertTrue(error.message.hasPrefix("FAPI 2.0 Security Profile §5.3.3.1 item 1: "), error.message)
            }
            let key = try DPoPKey.generate(algorithm: "ES256")
            let signer = try HostKeySigner(algorithm: "ES256", publicJWK: key.publicJWK) {
                input throws(TelenoridError) in
                try JWS.signature(over: String(decoding: input, as: UTF8.self), key: key.privateKey)
            }
            try client.setDPoPSigner(signer)
            XCTAssertNoThrow(try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration)))
        }
    }

    func testBearerDowngradeIsRefused() {
        assertRule([.allowBearerDowngrade: "true"], "§5.3.3.1 item 1", mentioning: "allow_bearer_downgrade")
    }

    func testIDTokenAlgorithmsOutsideTheProfileAreRefused() throws {
        assertRule([.idTokenAlgorithms: "PS256 RS256 ES384"], "§5.4.1 item 1", mentioning: "must not list ES384, RS256")
        XCTAssertEqual(
            try fapi([.idTokenAlgorithms: "PS256 ES256 EdDSA"]).idTokenAlgorithms, ["PS256", "ES256", "EdDSA"])
    }

    /// An RSA key that declares RS256 is refused; one that declares nothing (PEM) signs PS256 in the mode.
    func testAClientKeyThatSignsRS256IsRefused() throws {
        var jwk = try XCTUnwrap(
            try JSON.parse(try PrivateKey(pem: JOSEFixtures.rsaPrivatePem).privateJWK().string).objectValue)
        jwk.set("alg", .string("RS256"))
        assertRule([.clientPrivateKey: JSON.serialize(.object(jwk))], "§5.4.1 item 1", mentioning: "signs RS256")
        XCTAssertEqual(try fapi([.clientPrivateKey: JOSEFixtures.rsaPrivatePem]).clientPrivateKey?.algorithm, "PS256")
        XCTAssertEqual(
            try testConfiguration([.clientPrivateKey: JOSEFixtures.rsaPrivatePem, .clientAuthMethod: "private_key_jwt"])
                .clientPrivateKey?.algorithm, "RS256")
    }

    func testValidConfigurations() throws {
        let confidential = try fapi([.clientPrivateKey: try Self.es256Key()])
        XCTAssertEqual(confidential.clientAuthMethod.name, "private_key_jwt")
        XCTAssertEqual(confidential.dpopAlgorithms, ["ES256"])
        XCTAssertEqual(confidential.securityProfile, .fapi2)
        XCTAssertEqual(
            try fapi([.clientPrivateKey: Self.ed25519Key, .dpopSigningAlgorithm: "EdDSA"]).clientAuthMethod.name,
            "private_key_jwt")
        let publicClient = try fapi()
        XCTAssertEqual(publicClient.clientAuthMethod, .none)
        XCTAssertEqual(publicClient.dpopAlgorithms, ["ES256"])
        // The same settings the profile refuses are the host's own business without it.
        XCTAssertTrue(
            try testConfiguration([.allowPlainPKCE: "true", .allowBearerDowngrade: "true"]).allowBearerDowngrade)
    }

    func testTLS12CipherSuitesAreSetOnlyInFAPIMode() throws {
        XCTAssertEqual(
            try fapi().http.tls12CipherList,
            "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384"
        )
        XCTAssertNil(try testConfiguration().http.tls12CipherList)
    }

    func testAcceptedAlgorithmsAreNarrowed() throws {
        let configuration = try fapi()
        XCTAssertEqual(
            configuration.acceptedAlgorithms(advertised: ["RS256", "PS256", "ES256", "ES384", "HS256"]),
            ["PS256", "ES256"])
        XCTAssertEqual(configuration.acceptedAlgorithms(advertised: []), ["PS256", "ES256", "EdDSA"])
        XCTAssertEqual(configuration.acceptedAlgorithms(advertised: ["RS256"]), [])
        // Without the profile RS256 stays acceptable.
        XCTAssertEqual(try testConfiguration().acceptedAlgorithms(advertised: ["RS256", "PS256"]), ["RS256", "PS256"])
    }

    private func pending(_ configuration: ClientConfiguration) throws -> PendingAuthorization {
        try AuthorizationRequest(configuration: configuration).build(state: Self.state, nonce: "n", pkce: try PKCE())
    }

    func testACallbackWithoutIssIsRefusedInFAPIMode() throws {
        let p = try pending(try fapi())
        do {
            _ = try p.handleCallback("telenorid-example://authcallback/?code=c&state=\(Self.state)")
            XCTFail("a callback without iss must be refused")
        } catch {
            XCTAssertEqual(error.kind, .issuerMismatch)
            XCTAssertTrue(error.message.hasPrefix("FAPI 2.0 Security Profile §5.3.3.2 item 5: "), error.message)
        }
        // The refusal does not use up the request: the genuine response, with iss, still goes through.
        XCTAssertEqual(
            try p.handleCallback(
                "telenorid-example://authcallback/?code=c&state=\(Self.state)&iss=https%3A%2F%2Fid.example.com"
            ).code, "c")
    }

    func testACallbackWithoutIssIsAcceptedWithoutTheProfile() throws {
        let p = try pending(try testConfiguration())
        XCTAssertEqual(try p.handleCallback("telenorid-example://authcallback/?code=c&state=\(Self.state)").code, "c")
    }
}

/// The cipher list against a real TLS server (Tests/support/fault_server.py).
final class FAPI2TransportTests: XCTestCase {
    nonisolated(unsafe) private static var secure: Result<FaultServer, Error>?

    override class func setUp() {
        super.setUp()
        secure = Result { try FaultServer(https: true) }
    }

    override class func tearDown() {
        (try? secure?.get())?.stop()
        secure = nil
        super.tearDown()
    }

    private func send(cipherList: String?) throws -> Result<HTTPResponse, TelenoridError> {
        let server = try XCTUnwrap(FAPI2TransportTests.secure).get()
        var settings = HTTPSettings()
        settings.caFile = server.caFile
        settings.connectTimeoutMilliseconds = 2_000
        settings.totalTimeoutMilliseconds = 5_000
        settings.tls12CipherList = cipherList
        let transport = try CurlTransport(settings: settings)
        do throws(TelenoridError) {
            return .success(try transport.send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/json")))
        } catch {
            return .failure(error)
        }
    }

    /// The profile's list is one the TLS library takes, and a FAPI client still reaches a modern server.
    func testTheProfilesCipherListConnects() throws {
        XCTAssertEqual(try send(cipherList: FAPI2Profile.tls12CipherList).get().status, 200)
    }

    /// The list reaches libcurl: one that names no cipher the TLS library knows fails the transfer.
    func testTheCipherListIsApplied() throws {
        guard case .failure(let error) = try send(cipherList: "NO-SUCH-CIPHER") else {
            return XCTFail("a cipher list naming no cipher must fail")
        }
        XCTAssertEqual(error.kind, .tls, error.message)
    }
}

/// A provider without discovery whose push endpoint (RFC 9126) takes every request.
private func fapiRecordingTransport() -> MemoryProvider {
    let provider = MemoryProvider(discovery: false)
    provider.answer(
        .par, status: 201, body: #"{"request_uri":"urn:ietf:params:oauth:request_uri:fapi","expires_in":60}"#)
    return provider
}
