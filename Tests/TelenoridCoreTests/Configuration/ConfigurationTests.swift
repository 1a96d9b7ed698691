import XCTest
@testable import TelenoridCore

final class ConfigurationTests: XCTestCase {
    /// Only the flows that send the browser back need a redirect URI (RFC 6749 §3.1.2): without one the
    /// configuration builds, and what needs it says so when it is asked for.
    func testARedirectURIIsNeededOnlyByTheFlowsThatRedirect() throws {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "tv-app"
        settings[.authorizationEndpoint] = "https://id.example.com/authorize"
        let configuration = try ClientConfiguration(settings)
        XCTAssertNil(configuration.redirect)
        XCTAssertThrowsError(try AuthorizationRequest(configuration: configuration).build()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
            XCTAssertTrue(($0 as? TelenoridError)?.message.contains("redirect_uri") ?? false)
        }
        let saved = try AuthorizationRequest(configuration: try testConfiguration()).build().serialized()
        XCTAssertThrowsError(try PendingAuthorization(restoring: saved, configuration: configuration)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
        }
    }

    func testRequiredSettingsAndSecureEndpoints() throws {
        XCTAssertNoThrow(try testConfiguration())
        XCTAssertThrowsError(try testConfiguration([.authorizationEndpoint: "http://id.example.com/authorize"])) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .insecure)
        }
        XCTAssertNoThrow(try testConfiguration([.authorizationEndpoint: "http://127.0.0.1:8000/authorize"]))
        XCTAssertThrowsError(try testConfiguration([.redirectURI: "com.app:/cb#frag"]))
        XCTAssertThrowsError(try testConfiguration([.redirectURI: "http://app.example.com/cb"]))
        XCTAssertThrowsError(try testConfiguration([.allowPlainPKCE: "yes"]))
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        XCTAssertThrowsError(try ClientConfiguration(settings)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .configuration)
        }
    }

    func testNamedEnvironmentsFromJSON() throws {
        let document = """
            {"default_environment": "production",
             "environments": {
               "staging": {"issuer": "https://signin.staging.example.com", "client_id": "app-staging",
                           "redirect_uri": "app://cb", "scopes": ["openid", "profile"]},
               "production": {"issuer": "https://signin.example.com", "client_id": "app",
                              "redirect_uri": "app://cb", "allow_plain_pkce": false}}}
            """
        let production = try ClientConfiguration(json: document, environment: nil)
        XCTAssertEqual(production.clientID, "app")
        XCTAssertEqual(production.settings[.environment], "production")
        let staging = try ClientConfiguration(json: document, environment: "staging")
        XCTAssertEqual(staging.clientID, "app-staging")
        XCTAssertEqual(staging.scope, "openid profile")
        XCTAssertThrowsError(try ClientConfiguration(json: document, environment: "qa"))
    }

    func testUnknownOrMistypedMembersAreRefused() {
        let base = "\"issuer\":\"https://a.example\",\"client_id\":\"c\",\"redirect_uri\":\"app://cb\""
        XCTAssertNoThrow(try ClientConfiguration(json: "{\(base)}", environment: nil))
        XCTAssertThrowsError(try ClientConfiguration(json: "{\(base),\"clientid\":\"x\"}", environment: nil))
        XCTAssertThrowsError(try ClientConfiguration(json: "{\(base),\"scope\":3}", environment: nil))
        XCTAssertThrowsError(
            try ClientConfiguration(json: "{\(base),\"scope\":\"a\",\"scopes\":[\"b\"]}", environment: nil))
        XCTAssertThrowsError(
            try ClientConfiguration(json: "{\(base),\"issuer\":\"https://b.example\"}", environment: nil))
        XCTAssertThrowsError(try ClientConfiguration(json: "[1]", environment: nil))
        XCTAssertThrowsError(try ClientConfiguration(json: "{\(base)}", environment: "staging"))
    }
}
