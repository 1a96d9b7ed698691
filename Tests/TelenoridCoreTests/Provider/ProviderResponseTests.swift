import XCTest
@testable import TelenoridCore

final class ProviderMetadataTests: XCTestCase {
    let issuer = "https://id.example.com/o"

    func document(_ extra: String = "") -> [UInt8] {
        Array(
            """
            {"issuer":"https://id.example.com/o","authorization_endpoint":"https://id.example.com/o/authorize/",
             "token_endpoint":"https://id.example.com/o/token/","jwks_uri":"https://id.example.com/o/.well-known/jwks.json",
             "id_token_signing_alg_values_supported":["RS256"]\(extra)}
            """.utf8)
    }

    func testParsesAndChecksTheIssuerExactly() throws {
        let metadata = try ProviderMetadata(json: document(), expectedIssuer: issuer)
        XCTAssertEqual(metadata.endpoints[.tokenEndpoint], "https://id.example.com/o/token/")
        XCTAssertEqual(metadata.idTokenSigningAlgorithms, ["RS256"])
        XCTAssertThrowsError(try ProviderMetadata(json: document(), expectedIssuer: issuer + "/")) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .issuerMismatch)
        }
    }

    func testReadsTheAdvertisedSigningAlgorithmsOfEachKindOfToken() throws {
        let metadata = try ProviderMetadata(
            json: document(#","userinfo_signing_alg_values_supported":["ES256","none"]"#), expectedIssuer: issuer)
        XCTAssertEqual(metadata.idTokenSigningAlgorithms, ["RS256"])
        XCTAssertEqual(metadata.userinfoSigningAlgorithms, ["ES256", "none"])
        XCTAssertEqual(try ProviderMetadata(json: document(), expectedIssuer: issuer).userinfoSigningAlgorithms, [])
        XCTAssertThrowsError(
            try ProviderMetadata(
                json: document(#","userinfo_signing_alg_values_supported":"ES256""#), expectedIssuer: issuer))
    }

    func testRefusesInsecureEndpointsAndWrongTypes() {
        XCTAssertThrowsError(
            try ProviderMetadata(
                json: document(",\"userinfo_endpoint\":\"http://evil.example/u\""), expectedIssuer: issuer)
        ) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .insecure)
        }
        XCTAssertThrowsError(
            try ProviderMetadata(
                json: document(",\"code_challenge_methods_supported\":\"S256\""), expectedIssuer: issuer))
        XCTAssertThrowsError(
            try ProviderMetadata(
                json: document(",\"authorization_response_iss_parameter_supported\":\"yes\""), expectedIssuer: issuer))
        XCTAssertThrowsError(try ProviderMetadata(json: Array("[]".utf8), expectedIssuer: issuer))
        XCTAssertThrowsError(try ProviderMetadata(json: Array("<html>".utf8), expectedIssuer: issuer)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidResponse)
        }
    }

    func testRFC8414FillsWhatOIDCLeftOut() throws {
        let oidc = try ProviderMetadata(json: document(), expectedIssuer: issuer)
        let oauth = try ProviderMetadata(
            json: Array(
                #"{"issuer":"https://id.example.com/o","token_endpoint":"https://other.example/t","revocation_endpoint":"https://id.example.com/o/revoke/"}"#
                    .utf8), expectedIssuer: issuer)
        let merged = oidc.filling(from: oauth)
        XCTAssertEqual(merged.endpoints[.revocationEndpoint], "https://id.example.com/o/revoke/")
        XCTAssertEqual(merged.endpoints[.tokenEndpoint], "https://id.example.com/o/token/")
    }

    func testDiscoveryURLs() throws {
        let urls = try ProviderMetadata.discoveryURLs(issuer: "https://id.example.com/tenant/")
        XCTAssertEqual(urls.openid, "https://id.example.com/tenant/.well-known/openid-configuration")
        XCTAssertEqual(urls.oauth, "https://id.example.com/.well-known/oauth-authorization-server/tenant")
        XCTAssertEqual(urls.oauthAppended, "https://id.example.com/tenant/.well-known/oauth-authorization-server")
        let loopback = try ProviderMetadata.discoveryURLs(issuer: "http://127.0.0.1:8000")
        XCTAssertEqual(loopback.oauth, "http://127.0.0.1:8000/.well-known/oauth-authorization-server")
        XCTAssertThrowsError(try ProviderMetadata.discoveryURLs(issuer: "http://id.example.com"))
    }
}
