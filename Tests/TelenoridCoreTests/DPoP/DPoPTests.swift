import Dispatch
import XCTest
@testable import TelenoridCore

final class DPoPTests: XCTestCase {
    private func kind<T>(_ body: () throws -> T) -> TelenoridError.Kind? {
        do { _ = try body(); return nil } catch { return (error as? TelenoridError)?.kind }
    }

    private func object(_ text: String) throws -> JSONObject {
        try XCTUnwrap(try JSON.parse(text).objectValue)
    }

    /// A proof's header, claims, and the verdict of the existing JWS verifier with the header's own key.
    private func verified(_ proof: String) throws -> (header: JSONObject, claims: JSONObject) {
        let jws = try JWS(compact: proof)
        let jwk = try XCTUnwrap(jws.header["jwk"]?.objectValue)
        try jws.verify(with: try JWK(jwk))
        return (jws.header, try XCTUnwrap(try JSON.parse(jws.payload).objectValue))
    }

    // RFC 9449 Figure 2 (§4.1): a proof for a token request; its decoded form is in §4.2.
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19"
        + ".eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ"
        + ".2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    // RFC 9449 §7.1's access token and the ath of it.
    static let rfcAccessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
    static let rfcAth = "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
    // RFC 7638 §3.1's RSA key.
    static let rfc7638Key =
        #"{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#

    func testRFC7638Thumbprint() throws {
        XCTAssertEqual(
            try JWKThumbprint.sha256(of: try object(DPoPTests.rfc7638Key)),
            "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        // Members are picked by name, so their order in the JWK does not matter.
        let reordered = try object(
            #"{"e":"AQAB","kid":"x","n":"\#(try XCTUnwrap(try object(DPoPTests.rfc7638Key)["n"]?.stringValue))","kty":"RSA"}"#
        )
        XCTAssertEqual(try JWKThumbprint.sha256(of: reordered), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        XCTAssertEqual(
            kind { try JWKThumbprint.sha256(of: try! self.object(#"{"kty":"oct","k":"AAAA"}"#)) }, .unsupported)
        XCTAssertEqual(
            kind { try JWKThumbprint.sha256(of: try! self.object(#"{"kty":"EC","crv":"P-256","x":"AAAA"}"#)) },
            .invalidArgument)
    }

    func testRFCAccessTokenHash() {
        XCTAssertEqual(DPoPProof.accessTokenHash(SecretBytes(Array(DPoPTests.rfcAccessToken.utf8))), DPoPTests.rfcAth)
    }

    func testRFCExampleProofParses() throws {
        let jws = try JWS(compact: DPoPTests.rfcProof)
        XCTAssertEqual(jws.header["typ"]?.stringValue, "dpop+jwt")
        XCTAssertEqual(jws.algorithm, "ES256")
        let jwk = try XCTUnwrap(jws.header["jwk"]?.objectValue)
        XCTAssertEqual(jwk["kty"]?.stringValue, "EC")
        XCTAssertEqual(jwk["crv"]?.stringValue, "P-256")
        XCTAssertEqual(jwk["x"]?.stringValue, "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs")
        XCTAssertEqual(jwk["y"]?.stringValue, "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")
        // The jkt RFC 9449's bound-token examples give for this key (cnf, §6).
        XCTAssertEqual(try JWKThumbprint.sha256(of: jwk), "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        let claims = try XCTUnwrap(try JSON.parse(jws.payload).objectValue)
        XCTAssertEqual(claims.keys, ["jti", "htm", "htu", "iat"])
        XCTAssertEqual(claims["jti"]?.stringValue, "-BwC3ESc6acc2lTc")
        XCTAssertEqual(claims["htm"]?.stringValue, "POST")
        XCTAssertEqual(claims["htu"]?.stringValue, "https://server.example.com/token")
        XCTAssertEqual(claims["iat"]?.int64Value, 1_562_262_616)
        // The RFC's signature is real: the verifier accepts it with the key in the header.
        try jws.verify(with: try JWK(jwk))
    }

    func testEachAlgorithmMakesVerifyingProofs() throws {
        let publicMembers = [
            "ES256": ["crv", "kty", "x", "y"], "EdDSA": ["crv", "kty", "x"], "PS256": ["e", "kty", "n"]
        ]
        for algorithm in DPoPKey.algorithms {
            let key = try DPoPKey.generate(algorithm: algorithm)
            XCTAssertEqual(key.algorithm, algorithm)
            XCTAssertEqual(key.publicJWK.keys, publicMembers[algorithm], algorithm)
            XCTAssertEqual(key.thumbprint.utf8.count, 43, algorithm)
            let token = SecretBytes(Array(DPoPTests.rfcAccessToken.utf8))
            let proof = try DPoPProof.make(
                signer: .key(key), method: "GET", url: "HTTPS://Resource.Example.ORG:443/protectedresource?a=b#c",
                accessToken: token, nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", now: 1_562_262_618)
            let (header, claims) = try verified(proof)
            XCTAssertEqual(header.keys, ["typ", "alg", "jwk"], algorithm)
            XCTAssertEqual(header["typ"]?.stringValue, "dpop+jwt")
            XCTAssertEqual(header["alg"]?.stringValue, algorithm)
            XCTAssertEqual(header["jwk"]?.objectValue, key.publicJWK)
            XCTAssertEqual(try JWKThumbprint.sha256(of: try XCTUnwrap(header["jwk"]?.objectValue)), key.thumbprint)
            XCTAssertEqual(claims.keys, ["jti", "htm", "htu", "iat", "ath", "nonce"], algorithm)
            XCTAssertEqual(Base64URL.decode(try XCTUnwrap(claims["jti"]?.stringValue))?.count, 16)
            XCTAssertEqual(claims["htm"]?.stringValue, "GET")
            XCTAssertEqual(claims["htu"]?.stringValue, "https://resource.example.org/protectedresource")
            XCTAssertEqual(claims["iat"]?.int64Value, 1_562_262_618)
            XCTAssertEqual(claims["ath"]?.stringValue, DPoPTests.rfcAth)
            XCTAssertEqual(claims["nonce"]?.stringValue, "eyJ7S_zG.eyJH0-Z.HX4w-7v")
            // Without a token and a nonce those claims are absent, not empty.
            let (_, bare) = try verified(
                try DPoPProof.make(signer: .key(key), method: "POST", url: "https://as.example.com/token", now: 5))
            XCTAssertEqual(bare.keys, ["jti", "htm", "htu", "iat"], algorithm)
        }
        XCTAssertEqual(kind { try DPoPKey.generate(algorithm: "RS256") }, .unsupported)
        XCTAssertEqual(kind { try DPoPKey.generate(algorithm: "HS256") }, .unsupported)
    }

    func testTargetURINormalisation() throws {
        let cases = [
            ("HTTPS://Server.Example.COM:443/token?grant=x#frag", "https://server.example.com/token"),
            ("http://example.com:80", "http://example.com/"),
            ("http://example.com:8080/", "http://example.com:8080/"),
            ("https://example.com:80/", "https://example.com:80/"),
            ("https://example.com:8443/a/./b/../c", "https://example.com:8443/a/c"),
            ("https://example.com/a/b/..", "https://example.com/a/"),
            ("https://example.com/a/..", "https://example.com/"),
            ("https://example.com/../../x", "https://example.com/x"),
            ("https://example.com/a//b/", "https://example.com/a//b/"),
            ("https://example.com/%7euser/%2f%41%2E/x%3a", "https://example.com/~user/%2FA./x%3A"),
            ("https://example.com/%2e%2E/x", "https://example.com/x"),
            ("https://[::1]:443/x", "https://[::1]/x"),
            ("https://[::1]:8443", "https://[::1]:8443/")
        ]
        for (url, expected) in cases { XCTAssertEqual(try DPoPProof.targetURI(url), expected, url) }
        for bad in [
            "ftp://example.com/x", "https://user:pw@example.com/", "example.com/token", "https:///path",
            "https://exa mple.com/"
        ] {
            XCTAssertEqual(kind { try DPoPProof.targetURI(bad) }, .invalidArgument, bad)
        }
        let key = try DPoPKey.generate()
        XCTAssertEqual(
            kind { try DPoPProof.make(signer: .key(key), method: "PO ST", url: "https://a.example/", now: 0) },
            .invalidArgument)
        XCTAssertEqual(
            kind { try DPoPProof.make(signer: .key(key), method: "", url: "https://a.example/", now: 0) },
            .invalidArgument)
        XCTAssertEqual(
            kind {
                try DPoPProof.make(signer: .key(key), method: "GET", url: "https://a.example/", nonce: "a b", now: 0)
            }, .invalidArgument)
    }

    func testJTIsAreUnique() throws {
        let signer = DPoPSigner.key(try DPoPKey.generate())
        var seen = Set<String>()
        for _ in 0..<1000 {
            let jws = try JWS(
                compact: try DPoPProof.make(signer: signer, method: "POST", url: "https://as.example.com/token", now: 1)
            )
            seen.insert(try XCTUnwrap(try JSON.parse(jws.payload)["jti"]?.stringValue))
        }
        XCTAssertEqual(seen.count, 1000)
    }

    func testSerializeRestoreRoundTrip() throws {
        for algorithm in DPoPKey.algorithms {
            let key = try DPoPKey.generate(algorithm: algorithm)
            let stored = try key.serialized()
            let document = try XCTUnwrap(try JSON.parse(stored.bytes).objectValue)
            XCTAssertEqual(document.keys, ["v", "alg", "jwk"])
            XCTAssertEqual(document["v"]?.int64Value, 1)
            XCTAssertEqual(document["alg"]?.stringValue, algorithm)
            XCTAssertNotNil(document["jwk"]?["d"]?.stringValue, algorithm)
            for restored in [try DPoPKey(restoring: stored), try DPoPKey(restoring: stored.bytes)] {
                XCTAssertEqual(restored.algorithm, algorithm)
                XCTAssertEqual(restored.publicJWK, key.publicJWK)
                XCTAssertEqual(restored.thumbprint, key.thumbprint)
                XCTAssertEqual(try restored.serialized().bytes, stored.bytes, algorithm)
                // The restored key signs what the old public key verifies.
                let jws = try JWS(
                    compact: try DPoPProof.make(
                        signer: .key(restored), method: "POST", url: "https://as.example.com/token", now: 1))
                try jws.verify(with: try JWK(key.publicJWK))
            }
        }
    }

    func testRestoreRefusals() throws {
        let stored = String(decoding: try DPoPKey.generate().serialized().bytes, as: UTF8.self)
        func restore(_ text: String) -> TelenoridError.Kind? { kind { try DPoPKey(restoring: Array(text.utf8)) } }
        XCTAssertEqual(restore(stored.replacingFirst(#"{"v":1"#, with: #"{"v":2"#)), .version)
        XCTAssertEqual(restore(stored.replacingFirst(#"{"v":1,"#, with: "{")), .malformed)
        XCTAssertEqual(restore(stored.replacingFirst(#""alg":"ES256""#, with: #""alg":"RS256""#)), .unsupported)
        // A P-256 key declared for EdDSA, and a d that is not the key's.
        XCTAssertEqual(restore(stored.replacingFirst(#""alg":"ES256""#, with: #""alg":"EdDSA""#)), .malformed)
        let other = String(decoding: try DPoPKey.generate().serialized().bytes, as: UTF8.self)
        let otherD = try XCTUnwrap(try JSON.parse(other)["jwk"]?["d"]?.stringValue)
        let ownD = try XCTUnwrap(try JSON.parse(stored)["jwk"]?["d"]?.stringValue)
        XCTAssertEqual(restore(stored.replacingFirst(ownD, with: otherD)), .malformed)
        XCTAssertEqual(restore("not json"), .malformed)
        XCTAssertEqual(restore(#"{"v":1,"alg":"ES256"}"#), .malformed)
        XCTAssertEqual(restore(#"{"v":1,"alg":"ES256","jwk":"{}"}"#), .malformed)
        XCTAssertEqual(restore(stored.replacingFirst(ownD, with: "not+base64url")), .malformed)
    }

    func testNonceHeaderCharset() {
        XCTAssertEqual(DPoPNonces.parseHeader("eyJ7S_zG.eyJH0-Z.HX4w-7v"), "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        XCTAssertEqual(DPoPNonces.parseHeader(" \tabc \t"), "abc")
        // The edges of NQCHAR: %x21, %x23, %x5B, %x5D, %x7E.
        XCTAssertEqual(DPoPNonces.parseHeader("!#[]~"), "!#[]~")
        for bad in ["", "   ", "a b", "a\"b", "a\\b", "a\u{7F}", "caf\u{E9}", "a\u{0}b", "a\r\nb"] {
            XCTAssertNil(DPoPNonces.parseHeader(bad), bad.debugDescription)
        }
    }

    func testNonceStoreIsPerOrigin() {
        let nonces = DPoPNonces()
        XCTAssertNil(nonces.nonce(for: "https://as.example.com/token"))
        nonces.remember("n1", for: "https://as.example.com/token")
        XCTAssertEqual(nonces.nonce(for: "https://AS.example.com:443/par?x=1"), "n1")
        XCTAssertNil(nonces.nonce(for: "https://as.example.com:8443/token"))
        XCTAssertNil(nonces.nonce(for: "http://as.example.com/token"))
        XCTAssertNil(nonces.nonce(for: "https://rs.example.com/token"))
        nonces.remember("n2", for: "https://as.example.com/other")
        XCTAssertEqual(nonces.nonce(for: "https://as.example.com/token"), "n2")
        nonces.remember("not a nonce", for: "https://as.example.com/token")
        XCTAssertEqual(nonces.nonce(for: "https://as.example.com/token"), "n2")
        XCTAssertNil(nonces.nonce(for: "not a url"))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<500 {
                nonces.remember("w\(worker)-\(round)", for: "https://host\(worker % 2).example/")
                XCTAssertNotNil(nonces.nonce(for: "https://host\(worker % 2).example/"))
            }
        }
    }

    func testAsksForNonce() {
        XCTAssertTrue(DPoPNonces.asksForNonce(status: 400, oauthError: "use_dpop_nonce", wwwAuthenticate: nil))
        XCTAssertFalse(DPoPNonces.asksForNonce(status: 400, oauthError: "invalid_dpop_proof", wwwAuthenticate: nil))
        XCTAssertFalse(
            DPoPNonces.asksForNonce(status: 400, oauthError: nil, wwwAuthenticate: #"DPoP error="use_dpop_nonce""#))
        // RFC 9449 §9's example challenge.
        XCTAssertTrue(
            DPoPNonces.asksForNonce(
                status: 401, oauthError: nil,
                wwwAuthenticate:
                    #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#))
        XCTAssertTrue(
            DPoPNonces.asksForNonce(
                status: 401, oauthError: nil,
                wwwAuthenticate: #"Bearer realm="x", dpop algs="ES256 PS256", error=use_dpop_nonce"#))
        XCTAssertFalse(
            DPoPNonces.asksForNonce(status: 401, oauthError: nil, wwwAuthenticate: #"Bearer error="use_dpop_nonce""#))
        XCTAssertFalse(
            DPoPNonces.asksForNonce(status: 401, oauthError: nil, wwwAuthenticate: #"DPoP error="invalid_token""#))
        XCTAssertFalse(DPoPNonces.asksForNonce(status: 401, oauthError: "use_dpop_nonce", wwwAuthenticate: nil))
        XCTAssertFalse(
            DPoPNonces.asksForNonce(status: 403, oauthError: nil, wwwAuthenticate: #"DPoP error="use_dpop_nonce""#))
    }

    func testExternalSigner() throws {
        let held = try DPoPKey.generate()
        var jwk = held.publicJWK
        jwk.set("kid", .string("keystore-1"))
        jwk.set("use", .string("sig"))
        let signer = try HostKeySigner(algorithm: "ES256", publicJWK: jwk) {
            (input: [UInt8]) throws(TelenoridError) -> [UInt8] in
            try JWS.signature(over: String(decoding: input, as: UTF8.self), key: held.privateKey)
        }
        // Only the required members reach the header, so the thumbprint is the key's.
        XCTAssertEqual(signer.publicJWK, held.publicJWK)
        XCTAssertEqual(DPoPSigner.hostKeySigner(signer).thumbprint, held.thumbprint)
        let (header, claims) = try verified(
            try DPoPProof.make(
                signer: .hostKeySigner(signer), method: "POST", url: "https://as.example.com/token",
                accessToken: SecretBytes(Array("t".utf8)), nonce: "n", now: 7))
        XCTAssertEqual(header["alg"]?.stringValue, "ES256")
        XCTAssertEqual(header["jwk"]?.objectValue, held.publicJWK)
        XCTAssertEqual(claims["iat"]?.int64Value, 7)
        XCTAssertEqual(claims["nonce"]?.stringValue, "n")

        // A DER signature (70-odd bytes) is refused before it reaches a server; a signer's error passes through.
        let der = try HostKeySigner(algorithm: "ES256", publicJWK: jwk) { _ throws(TelenoridError) -> [UInt8] in
            [UInt8](repeating: 0x30, count: 71)
        }
        XCTAssertEqual(
            kind {
                try DPoPProof.make(signer: .hostKeySigner(der), method: "POST", url: "https://as.example.com/", now: 0)
            },
            .invalidArgument)
        let failing = try HostKeySigner(algorithm: "ES256", publicJWK: jwk) { _ throws(TelenoridError) -> [UInt8] in
            throw TelenoridError(.configuration, "keystore locked")
        }
        XCTAssertEqual(
            kind {
                try DPoPProof.make(
                    signer: .hostKeySigner(failing), method: "POST", url: "https://as.example.com/", now: 0)
            }, .configuration)

        // The RFC 7638 key as a host-held PS256 key: its thumbprint is the RFC's.
        let rsa = try HostKeySigner(
            algorithm: "PS256", publicJWK: try object(DPoPTests.rfc7638Key.replacingFirst(#""alg":"RS256","#, with: ""))
        ) { _ throws(TelenoridError) -> [UInt8] in [] }
        XCTAssertEqual(rsa.thumbprint, "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        XCTAssertEqual(rsa.publicJWK.keys, ["e", "kty", "n"])

        // Refused up front: a private JWK, a MAC algorithm, a key that can't verify the algorithm.
        let noSign: HostKeySigner.Sign = { _ throws(TelenoridError) -> [UInt8] in [] }
        let stored = try XCTUnwrap(try JSON.parse(try held.serialized().bytes)["jwk"]?.objectValue)
        XCTAssertEqual(
            kind { try HostKeySigner(algorithm: "ES256", publicJWK: stored, sign: noSign) }, .invalidArgument)
        XCTAssertEqual(kind { try HostKeySigner(algorithm: "HS256", publicJWK: jwk, sign: noSign) }, .invalidArgument)
        XCTAssertEqual(kind { try HostKeySigner(algorithm: "PS256", publicJWK: jwk, sign: noSign) }, .invalidArgument)
        XCTAssertEqual(kind { try HostKeySigner(algorithm: "none", publicJWK: jwk, sign: noSign) }, .invalidArgument)
    }
}
