import XCTest
@testable import TelenoridCore

/// A provider whose metadata lists the DPoP algorithms a test chose (RFC 9449 §5.1), and whose push endpoint
/// (RFC 9126) keeps the DPoP proofs it was sent.
private func dpopAlgorithmsProvider(advertising advertised: [String]?) -> MemoryProvider {
    let provider = MemoryProvider()
    provider.advertise("pushed_authorization_request_endpoint", endpoint: .par)
    if let advertised { provider.advertise("dpop_signing_alg_values_supported", strings: advertised) }
    provider.answer(.par, status: 201, body: #"{"request_uri":"urn:ietf:params:oauth:request_uri:n","expires_in":60}"#)
    return provider
}

/// The DPoP proofs pushed to `provider`'s PAR endpoint.
private func proofs(_ provider: MemoryProvider) -> [String] {
    provider.requests(to: .par).compactMap { $0.headers.first(where: { $0.name == "DPoP" })?.value }
}

private func lastProofAlgorithm(_ provider: MemoryProvider) throws -> String? {
    try JWS(compact: try XCTUnwrap(proofs(provider).last)).algorithm
}

final class DPoPNegotiationTests: XCTestCase {
    private func client(_ provider: MemoryProvider, dpop: String) throws -> OIDCClient {
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
        let provider = dpopAlgorithmsProvider(advertising: ["ES256", "PS256"])
        try signIn(try client(provider, dpop: "EdDSA PS256 ES256"))
        XCTAssertEqual(try lastProofAlgorithm(provider), "PS256")
    }

    func testWithoutAListTheFirstPreferenceIsUsed() throws {
        let provider = dpopAlgorithmsProvider(advertising: nil)
        try signIn(try client(provider, dpop: "EdDSA ES256"))
        XCTAssertEqual(try lastProofAlgorithm(provider), "EdDSA")
    }

    func testNoOverlapIsAConfigurationErrorNamingBothLists() throws {
        let provider = dpopAlgorithmsProvider(advertising: ["ES384", "RS256"])
        XCTAssertThrowsError(try signIn(try client(provider, dpop: "EdDSA ES256"))) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .configuration)
            XCTAssertTrue(
                error?.message.contains("ES384 RS256") == true && error?.message.contains("EdDSA ES256") == true,
                error?.message ?? "")
        }
        XCTAssertEqual(proofs(provider).count, 0, "nothing was pushed")
    }

    func testAHostSignerMustUseAnAlgorithmTheProviderLists() throws {
        let provider = dpopAlgorithmsProvider(advertising: ["ES256"])
        let client = try client(provider, dpop: "ES256")
        let key = try DPoPKey.generate(algorithm: "EdDSA")
        try client.setDPoPSigner(
            try HostKeySigner(algorithm: "EdDSA", publicJWK: key.publicJWK) { input throws(TelenoridError) in
                try JWS.signature(over: String(decoding: input, as: UTF8.self), key: key.privateKey)
            })
        XCTAssertEqual(errorKind { try self.signIn(client) }, .configuration)
    }

    func testTheSettingIsAListOfKnownAlgorithmsEachOnce() throws {
        XCTAssertEqual(
            try testConfiguration([.dpopSigningAlgorithm: " EdDSA  ES256 "]).dpopAlgorithms, ["EdDSA", "ES256"])
        for bad in ["", "ES384", "ES256 ES256", "ES256 none"] {
            XCTAssertEqual(errorKind { _ = try testConfiguration([.dpopSigningAlgorithm: bad]) }, .configuration, bad)
        }
        let metadata = try ProviderMetadata(
            json: Array(#"{"issuer":"https://id.example.com","dpop_signing_alg_values_supported":["ES256"]}"#.utf8),
            expectedIssuer: "https://id.example.com")
        XCTAssertEqual(metadata.dpopSigningAlgorithms, ["ES256"])
    }
}
