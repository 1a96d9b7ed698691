import XCTest
@testable import TelenoridCore

/// RFC 9068 §4 validation of JWT access tokens made here with the fixture RSA key (kid rsa-1), which the
/// KeyProvider publishes in its key set.
final class JWTAccessTokenTests: XCTestCase {
    private let time = TestClock()
    private let provider = KeyProvider()
    private let audience = "https://rs.example.com/"

    private func server(_ extra: [ClientConfiguration.Setting: String] = [:]) throws -> ResourceServer {
        try ResourceServer(client: try provider.client(time, extra), audience: audience)
    }

    /// RFC 9068 §2.2's required claims, valid now, with `changes` applied (nil removes a claim).
    private func claims(_ changes: [String: JSONValue?] = [:]) -> String {
        let now = time.now.load(ordering: .relaxed)
        let defaults: [(String, JSONValue)] = [
            ("iss", .string(provider.issuer)), ("exp", .number(JSONNumber(now + 300))), ("aud", .string(audience)),
            ("sub", .string("5ba552d67")), ("client_id", .string("s6BhdRkqt3")), ("iat", .number(JSONNumber(now))),
            ("jti", .string("dbe39bf3a3ba4238a513f51d6e1691c4")), ("scope", .string("openid profile reademail"))
        ]
        var claims = JSONObject()
        for (name, value) in defaults where changes[name] == nil { claims.set(name, value) }
        for (name, value) in changes { if let value { claims.set(name, value) } }
        return JSON.serialize(.object(claims))
    }

    private func token(
        _ claims: String, typ: String? = "at+jwt", key: PrivateKey? = nil, keyID: String = "rsa-1"
    ) throws -> SecretBytes {
        let key = try key ?? PrivateKey(pem: JOSEFixtures.rsaPrivatePem)
        var header = JSONObject()
        header.set("alg", .string(key.algorithm))
        header.set("kid", .string(keyID))
        if let typ { header.set("typ", .string(typ)) }
        let input = JWS.signingInput(header: header, payload: Array(claims.utf8))
        return SecretBytes(Array((input + "." + Base64URL.encode(try JWS.signature(over: input, key: key))).utf8))
    }

    private func assertRefused(
        _ token: SecretBytes, _ message: String, server: ResourceServer? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let rs = try server ?? self.server()
        XCTAssertThrowsError(try rs.verifyAccessToken(token), file: file, line: line) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .tokenInvalid, "\($0)", file: file, line: line)
            XCTAssertTrue(
                error?.message.contains(message) == true, "\(error?.message ?? "") lacks \(message)", file: file,
                line: line)
        }
    }

    func testAValidAccessTokenVerifiesAndItsClaimsAreRead() throws {
        let info = try server().verifyAccessToken(try token(claims()))
        XCTAssertTrue(info.active)
        XCTAssertEqual(info.string("sub"), "5ba552d67")
        XCTAssertEqual(info.string("client_id"), "s6BhdRkqt3")
        XCTAssertEqual(info.string("scope"), "openid profile reademail")
        XCTAssertEqual(info.audiences, [audience])
        XCTAssertEqual(info.seconds("exp"), time.now.load(ordering: .relaxed) + 300)
        // Media types compare without regard to case, and may carry the application/ prefix (RFC 7515 §4.1.9).
        _ = try server().verifyAccessToken(try token(claims(), typ: "application/at+jwt"))
        _ = try server().verifyAccessToken(try token(claims(), typ: "AT+JWT"))
        // aud as an array that names this resource server among others.
        _ = try server().verifyAccessToken(
            try token(claims(["aud": .array([.string("https://other.example/"), .string(audience)])])))
        // cnf.jkt of a DPoP-bound token (RFC 9449 §6.1).
        var cnf = JSONObject()
        cnf.set("jkt", .string("0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"))
        XCTAssertEqual(
            try server().verifyAccessToken(try token(claims(["cnf": .object(cnf)]))).confirmationKeyThumbprint,
            "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    func testNotAJWTOrNotAtJWTIsRefusedSayingWhich() throws {
        try assertRefused(SecretBytes(Array("2YotnFZFEjr1zCsicMWpAA".utf8)), "is not a JWT")
        try assertRefused(SecretBytes(Array("a.b.c.d.e".utf8)), "is not a JWT")
        try assertRefused(try token(claims(), typ: nil), "has no typ")
        try assertRefused(try token(claims(), typ: "JWT"), "accepting typ JWT is a setting")
        try assertRefused(try token(claims(), typ: "dpop+jwt"), "has typ dpop+jwt, not at+jwt")
        // With the setting, typ JWT passes, and the claims only RFC 9068 requires may be missing.
        let lenient = try server()
        try lenient.set(.acceptTypJWT, "true")
        _ = try lenient.verifyAccessToken(try token(claims(["jti": nil, "client_id": nil, "sub": nil]), typ: "JWT"))
        try assertRefused(try token(claims(["jti": nil]), typ: "at+jwt"), "has no jti", server: lenient)
        try lenient.set(.acceptTypJWT, nil)
        try assertRefused(try token(claims(), typ: "JWT"), "not at+jwt", server: lenient)
        XCTAssertThrowsError(try lenient.set(.acceptTypJWT, "yes"))
    }

    func testIssuerAudienceAndTimesAreChecked() throws {
        let now = time.now.load(ordering: .relaxed)
        try assertRefused(try token(claims(["iss": .string("https://evil.example.com")])), "not the configured issuer")
        try assertRefused(try token(claims(["iss": nil])), "issued by nobody")
        try assertRefused(try token(claims(["aud": .string("https://other.example/")])), "is not meant for")
        try assertRefused(try token(claims(["aud": nil])), "is not meant for")
        try assertRefused(try token(claims(["aud": .number(JSONNumber(5))])), "\"aud\"")
        try assertRefused(try token(claims(["exp": nil])), "has no exp")
        try assertRefused(try token(claims(["exp": .string("tomorrow")])), "NumericDate")
        // The default clock tolerance is 120 s.
        try assertRefused(try token(claims(["exp": .number(JSONNumber(now - 121))])), "expired at")
        _ = try server().verifyAccessToken(try token(claims(["exp": .number(JSONNumber(now - 119))])))
        try assertRefused(try token(claims(["nbf": .number(JSONNumber(now + 121))])), "not valid before")
        try assertRefused(try token(claims(["iat": .number(JSONNumber(now + 121))])), "issued in the future")
        for name in ["iat", "sub", "client_id", "jti"] {
            try assertRefused(try token(claims([name: nil])), "has no \(name) (RFC 9068 §2.2)")
        }
        try assertRefused(try token(claims(["sub": .number(JSONNumber(1))])), "\"sub\" is not a string")
    }

    func testTheSignatureAndTheAlgorithmAllowListAreChecked() throws {
        var tampered = try token(claims()).string
        tampered.removeLast(3)
        try assertRefused(SecretBytes(Array((tampered + "AAA").utf8)), "signature")
        // A key the provider does not publish.
        let (otherKey, _) = try KeyProvider.secondKey()
        try assertRefused(try token(claims(), key: otherKey, keyID: "rsa-2"), "no key with kid")
        // The host's allow-list: RS256 not on it.
        let strict = try server()
        try strict.set(.accessTokenAlgorithms, "ES256 PS256")
        try assertRefused(try token(claims()), "signed with RS256", server: strict)
        let ps256 = try XCTUnwrap(try PrivateKey(pem: JOSEFixtures.rsaPrivatePem).signing(with: "PS256"))
        _ = try strict.verifyAccessToken(try token(claims(), key: ps256))
        // No MAC and no none, whatever the host says.
        XCTAssertThrowsError(try strict.set(.accessTokenAlgorithms, "HS256"))
        XCTAssertThrowsError(try strict.set(.accessTokenAlgorithms, "none"))
        XCTAssertThrowsError(try strict.set(.accessTokenAlgorithms, ""))
        // An HMAC-signed at+jwt made with the client's secret is refused even when the client has one.
        let withSecret = try server([.clientSecret: "a-shared-secret-of-enough-length-for-hs256"])
        var header = JSONObject()
        header.set("alg", .string("HS256"))
        header.set("typ", .string("at+jwt"))
        let input = JWS.signingInput(header: header, payload: Array(claims().utf8))
        let mac = try XCTUnwrap(
            JWS.hmac("HS256", secret: Array("a-shared-secret-of-enough-length-for-hs256".utf8), data: Array(input.utf8))
        )
        try assertRefused(
            SecretBytes(Array((input + "." + Base64URL.encode(mac)).utf8)), "signed with HS256", server: withSecret)
    }

    func testTheKeySetIsTheClientsCachedOne() throws {
        let rs = try server()
        _ = try rs.verifyAccessToken(try token(claims()))
        _ = try rs.verifyAccessToken(try token(claims()))
        _ = try rs.client.verifyIDToken(try provider.idToken(time), nonce: nil)
        XCTAssertEqual(provider.keySetRequests, 1, "access tokens and ID tokens share the client's key-set cache")
    }
}
