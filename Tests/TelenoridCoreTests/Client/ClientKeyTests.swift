import XCTest
@testable import TelenoridCore

/// The client's own key held by the host (`setClientSigner`): private_key_jwt assertions (RFC 7523) and
/// request objects (RFC 9101) signed through the host's function, verifiable with the public key alone.
final class ClientKeyTests: XCTestCase {
    let provider = KeyProvider()
    /// RFC 7515 Appendix A.3's P-256 key: the library holds it here only to play the host's keystore.
    static let keystoreKey =
        #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#
    static let publicJWK =
        #"{"kty":"EC","kid":"device-1","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#

    /// A signer as a host writes one, counting its calls.
    func hostSigner(calls: Locked<Int>, algorithm: String = "ES256") throws -> HostKeySigner {
        let key = try PrivateKey(text: Self.keystoreKey)
        return try HostKeySigner(
            algorithm: algorithm, publicJWK: try XCTUnwrap(try JSON.parse(Self.publicJWK).objectValue)
        ) { input throws(TelenoridError) in
            calls.withLock { $0 += 1 }
            return try JWS.signature(over: String(decoding: input, as: UTF8.self), key: key)
        }
    }

    func assertion(_ client: OIDCClient) throws -> JWS {
        let request = try client.authenticatedRequest(url: provider.issuer + "/token", parameters: FormParameters())
        let form = try FormParameters(parsing: try XCTUnwrap(request.body).string[...])
        XCTAssertEqual(form["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        return try JWS(compact: try XCTUnwrap(form["client_assertion"]))
    }

    func testPrivateKeyJWTNeedsAKeyOnlyWhenItSigns() throws {
        let client = try provider.client(TestClock(), [.clientAuthMethod: "private_key_jwt"])
        XCTAssertEqual(client.configuration.clientAuthMethod, .privateKeyJWT)
        XCTAssertThrowsError(
            try client.authenticatedRequest(url: provider.issuer + "/token", parameters: FormParameters())
        ) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(error.kind, .configuration)
            XCTAssertTrue(error.message.contains("client_private_key"), error.message)
        }
    }

    func testTheHostsKeySignsTheAssertionWithItsKeyID() throws {
        let client = try provider.client(TestClock(), [.clientAuthMethod: "private_key_jwt"])
        let calls = Locked(0)
        try client.setClientSigner(try hostSigner(calls: calls))
        let jws = try assertion(client)
        XCTAssertEqual(calls.withLock { $0 }, 1)
        XCTAssertEqual(jws.header["alg"]?.stringValue, "ES256")
        XCTAssertEqual(jws.header["kid"]?.stringValue, "device-1")
        XCTAssertNoThrow(try jws.verify(with: try JWK(try XCTUnwrap(try JSON.parse(Self.publicJWK).objectValue))))
        XCTAssertEqual(try JSON.parse(jws.payload)["iss"]?.stringValue, "client")
    }

    func testTheHostsKeyTakesOverFromTheConfiguredOneAndGivesItBack() throws {
        let client = try provider.client(TestClock(), [.clientPrivateKey: JOSEFixtures.rsaPrivatePem])
        XCTAssertEqual(try assertion(client).header["alg"]?.stringValue, "RS256")
        let calls = Locked(0)
        try client.setClientSigner(try hostSigner(calls: calls))
        XCTAssertEqual(try assertion(client).header["alg"]?.stringValue, "ES256")
        try client.setClientSigner(nil)
        XCTAssertEqual(try assertion(client).header["alg"]?.stringValue, "RS256")
        XCTAssertEqual(calls.withLock { $0 }, 1)
    }

    func testASignerFailureFailsTheRequest() throws {
        let client = try provider.client(TestClock(), [.clientAuthMethod: "private_key_jwt"])
        try client.setClientSigner(
            try HostKeySigner(algorithm: "ES256", publicJWK: try XCTUnwrap(try JSON.parse(Self.publicJWK).objectValue))
            {
                _ throws(TelenoridError) in throw TelenoridError(.invalidArgument, "keystore locked")
            })
        XCTAssertEqual(
            errorKind {
                _ = try client.authenticatedRequest(url: self.provider.issuer + "/token", parameters: FormParameters())
            },
            .invalidArgument)
    }

    func testTheFAPI2ProfileTakesOnlyItsAlgorithmsFromTheHost() throws {
        let client = try provider.client(TestClock(), fapi2PrivateKeyJWTSettings)
        let rsa = try rs256HostSigner()
        XCTAssertThrowsError(try client.setClientSigner(rsa)) {
            let error = $0 as! TelenoridError
            XCTAssertEqual(error.kind, .configuration)
            XCTAssertTrue(error.message.contains("§5.4.1"), error.message)
        }
        XCTAssertNoThrow(try client.setClientSigner(try hostSigner(calls: Locked(0))))
    }

    func testTheHostsKeySignsRequestObjects() throws {
        let client = try provider.client(
            TestClock(), [.signAuthorizationRequests: "true", .authorizationEndpoint: provider.issuer + "/authorize"])
        XCTAssertEqual(
            errorKind { _ = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration)) },
            .configuration)
        let calls = Locked(0)
        try client.setClientSigner(try hostSigner(calls: calls))
        let pending = try client.buildAuthorization(AuthorizationRequest(configuration: client.configuration))
        let query = try FormParameters(parsing: (try URI(parsing: pending.url).query ?? "")[...])
        let object = try JWS(compact: try XCTUnwrap(query["request"]))
        XCTAssertEqual(object.header["typ"]?.stringValue, "oauth-authz-req+jwt")
        XCTAssertEqual(object.header["kid"]?.stringValue, "device-1")
        XCTAssertNoThrow(try object.verify(with: try JWK(try XCTUnwrap(try JSON.parse(Self.publicJWK).objectValue))))
        XCTAssertEqual(try JSON.parse(object.payload)["state"]?.stringValue, pending.state)
        XCTAssertEqual(calls.withLock { $0 }, 1)
    }
}
