import XCTest
@testable import TelenoridCore

/// A provider whose metadata lists the DPoP algorithms a test chose (RFC 9449 §5.1), and whose push endpoint
/// (RFC 9126) keeps the DPoP proofs it was sent.
private final class DPoPAlgorithmsProvider: HTTPTransport {
    let issuer = "https://id.example.com"
    let advertised: [String]?
    let proofs = Locked<[String]>([])

    init(advertising advertised: [String]?) { self.advertised = advertised }

    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        switch request.url {
        case issuer + "/.well-known/openid-configuration":
            let list = advertised.map { #","dpop_signing_alg_values_supported":[\#($0.map { "\"\($0)\"" }.joined(separator: ","))]"# } ?? ""
            let body = #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","pushed_authorization_request_endpoint":"\#(issuer)/par"\#(list)}"#
            return HTTPResponse(status: 200, headers: [("content-type", "application/json")], body: Array(body.utf8))
        case issuer + "/par":
            if let proof = request.headers.first(where: { $0.name == "DPoP" })?.value { proofs.withLock { $0.append(proof) } }
            let body = #"{"request_uri":"urn:ietf:params:oauth:request_uri:n","expires_in":60}"#
            return HTTPResponse(status: 201, headers: [("content-type", "application/json")], body: Array(body.utf8))
        default:
            return HTTPResponse(status: 404, headers: [], body: [])
        }
    }

    func lastProofAlgorithm() throws -> String? {
        let proof = try XCTUnwrap(proofs.withLock { $0.last })
        return try JWS(compact: proof).algorithm
    }
}

final class DPoPNegotiationTests: XCTestCase {
    private func client(_ provider: DPoPAlgorithmsProvider, dpop: String) throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "s6BhdRkqt3"
        settings[.redirectURI] = "com.example.app:/oauth2redirect"
        settings[.pushAuthorizationRequests] = "true"
        settings[.dpopSigningAlgorithm] = dpop
        return try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
    }

    private func signIn(_ client: OIDCClient) throws {
        _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
    }

    func testTheFirstPreferenceTheProviderListsIsUsed() throws {
        let provider = DPoPAlgorithmsProvider(advertising: ["ES256", "PS256"])
        try signIn(try client(provider, dpop: "EdDSA PS256 ES256"))
        XCTAssertEqual(try provider.lastProofAlgorithm(), "PS256")
    }

    func testWithoutAListTheFirstPreferenceIsUsed() throws {
        let provider = DPoPAlgorithmsProvider(advertising: nil)
        try signIn(try client(provider, dpop: "EdDSA ES256"))
        XCTAssertEqual(try provider.lastProofAlgorithm(), "EdDSA")
    }

    func testNoOverlapIsAConfigurationErrorNamingBothLists() throws {
        let provider = DPoPAlgorithmsProvider(advertising: ["ES384", "RS256"])
        XCTAssertThrowsError(try signIn(try client(provider, dpop: "EdDSA ES256"))) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .configuration)
            XCTAssertTrue(error?.message.contains("ES384 RS256") == true && error?.message.contains("EdDSA ES256") == true,
                          error?.message ?? "")
        }
        XCTAssertEqual(provider.proofs.withLock { $0.count }, 0, "nothing was pushed")
    }

    func testAHostSignerMustUseAnAlgorithmTheProviderLists() throws {
        let provider = DPoPAlgorithmsProvider(advertising: ["ES256"])
        let client = try client(provider, dpop: "ES256")
        let key = try DPoPKey.generate(algorithm: "EdDSA")
        try client.setDPoPSigner(try HostKeySigner(algorithm: "EdDSA", publicJWK: key.publicJWK) { input throws(TelenoridError) in
            try JWS.signature(over: String(decoding: input, as: UTF8.self), key: key.privateKey)
        })
        XCTAssertEqual(errorKind { try self.signIn(client) }, .configuration)
    }

    func testTheSettingIsAListOfKnownAlgorithmsEachOnce() throws {
        XCTAssertEqual(try testConfiguration([.dpopSigningAlgorithm: " EdDSA  ES256 "]).dpopAlgorithms, ["EdDSA", "ES256"])
        for bad in ["", "ES384", "ES256 ES256", "ES256 none"] {
            XCTAssertEqual(errorKind { _ = try testConfiguration([.dpopSigningAlgorithm: bad]) }, .configuration, bad)
        }
        let metadata = try ProviderMetadata(json: Array(#"{"issuer":"https://id.example.com","dpop_signing_alg_values_supported":["ES256"]}"#.utf8),
                                            expectedIssuer: "https://id.example.com")
        XCTAssertEqual(metadata.dpopSigningAlgorithms, ["ES256"])
    }
}
