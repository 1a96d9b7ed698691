import XCTest
@testable import TelenoridCore

/// The client secret kept in wiping storage: in the settings, in the auth method, in JSON documents, and
/// in the credentials client_secret_basic and client_secret_post send.
final class ClientSecretTests: XCTestCase {
    func configuration(_ extra: [ClientConfiguration.Setting: String]) throws -> ClientConfiguration {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "client"
        settings[.redirectURI] = "com.example.app:/callback"
        settings[.tokenEndpoint] = "https://id.example.com/token"
        for (setting, value) in extra { settings[setting] = value }
        return try ClientConfiguration(settings)
    }

    func testTheSecretIsKeptApartFromTheStringSettings() throws {
        var settings = ClientConfiguration.Settings()
        settings[.clientSecret] = "s3cret"
        XCTAssertNil(settings.values[.clientSecret])
        XCTAssertEqual(settings.clientSecret?.string, "s3cret")
        XCTAssertEqual(settings[.clientSecret], "s3cret")
        var same = ClientConfiguration.Settings()
        same.clientSecret = SecretBytes(Array("s3cret".utf8))
        XCTAssertEqual(settings, same)
        same[.clientSecret] = "other"
        XCTAssertNotEqual(settings, same)
        same[.clientSecret] = nil
        XCTAssertNil(same.clientSecret)
        XCTAssertNotEqual(settings, same)
    }

    func testTheAuthMethodsCarryTheSecret() throws {
        for (method, expected) in [
            ("client_secret_basic", ClientAuthMethod.clientSecretBasic(secret: SecretBytes(Array("s3cret".utf8)))),
            ("client_secret_post", .clientSecretPost(secret: SecretBytes(Array("s3cret".utf8)))),
            ("client_secret_jwt", .clientSecretJWT(secret: SecretBytes(Array("s3cret".utf8))))
        ] {
            let configuration = try configuration([.clientSecret: "s3cret", .clientAuthMethod: method])
            XCTAssertEqual(configuration.clientAuthMethod, expected)
            XCTAssertNotEqual(
                configuration.clientAuthMethod, .clientSecretBasic(secret: SecretBytes(Array("other".utf8))))
        }
        XCTAssertEqual(try configuration([.clientSecret: "s3cret"]).clientAuthMethod.name, "client_secret_basic")
        XCTAssertEqual(
            errorKind { _ = try self.configuration([.clientSecret: "", .clientAuthMethod: "client_secret_post"]) },
            .configuration)
        XCTAssertEqual(
            errorKind { _ = try self.configuration([.clientAuthMethod: "client_secret_basic"]) }, .configuration)
    }

    func testStandardBase64IntoABufferMatchesTheStringEncoder() {
        for length in 0..<8 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 250) }
            var out = [UInt8](repeating: 0, count: Base64URL.standardLength(length))
            let written = bytes.withUnsafeBytes { input in
                out.withUnsafeMutableBufferPointer { Base64URL.encodeStandard(input, into: $0) }
            }
            XCTAssertEqual(written, out.count)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), Base64URL.encodeStandard(bytes))
        }
    }

    func testBasicCredentialsFormEncodeBothPartsBeforeJoining() throws {
        // RFC 6749 §2.3.1: the ":" in the id and the reserved characters in the secret are escaped.
        for secret in ["s", "s3", "s3c", "p@ss:wörd/+"] {
            let value = OIDCClient.basicCredentials(clientID: "my:client", secret: SecretBytes(Array(secret.utf8)))
                .string
            let joined = PercentEncoding.encode("my:client") + ":" + PercentEncoding.encode(secret)
            XCTAssertEqual(value, "Basic " + Base64URL.encodeStandard(Array(joined.utf8)))
        }
    }

    func testBasicSendsTheCredentialsAsTheAuthorizationAndPostInTheBody() throws {
        let basic = try OIDCClient(
            configuration: configuration([.clientSecret: "s3cret", .clientAuthMethod: "client_secret_basic"]))
        let request = try basic.authenticatedRequest(url: "https://id.example.com/token", parameters: FormParameters())
        XCTAssertEqual(request.authorization?.string, "Basic " + Base64URL.encodeStandard(Array("client:s3cret".utf8)))
        XCTAssertFalse(request.headers.contains { $0.name.lowercased() == "authorization" })
        XCTAssertEqual(try FormParameters(parsing: try XCTUnwrap(request.body).string[...])["client_secret"], nil)

        let post = try OIDCClient(
            configuration: configuration([.clientSecret: "s3 cret", .clientAuthMethod: "client_secret_post"]))
        let posted = try post.authenticatedRequest(url: "https://id.example.com/token", parameters: FormParameters())
        XCTAssertNil(posted.authorization)
        let form = try FormParameters(parsing: try XCTUnwrap(posted.body).string[...])
        XCTAssertEqual(form["client_id"], "client")
        XCTAssertEqual(form["client_secret"], "s3 cret")
    }

    func testJSONReadsTheSecretIntoWipingStorage() throws {
        let base = #""issuer":"https://id.example.com","client_id":"client","redirect_uri":"com.example.app:/callback""#
        let plain = try ClientConfiguration(json: #"{\#(base),"client_secret":"s3\u0063ret"}"#, environment: nil)
        XCTAssertEqual(plain.settings.clientSecret?.string, "s3cret")
        XCTAssertNil(plain.settings.values[.clientSecret])
        XCTAssertEqual(plain.clientAuthMethod.name, "client_secret_basic")

        let environments = #"{"environments":{"prod":{\#(base),"client_secret":"p"}},"default_environment":"prod"}"#
        XCTAssertEqual(try ClientConfiguration(json: environments, environment: nil).settings.clientSecret?.string, "p")

        XCTAssertNil(try ClientConfiguration(json: environments, environment: nil).settings.values[.clientSecret])

        let beside = #"{"client_secret":"s","environments":{"prod":{\#(base)}}}"#
        XCTAssertEqual(errorKind { _ = try ClientConfiguration(json: beside, environment: "prod") }, .configuration)
        XCTAssertEqual(
            errorKind { _ = try ClientConfiguration(json: #"{\#(base),"client_secret":1}"#, environment: nil) },
            .configuration)
    }

    /// The private key is as secret as the client secret: read from a document (top level or an
    /// environment) and set from a builder straight into wiping storage, and parsed from there.
    func testThePrivateKeyIsHeldLikeTheSecret() throws {
        let base = #""issuer":"https://id.example.com","client_id":"client","redirect_uri":"com.example.app:/callback""#
        let pem = JSON.serialize(.string(JOSEFixtures.rsaPrivatePem))
        let plain = try ClientConfiguration(json: #"{\#(base),"client_private_key":\#(pem)}"#, environment: nil)
        XCTAssertEqual(plain.settings.clientPrivateKey?.string, JOSEFixtures.rsaPrivatePem)
        XCTAssertNil(plain.settings.values[.clientPrivateKey])
        XCTAssertEqual(plain.clientAuthMethod.name, "private_key_jwt")
        XCTAssertEqual(plain.clientPrivateKey?.algorithm, "RS256")

        let environments =
            #"{"environments":{"test":{\#(base)},"prod":{\#(base),"client_private_key":\#(pem),"client_secret":"p"}}}"#
        let prod = try ClientConfiguration(json: environments, environment: "prod")
        XCTAssertEqual(prod.settings.clientPrivateKey?.string, JOSEFixtures.rsaPrivatePem)
        XCTAssertEqual(prod.settings.clientSecret?.string, "p")
        XCTAssertNil(prod.settings.values[.clientPrivateKey])
        XCTAssertEqual(prod.settings[.environment], "prod")
        XCTAssertNil(try ClientConfiguration(json: environments, environment: "test").settings.clientPrivateKey)
        XCTAssertEqual(
            errorKind { _ = try ClientConfiguration(json: environments, environment: "stage") }, .configuration)
        XCTAssertEqual(
            errorKind { _ = try ClientConfiguration(json: #"{"environments":{"prod":1}}"#, environment: "prod") },
            .configuration)
        XCTAssertEqual(
            errorKind { _ = try ClientConfiguration(json: #"{"environments":[]}"#, environment: "prod") },
            .configuration)

        var settings = ClientConfiguration.Settings()
        settings[.clientPrivateKey] = JOSEFixtures.rsaPrivatePem
        XCTAssertNil(settings.values[.clientPrivateKey])
        XCTAssertEqual(settings.clientPrivateKey?.string, JOSEFixtures.rsaPrivatePem)
        var other = settings
        other[.clientPrivateKey] = JOSEFixtures.rsaPrivatePem + "\n"
        XCTAssertNotEqual(settings, other)
        other[.clientPrivateKey] = JOSEFixtures.rsaPrivatePem
        XCTAssertEqual(settings, other)
    }
}
