import COpenSSL
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
    static let rfc7515A1 =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfc7515A1Key = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"

    // RFC 8037 Appendix A.4: Ed25519.
    static let rfc8037A4 =
        "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
    static let rfc8037A4Key = #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#

    func testRFC7515AppendixA1HS256() throws {
        let token = JOSETests.rfc7515A1
        let key = try XCTUnwrap(Base64URL.decode(JOSETests.rfc7515A1Key))
        let jws = try JWS(compact: token)
        XCTAssertEqual(jws.algorithm, "HS256")
        XCTAssertNoThrow(try jws.verify(hmacSecret: key))
        XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(hmacSecret: key) }, .tokenInvalid)
        XCTAssertEqual(kind { try jws.verify(hmacSecret: Array("wrong".utf8)) }, .tokenInvalid)
    }

    func testRFC8037AppendixA4Ed25519() throws {
        let key = try jwk(JOSETests.rfc8037A4Key)
        let token = JOSETests.rfc8037A4
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
        for (key, token) in [
            (JOSEFixtures.es256Jwk, JOSEFixtures.es256), (JOSEFixtures.es384Jwk, JOSEFixtures.es384),
            (JOSEFixtures.es512Jwk, JOSEFixtures.es512)
        ] {
            let ec = try jwk(key)
            XCTAssertNoThrow(try JWS(compact: token).verify(with: ec))
            XCTAssertEqual(kind { try JWS(compact: self.tampered(token)).verify(with: ec) }, .tokenInvalid)
            XCTAssertEqual(
                kind { try JWS(compact: token).verify(with: rsa) }, .tokenInvalid, "an RSA key never verifies ES*")
        }
    }

    // A JWT access token (RFC 9068) is a bearer credential: parsed from its wiping storage, the JWS keeps
    // what gives the token back there too (the signing input as the token's own prefix, the decoded
    // signature and payload in storage of their own), and verifies as one parsed from a String does.
    func testATokenParsedFromWipingStorageKeepsItsPartsInWipingStorage() throws {
        let rsa = try jwk(JOSEFixtures.rsaJwk)
        let signed: [(JWK, String)] = [
            (rsa, JOSEFixtures.rs256), (rsa, JOSEFixtures.ps256), (try jwk(JOSEFixtures.es256Jwk), JOSEFixtures.es256),
            (try jwk(JOSEFixtures.es384Jwk), JOSEFixtures.es384), (try jwk(JOSEFixtures.es512Jwk), JOSEFixtures.es512),
            (try jwk(JOSETests.rfc8037A4Key), JOSETests.rfc8037A4)
        ]
        for (key, text) in signed {
            let token = SecretBytes(Array(text.utf8))
            let jws = try JWS(compact: token)
            XCTAssertNoThrow(try jws.verify(with: key), jws.algorithm)
            try assertKeptInWipingStorage(jws, of: token, text)
            let tampered = SecretBytes(Array(self.tampered(text).utf8))
            XCTAssertEqual(kind { try JWS(compact: tampered).verify(with: key) }, .tokenInvalid, jws.algorithm)
        }
        let hs256 = JOSETests.rfc7515A1
        let secret = try XCTUnwrap(Base64URL.decode(JOSETests.rfc7515A1Key))
        let token = SecretBytes(Array(hs256.utf8))
        let jws = try JWS(compact: token)
        XCTAssertNoThrow(try jws.verify(hmacSecret: secret))
        XCTAssertEqual(kind { try jws.verify(hmacSecret: Array("wrong".utf8)) }, .tokenInvalid)
        try assertKeptInWipingStorage(jws, of: token, hs256)
        // Refused as from a String, whichever part is bad.
        for bad in ["a.b", "e30.e30.e30.e30", "e30.e30.!", "e30.!.AA", "!.e30.AA"] {
            XCTAssertEqual(kind { _ = try JWS(compact: SecretBytes(Array(bad.utf8))) }, .tokenInvalid, bad)
        }
    }

    /// `jws`, parsed from `token` (whose text is `text`), keeps its signing input as the token's prefix and
    /// its signature and payload decoded into wiping storage; one parsed from the text keeps plain arrays.
    private func assertKeptInWipingStorage(_ jws: JWS, of token: SecretBytes, _ text: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 3)
        guard case .wiped(let storage, let count) = jws.signingInput else { return XCTFail("signing input not wiped") }
        XCTAssertTrue(storage === token, "the signing input is the token's own bytes, not a copy")
        XCTAssertEqual(count, parts[0].utf8.count + 1 + parts[1].utf8.count)
        guard case .wiped(let signature, let signatureCount) = jws.signature else {
            return XCTFail("signature not wiped")
        }
        XCTAssertEqual(Array(signature.bytes.prefix(signatureCount)), Base64URL.decode(parts[2]))
        guard case .wiped = jws.payloadBytes else { return XCTFail("payload not wiped") }
        XCTAssertEqual(jws.payload, Base64URL.decode(parts[1]))
        let plain = try JWS(compact: text)
        guard case .plain = plain.signingInput, case .plain = plain.signature, case .plain = plain.payloadBytes else {
            return XCTFail("not plain")
        }
        XCTAssertEqual(plain.payload, jws.payload)
        XCTAssertEqual(plain.headerBytes, jws.headerBytes)
    }

    func testAlgorithmConfusionIsImpossible() throws {
        let rsa = try jwk(JOSEFixtures.rsaJwk)
        // alg none: no key verifies it.
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "."
        XCTAssertEqual(kind { try JWS(compact: none).verify(with: rsa) }, .tokenInvalid)
        // HS256 "signed" with the RSA public key's bytes: a public key is never an HMAC secret.
        let header =
            Base64URL.encode(Array(#"{"alg":"HS256","kid":"rsa-1"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8))
        let mac = try XCTUnwrap(JWS.hmac("HS256", secret: Array(JOSEFixtures.rsaJwk.utf8), data: Array(header.utf8)))
        XCTAssertEqual(kind { try JWS(compact: header + "." + Base64URL.encode(mac)).verify(with: rsa) }, .tokenInvalid)
        // An ES256 signature cut short.
        let ec = try jwk(JOSEFixtures.es256Jwk)
        XCTAssertEqual(
            kind { try JWS(compact: String(JOSEFixtures.es256.dropLast(4))).verify(with: ec) }, .tokenInvalid)
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
        XCTAssertThrowsError(
            try jwk(
                #"{"kty":"EC","crv":"P-256","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","y":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#
            ), "point not on the curve")
        XCTAssertThrowsError(try jwk(#"{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}"#))
        XCTAssertThrowsError(try jwk(#"{"kty":"oct","k":"AyM1"}"#))
        XCTAssertThrowsError(
            try jwk(
                #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}"#
            ), "private keys have no place in a key set")
        let set = try JWKSet(
            json: Array(#"{"keys":[{"kty":"oct","k":"AA"},\#(JOSEFixtures.rsaJwk),{"kty":"RSA"}]}"#.utf8))
        XCTAssertEqual(set.keys.map(\.keyID), ["rsa-1"])
        XCTAssertThrowsError(try JWKSet(json: Array(#"{"kees":[]}"#.utf8)))
    }

    /// The modulus of a fresh RSA key of `bits` bits from OpenSSL, big-endian without leading zeros.
    func generatedModulus(bits: Int32) throws -> [UInt8] {
        let context = try XCTUnwrap(EVP_PKEY_CTX_new_from_name(nil, "RSA", nil))
        defer { EVP_PKEY_CTX_free(context) }
        XCTAssertEqual(EVP_PKEY_keygen_init(context), 1)
        XCTAssertEqual(EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits), 1)
        var key: OpaquePointer? = nil
        XCTAssertEqual(EVP_PKEY_generate(context, &key), 1)
        defer { EVP_PKEY_free(key) }
        var n: OpaquePointer? = nil
        XCTAssertEqual(EVP_PKEY_get_bn_param(key, "n", &n), 1)
        defer { BN_free(n) }
        XCTAssertEqual(BN_num_bits(n), bits)
        var bytes = [UInt8](repeating: 0, count: Int(bits + 7) / 8)
        XCTAssertEqual(Int(BN_bn2bin(n, &bytes)), bytes.count)
        return bytes
    }

    func testRSAModulusIsCountedInBits() throws {
        let short = try generatedModulus(bits: 2047)
        XCTAssertEqual(short.count, 256, "2047 bits still fill 256 bytes")
        for padding in [[], [0, 0]] as [[UInt8]] {
            XCTAssertEqual(
                kind { _ = try self.jwk(#"{"kty":"RSA","n":"\#(Base64URL.encode(padding + short))","e":"AQAB"}"#) },
                .invalidResponse)
        }
        XCTAssertNoThrow(
            try jwk(#"{"kty":"RSA","n":"\#(Base64URL.encode([0] + (try generatedModulus(bits: 2048))))","e":"AQAB"}"#))
        let set = try JWKSet(
            json: Array(
                #"{"keys":[{"kty":"RSA","kid":"short","n":"\#(Base64URL.encode(short))","e":"AQAB"},\#(JOSEFixtures.rsaJwk)]}"#
                    .utf8))
        XCTAssertEqual(set.keys.map(\.keyID), ["rsa-1"], "the short key is skipped")
    }

    func testRSAExponentMustBeOddAndAtLeastThree() throws {
        let n = try rsaModulus()
        // e = 1 would make every message its own signature; e = 0, 2 and 65536 are even.
        for e in ["AQ", "AAE", "AA", "Ag", "AQAA"] {
            XCTAssertEqual(kind { _ = try self.jwk(#"{"kty":"RSA","n":"\#(n)","e":"\#(e)"}"#) }, .invalidResponse, e)
        }
        for e in ["Aw", "AQAB", "AAEAAQ"] {
            XCTAssertNoThrow(try jwk(#"{"kty":"RSA","n":"\#(n)","e":"\#(e)"}"#), e)
        }
        let set = try JWKSet(json: Array(#"{"keys":[{"kty":"RSA","kid":"e1","n":"\#(n)","e":"AQ"}]}"#.utf8))
        XCTAssertTrue(set.keys.isEmpty)
    }

    /// Every encoding of the eight points of order dividing 8 on edwards25519: y = 0 (order 4), 1 (order
    /// 1), p - 1 (order 2), the two y of the order-8 points (the roots of d·y⁴ + 2y² = 1), and the
    /// non-canonical y + p for y = 0 and 1; each with the sign bit of x clear and set.
    static let smallOrderEd25519: [[UInt8]] = {
        func little(_ hex: String) -> [UInt8] {
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count, by: 2).map {
                UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
            }
        }
        let p: [UInt8] = [0xed] + Array(repeating: 0xff, count: 30) + [0x7f]
        var ys: [[UInt8]] = [Array(repeating: 0, count: 32), [1] + Array(repeating: 0, count: 31), p, p, p]
        ys[2][0] = 0xec  // p - 1
        ys[4][0] = 0xee  // p + 1
        ys.append(little("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"))
        ys.append(little("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"))
        return ys.flatMap { y in [y, Array(y.dropLast()) + [y[31] | 0x80]] }
    }()

    func testSmallOrderEd25519KeysAreRefused() throws {
        XCTAssertEqual(Set(JOSETests.smallOrderEd25519).count, 14)
        for x in JOSETests.smallOrderEd25519 {
            let text = #"{"kty":"OKP","crv":"Ed25519","kid":"small","x":"\#(Base64URL.encode(x))"}"#
            XCTAssertEqual(kind { _ = try self.jwk(text) }, .invalidResponse, text)
            XCTAssertTrue(try JWKSet(json: Array(#"{"keys":[\#(text)]}"#.utf8)).keys.isEmpty)
        }
        // Neighbours of the refused encodings are ordinary y values, and RFC 8037's key is of large order.
        XCTAssertFalse(JWK.hasSmallOrder(ed25519: [2] + Array(repeating: 0, count: 31)))
        XCTAssertFalse(JWK.hasSmallOrder(ed25519: [0xef] + Array(repeating: 0xff, count: 30) + [0x7f]))
        XCTAssertNoThrow(try jwk(#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#))
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

    // RFC 7515 Appendix A.2: RS256 is deterministic, so signing the example's input with its private JWK
    // must give the example's signature byte for byte.
    static let rfc7515A2Key =
        #"{"kty":"RSA","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ","e":"AQAB","d":"Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ","p":"4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc","q":"uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc","dp":"BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0","dq":"h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU","qi":"IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"}"#

    func testRFC7515AppendixA2SigningWithAPrivateJWK() throws {
        let key = try PrivateKey(text: JOSETests.rfc7515A2Key)
        XCTAssertEqual(key.algorithm, "RS256")
        let input =
            "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        let expected =
            "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
        XCTAssertEqual(Base64URL.encode(try JWS.signature(over: input, key: key)), expected)
        // Without the CRT members (n, e, d only) the signature is the same.
        let object = without(
            try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue), ["p", "q", "dp", "dq", "qi"])
        XCTAssertEqual(Base64URL.encode(try JWS.signature(over: input, key: try PrivateKey(jwk: object))), expected)
        // A PS256 key signs with PSS (randomized), verified by the public half.
        var pss = try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue)
        pss.set("alg", .string("PS256"))
        pss.set("kid", .string("pss-1"))
        let token = try JWS.sign(payload: Array("{}".utf8), key: try PrivateKey(jwk: pss))
        let parsed = try JWS(compact: token)
        XCTAssertEqual(parsed.algorithm, "PS256")
        XCTAssertEqual(parsed.keyID, "pss-1", "a JWK's kid goes into the assertion's header")
        let n = try XCTUnwrap(pss["n"]?.stringValue)
        XCTAssertNoThrow(try parsed.verify(with: try jwk(#"{"kty":"RSA","n":"\#(n)","e":"AQAB"}"#)))
    }

    // The private members read into wiping storage (`parseJWK`) make the same key as the same JWK's object.
    func testPrivateMembersParsedAsSecretsMakeTheSameKey() throws {
        let (object, secrets) = try PrivateKey.parseJWK(Array(JOSETests.rfc7515A2Key.utf8))
        XCTAssertEqual(Set(secrets.keys), PrivateKey.privateMembers)
        for name in PrivateKey.privateMembers { XCTAssertNil(object[name], name) }
        let input =
            "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        let reference = try PrivateKey(jwk: try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue))
        XCTAssertEqual(
            try JWS.signature(over: input, key: try PrivateKey(jwk: object, secrets: secrets)),
            try JWS.signature(over: input, key: reference))
        // The CRT members come all together also when they are secrets; and a secret member must be base64url.
        var partial = secrets
        partial["qi"] = nil
        XCTAssertEqual(kind { _ = try PrivateKey(jwk: object, secrets: partial) }, .configuration)
        partial = secrets
        partial["d"] = SecretBytes(Array("not+base64url".utf8))
        XCTAssertEqual(kind { _ = try PrivateKey(jwk: object, secrets: partial) }, .configuration)
        // A private member that is not a string stays in the object, and is refused as such.
        let ec =
            #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":7}"#
        let (numeric, none) = try PrivateKey.parseJWK(Array(ec.utf8))
        XCTAssertTrue(none.isEmpty)
        XCTAssertThrowsError(try PrivateKey(jwk: numeric, secrets: none)) {
            XCTAssertEqual(($0 as? TelenoridError)?.message, "client_private_key member d is not a string")
        }
    }

    // RFC 8037 Appendix A.1 key, A.4 signature: Ed25519 is deterministic too.
    func testRFC8037AppendixA4SigningWithAPrivateJWK() throws {
        let key = try PrivateKey(
            text:
                #"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        )
        XCTAssertEqual(key.algorithm, "EdDSA")
        XCTAssertEqual(
            Base64URL.encode(
                try JWS.signature(over: "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc", key: key)),
            "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg")
    }

    // RFC 7515 Appendix A.3's P-256 key: ECDSA is randomized, so sign and verify with the public half.
    func testRFC7515AppendixA3ECPrivateJWK() throws {
        let members =
            #""kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0""#
        let key = try PrivateKey(text: "{\(members),\"d\":\"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI\"}")
        XCTAssertEqual(key.algorithm, "ES256")
        let token = try JWS.sign(payload: Array("{}".utf8), key: key)
        XCTAssertNoThrow(try JWS(compact: token).verify(with: try jwk("{\(members)}")))
        // A d that is not the point's private key is refused when the key is read, not at the provider.
        XCTAssertEqual(
            kind { _ = try PrivateKey(text: "{\(members),\"d\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE\"}") },
            .configuration)
    }

    func without(_ object: JSONObject, _ names: [String]) -> JSONObject {
        var copy = JSONObject()
        for (key, value) in object.members where !names.contains(key) { copy.set(key, value) }
        return copy
    }

    func testBadPrivateJWKsAreRefused() throws {
        let ed = #""kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A""#
        for text in [
            "{\(ed),\"x\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",  // x is not d's public key
            "{\(ed),\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\",\"alg\":\"ES256\"}",
            "{\(ed),\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\",\"use\":\"enc\"}",
            #"{"kty":"oct","k":"AyM1"}"#,
            #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQAB"}"#,  // far under 2048 bits
            #"{"kty":"EC","crv":"P-256K","x":"AA","y":"AA","d":"AA"}"#,
            #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,  // public only
            #"{"kty":"RSA""#, "[1]", "{}"
        ] {
            XCTAssertEqual(kind { _ = try PrivateKey(text: text) }, .configuration, text)
        }
        var rsa = try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue)
        rsa.set("alg", .string("ES256"))
        XCTAssertEqual(kind { _ = try PrivateKey(jwk: rsa) }, .configuration, "an RSA key declared for ES256")
        rsa = try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue)
        rsa.set("d", .string("AQAB"))
        XCTAssertEqual(kind { _ = try PrivateKey(jwk: rsa) }, .configuration, "d that does not belong to p and q")
        rsa = without(try XCTUnwrap(JSON.parse(JOSETests.rfc7515A2Key).objectValue), ["qi"])
        XCTAssertEqual(kind { _ = try PrivateKey(jwk: rsa) }, .configuration, "CRT members come all together")
    }
}
