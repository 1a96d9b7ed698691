import XCTest
@testable import TelenoridCore

final class JOSETests: XCTestCase {
    func jwk(_ json: String) throws -> JWK {
        guard let object = try JSON.parse(json).objectValue else { throw TelenoridError(.malformed, "not an object") }
        return try JWK(object)
    }

    func kind(_ body: () throws -> Void) -> TelenoridError.Kind? {
        do { try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    func tampered(_ token: String) -> String {
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"sub":"mallory"}"#.utf8))
        return parts.joined(separator: ".")
    }

    // RFC 7515 Appendix A.1: HMAC SHA-256.
    func testRFC7515AppendixA1HS256() throws {
        let token = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let key = try XCTUnwrap(Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let jws = try JWS(compact: token)
        XCTAssertEqual(jws.algorithm, "HS256")
        XCTAssertNoThrow(try jws.verify(hmacSecret: key))
        XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(hmacSecret: key) }, .tokenInvalid)
        XCTAssertEqual(kind { try jws.verify(hmacSecret: Array("wrong".utf8)) }, .tokenInvalid)
    }

    // RFC 8037 Appendix A.4: Ed25519.
    func testRFC8037AppendixA4Ed25519() throws {
        let key = try jwk(#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)
        let token = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
        let jws = try JWS(compact: token)
        XCTAssertEqual(String(decoding: jws.payload, as: UTF8.self), "Example of Ed25519 signing")
        XCTAssertNoThrow(try jws.verify(with: key))
        XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(with: key) }, .tokenInvalid)
    }

    // Tokens signed by pyca/cryptography (Tests/support/make_jose_fixtures.py).
    func testSignaturesMadeByAnotherImplementation() throws {
        let rsa = try jwk(JOSEFixtures.rsaJwk)
        for token in [JOSEFixtures.rs256, JOSEFixtures.ps256] {
            XCTAssertNoThrow(try JWS(compact: token).verify(with: rsa))
            XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(with: rsa) }, .tokenInvalid)
        }
        for (key, token) in [(JOSEFixtures.es256Jwk, JOSEFixtures.es256), (JOSEFixtures.es384Jwk, JOSEFixtures.es384),
                             (JOSEFixtures.es512Jwk, JOSEFixtures.es512)] {
            let ec = try jwk(key)
            XCTAssertNoThrow(try JWS(compact: token).verify(with: ec))
            XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(with: ec) }, .tokenInvalid)
            XCTAssertEqual(kind { try JWS(compact: token).verify(with: rsa) }, .tokenInvalid, "an RSA key never verifies ES*")
        }
    }

    func testAlgorithmConfusionIsImpossible() throws {
        let rsa = try jwk(JOSEFixtures.rsaJwk)
        // alg none: no key verifies it.
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "."
        XCTAssertEqual(kind { try JWS(compact: none).verify(with: rsa) }, .tokenInvalid)
        // HS256 "signed" with the RSA public key's bytes: a public key is never an HMAC secret.
        let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"rsa-1"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8))
        let mac = try XCTUnwrap(JWS.hmac("HS256", secret: Array(JOSEFixtures.rsaJwk.utf8), data: Array(header.utf8)))
        XCTAssertEqual(kind { try JWS(compact: header + "." + Base64URL.encode(mac)).verify(with: rsa) }, .tokenInvalid)
        // An ES256 signature cut short.
        let ec = try jwk(JOSEFixtures.es256Jwk)
        XCTAssertEqual(kind { try JWS(compact: String(JOSEFixtures.es256.dropLast(4))).verify(with: ec) }, .tokenInvalid)
        // crit with an extension nobody understands.
        let crit = Base64URL.encode(Array(#"{"alg":"RS256","crit":["exp"],"exp":1}"#.utf8)) + ".e30.AA"
        XCTAssertEqual(kind { _ = try JWS(compact: crit) }, .tokenInvalid)
        // Duplicate members in the header.
        let duplicate = Base64URL.encode(Array(#"{"alg":"RS256","alg":"none"}"#.utf8)) + ".e30.AA"
        XCTAssertEqual(kind { _ = try JWS(compact: duplicate) }, .tokenInvalid)
        // A key that declares another alg or another use.
        let pinned = try jwk(#"{"kty":"RSA","alg":"PS256","n":"\#(try rsaModulus())","e":"AQAB"}"#)
        XCTAssertEqual(kind { try JWS(compact: JOSEFixtures.rs256).verify(with: pinned) }, .tokenInvalid)
    }

    func rsaModulus() throws -> String {
        try XCTUnwrap(JSON.parse(JOSEFixtures.rsaJwk)["n"]?.stringValue)
    }

    func testBadKeysAreRefused() throws {
        XCTAssertThrowsError(try jwk(#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#), "RSA under 2048 bits")
        XCTAssertThrowsError(try jwk(#"{"kty":"EC","crv":"P-256","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","y":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#), "point not on the curve")
        XCTAssertThrowsError(try jwk(#"{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}"#))
        XCTAssertThrowsError(try jwk(#"{"kty":"oct","k":"AyM1"}"#))
        XCTAssertThrowsError(try jwk(#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}"#), "private keys have no place in a key set")
        let set = try JWKSet(json: Array(#"{"keys":[{"kty":"oct","k":"AA"},\#(JOSEFixtures.rsaJwk),{"kty":"RSA"}]}"#.utf8))
        XCTAssertEqual(set.keys.map(\.keyID), ["rsa-1"])
        XCTAssertThrowsError(try JWKSet(json: Array(#"{"kees":[]}"#.utf8)))
    }

    func testSigningRoundTrips() throws {
        let key = try PrivateKey(pem: JOSEFixtures.rsaPrivatePem)
        XCTAssertEqual(key.algorithm, "RS256")
        let token = try JWS.sign(payload: Array(#"{"iss":"client"}"#.utf8), key: key, keyID: "rsa-1")
        XCTAssertNoThrow(try JWS(compact: token).verify(with: try jwk(JOSEFixtures.rsaJwk)))
        let hs = try JWS.sign(payload: Array("{}".utf8), algorithm: "HS256", hmacSecret: Array("secret".utf8))
        XCTAssertNoThrow(try JWS(compact: hs).verify(hmacSecret: Array("secret".utf8)))
        XCTAssertThrowsError(try PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
    }
}
