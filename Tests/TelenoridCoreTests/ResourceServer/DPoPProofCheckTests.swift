import XCTest
@testable import TelenoridCore

/// RFC 9449 §4.3 and §7.1 checks of DPoP proofs at a resource server, on proofs the library's own
/// DPoPProof makes (and, for the rules DPoPProof never breaks, proofs signed here with the same key), and
/// on RFC 9449's published example proof (§7.1, Figure 13).
final class DPoPProofCheckTests: XCTestCase {
    private let time = TestClock()
    private let provider = KeyProvider()
    private let url = "https://rs.example.com/api/items"
    private let token = SecretBytes(Array("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU".utf8))
    private var now: Int64 { time.now.load(ordering: .relaxed) }

    private func server() throws -> ResourceServer {
        try ResourceServer(client: try provider.client(time), audience: "https://rs.example.com/")
    }

    private func proof(
        _ key: DPoPKey, method: String = "GET", url: String? = nil, nonce: String? = nil, iat: Int64? = nil
    ) throws -> String {
        try DPoPProof.make(
            signer: .key(key), method: method, url: url ?? self.url, accessToken: token, nonce: nonce, now: iat ?? now)
    }

    /// A proof signed with `key` whose header and claims are DPoPProof's with `header` and `claims` changes
    /// applied (nil removes a member): for the rules DPoPProof itself never breaks.
    private func crafted(
        _ key: DPoPKey, header changes: [String: JSONValue?] = [:], claims claimChanges: [String: JSONValue?] = [:]
    ) throws -> String {
        let parts = try proof(key).split(separator: ".").map(String.init)
        func applying(_ changes: [String: JSONValue?], to part: String) throws -> JSONObject {
            let object = try XCTUnwrap(JSON.parse(Array(XCTUnwrap(Base64URL.decode(part)))).objectValue)
            var changed = JSONObject()
            for name in object.keys where changes[name] == nil { changed.set(name, try XCTUnwrap(object[name])) }
            for (name, value) in changes { if let value { changed.set(name, value) } }
            return changed
        }
        let header = try applying(changes, to: parts[0])
        let claims = try applying(claimChanges, to: parts[1])
        let input = JWS.signingInput(header: header, payload: Array(JSON.serialize(.object(claims)).utf8))
        return input + "." + Base64URL.encode(try JWS.signature(over: input, key: key.privateKey))
    }

    private func assertRefused(
        _ proof: String, _ rule: String, code: String = "invalid_dpop_proof", server: ResourceServer? = nil,
        key: DPoPKey, method: String = "GET", url: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let rs = try server ?? self.server()
        XCTAssertThrowsError(
            try rs.verifyDPoPProof(
                proof, method: method, url: url ?? self.url, accessToken: token, jkt: key.thumbprint),
            file: file, line: line
        ) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .tokenInvalid, "\($0)", file: file, line: line)
            XCTAssertEqual(error?.oauthError, code, file: file, line: line)
            // RFC 6750 §3: error_description is printable ASCII without `"` and `\`, ready for the challenge.
            XCTAssertTrue(
                error?.oauthErrorDescription?.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }
                    == true, "\(error?.oauthErrorDescription ?? "")", file: file, line: line)
            XCTAssertTrue(
                error?.oauthErrorDescription?.contains(rule) == true, "\(error?.message ?? "") lacks \(rule)",
                file: file, line: line)
        }
    }

    func testProofsTheLibraryMakesVerifyForEachKeyType() throws {
        for algorithm in DPoPKey.algorithms {
            let key = try DPoPKey.generate(algorithm: algorithm)
            XCTAssertEqual(
                try server().verifyDPoPProof(
                    try proof(key), method: "GET", url: url, accessToken: token, jkt: key.thumbprint),
                key.thumbprint)
        }
    }

    func testHtuIsComparedWithoutQueryAndFragmentAfterNormalisation() throws {
        let key = try DPoPKey.generate()
        let rs = try server()
        // The proof names the URL in another spelling of the same resource (RFC 3986 §6.2.2, §6.2.3).
        let proof = try crafted(key, claims: ["htu": .string("HTTPS://RS.Example.COM:443/api/./x/../%69tems")])
        try rs.verifyDPoPProof(proof, method: "GET", url: url + "?page=2#top", accessToken: token, jkt: key.thumbprint)
        try assertRefused(
            try self.proof(key, url: "https://rs.example.com/api/other"), "htu", server: rs, key: key)
        try assertRefused(try self.proof(key, url: "http://rs.example.com/api/items"), "htu", key: key)
        try assertRefused(try self.proof(key, url: "https://rs.example.com:8443/api/items"), "htu", key: key)
    }

    func testEveryRuleOfRFC9449Section4_3IsRefusedNamingIt() throws {
        let key = try DPoPKey.generate()
        // Check 2: not a JWT; claims not an object.
        try assertRefused("not-a-jwt", "check 2", key: key)
        let header = try proof(key).split(separator: ".")[0]
        let sig = try proof(key).split(separator: ".")[2]
        try assertRefused("\(header).\(Base64URL.encode(Array("[1]".utf8))).\(sig)", "check 2", key: key)
        // Check 3: each required claim, and ath at a resource server (§7.1).
        for name in ["jti", "htm", "htu", "iat", "ath"] {
            try assertRefused(try crafted(key, claims: [name: nil]), "no \(name)", key: key)
        }
        // Check 4: typ.
        try assertRefused(try crafted(key, header: ["typ": .string("JWT")]), "check 4", key: key)
        try assertRefused(try crafted(key, header: ["typ": nil]), "check 4", key: key)
        // Check 5: a MAC algorithm, none, and an asymmetric one the server does not allow.
        try assertRefused(try crafted(key, header: ["alg": .string("HS256")]), "check 5", key: key)
        try assertRefused(try crafted(key, header: ["alg": .string("none")]), "check 5", key: key)
        let edOnly = try server()
        try edOnly.set(.dpopAlgorithms, "EdDSA")
        try assertRefused(try proof(key), "check 5", server: edOnly, key: key)
        // Check 6: a signature that does not verify (the header of one key, the signature of another).
        let other = try DPoPKey.generate()
        let forged =
            try proof(key).split(separator: ".").prefix(2).joined(separator: ".") + "."
            + String(try proof(other).split(separator: ".")[2])
        try assertRefused(forged, "check 6", key: key)
        // Check 7: no jwk, a private member, a key that is no key.
        try assertRefused(try crafted(key, header: ["jwk": nil]), "check 7", key: key)
        var withPrivate = key.publicJWK
        withPrivate.set("d", .string("AAAA"))
        try assertRefused(try crafted(key, header: ["jwk": .object(withPrivate)]), "private key member, d", key: key)
        var notAKey = key.publicJWK
        notAKey.set("x", .string("AAAA"))
        try assertRefused(try crafted(key, header: ["jwk": .object(notAKey)]), "check 7", key: key)
        // Check 8: htm (case-sensitive, RFC 9110 §9.1).
        try assertRefused(try proof(key, method: "POST"), "check 8", key: key)
        try assertRefused(try proof(key, method: "get"), "check 8", key: key)
        // Check 9: htu (above, and one that is no URL).
        try assertRefused(try crafted(key, claims: ["htu": .string("items")]), "check 9", key: key)
        // Check 11: iat too old or ahead of the clock tolerance (120 s by default).
        try assertRefused(try proof(key, iat: now - DPoPReplayCache.defaultWindow - 1), "check 11", key: key)
        try assertRefused(try proof(key, iat: now + 121), "check 11", key: key)
        try server().verifyDPoPProof(
            try proof(key, iat: now - DPoPReplayCache.defaultWindow), method: "GET", url: url, accessToken: token,
            jkt: key.thumbprint)
        // Check 12: ath of another token, a key other than the token's.
        try assertRefused(
            try crafted(key, claims: ["ath": .string(Base64URL.encode(Crypto.sha256("other".utf8)))]), "check 12",
            key: key)
        XCTAssertThrowsError(
            try server().verifyDPoPProof(
                try proof(key), method: "GET", url: url, accessToken: token, jkt: other.thumbprint)
        ) {
            XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "invalid_dpop_proof")
            XCTAssertTrue(($0 as? TelenoridError)?.oauthErrorDescription?.contains("cnf.jkt") == true)
        }
    }

    func testAReplayedProofIsRefusedAndSharingTheCacheSharesTheRefusal() throws {
        let key = try DPoPKey.generate()
        let (first, second) = (try server(), try server())
        let cache = try DPoPReplayCache(window: 30, capacity: 8)
        first.useDPoPReplayCache(cache)
        second.useDPoPReplayCache(cache)
        let proof = try self.proof(key)
        try first.verifyDPoPProof(proof, method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        try assertRefused(proof, "replayed", server: first, key: key)
        try assertRefused(proof, "replayed", server: second, key: key)
        // A server with a cache of its own has not seen it.
        try server().verifyDPoPProof(proof, method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        // The window is the cache's: 31 s later the proof is too old rather than a replay.
        time.now.add(31, ordering: .relaxed)
        try assertRefused(proof, "check 11", server: second, key: key)
    }

    func testAFullCacheRefusesRatherThanForgetsALiveProof() throws {
        let key = try DPoPKey.generate()
        let rs = try server()
        rs.useDPoPReplayCache(try DPoPReplayCache(window: 10, capacity: 2))
        for _ in 0..<2 {
            try rs.verifyDPoPProof(try proof(key), method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        }
        XCTAssertThrowsError(
            try rs.verifyDPoPProof(try proof(key), method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        ) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .temporarilyUnavailable) }
        // Once the window has passed the stale ones make room.
        time.now.add(11, ordering: .relaxed)
        try rs.verifyDPoPProof(try proof(key), method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        XCTAssertThrowsError(try DPoPReplayCache(window: 0)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try DPoPReplayCache(capacity: 0)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
        }
    }

    func testNoncesAreHandedOutRotatedAndChecked() throws {
        let key = try DPoPKey.generate()
        let rs = try server()
        let cache = try DPoPReplayCache(window: 60)
        rs.useDPoPReplayCache(cache)
        try rs.set(.dpopRequireNonce, "true")
        try assertRefused(try proof(key), "no nonce", code: "use_dpop_nonce", server: rs, key: key)
        let nonce = try rs.dpopNonce()
        XCTAssertEqual(DPoPNonces.parseHeader(nonce), nonce)
        try assertRefused(try proof(key, nonce: "made-up"), "current", code: "use_dpop_nonce", server: rs, key: key)
        try rs.verifyDPoPProof(
            try proof(key, nonce: nonce), method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        // The next window has a new nonce; the one before is still taken, the one before that is not.
        time.now.add(60, ordering: .relaxed)
        XCTAssertNotEqual(try rs.dpopNonce(), nonce)
        try rs.verifyDPoPProof(
            try proof(key, nonce: nonce), method: "GET", url: url, accessToken: token, jkt: key.thumbprint)
        time.now.add(60, ordering: .relaxed)
        try assertRefused(try proof(key, nonce: nonce), "current", code: "use_dpop_nonce", server: rs, key: key)
        // A server sharing the cache makes and takes the same nonces; one with its own cache does not.
        let sharing = try server()
        sharing.useDPoPReplayCache(cache)
        XCTAssertEqual(try sharing.dpopNonce(), try rs.dpopNonce())
        let own = try server()
        XCTAssertNotEqual(try own.dpopNonce(), try rs.dpopNonce())
        XCTAssertThrowsError(try rs.set(.dpopRequireNonce, "yes"))
    }

    func testTheTokenInfoGivesTheKeyAndAnUnboundTokenIsAnInvalidToken() throws {
        let key = try DPoPKey.generate()
        var cnf = JSONObject()
        cnf.set("jkt", .string(key.thumbprint))
        var claims = JSONObject()
        claims.set("active", .bool(true))
        claims.set("cnf", .object(cnf))
        let bound = try TokenInfo(introspection: claims, what: "test")
        try server().verifyDPoPProof(try proof(key), method: "GET", url: url, accessToken: token, tokenInfo: bound)
        claims = JSONObject()
        claims.set("active", .bool(true))
        let unbound = try TokenInfo(introspection: claims, what: "test")
        XCTAssertThrowsError(
            try server().verifyDPoPProof(
                try proof(key), method: "GET", url: url, accessToken: token, tokenInfo: unbound)
        ) { XCTAssertEqual(($0 as? TelenoridError)?.oauthError, "invalid_token") }
    }

    func testTheServersOwnRequestIsAnArgumentNotARefusal() throws {
        let key = try DPoPKey.generate()
        for (method, url) in [("", url), ("G T", url), ("GET", "/api/items"), ("GET", "ftp://rs.example.com/")] {
            XCTAssertThrowsError(
                try server().verifyDPoPProof(
                    try proof(key), method: method, url: url, accessToken: token, jkt: key.thumbprint)
            ) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument) }
        }
    }

    /// RFC 9449 §7.1, Figure 13: the proof that accompanies the access token of Figure 12 in a GET of
    /// https://resource.example.org/protectedresource, made at 1562262618 with the key whose thumbprint
    /// §6.1 shows as the token's cnf.jkt.
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19"
        + ".eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9"
        + ".2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"
    static let rfcJKT = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

    func testRFC9449sExampleProofVerifies() throws {
        time.now.store(1_562_262_618, ordering: .relaxed)
        let rs = try server()
        let rfcURL = "https://resource.example.org/protectedresource"
        XCTAssertEqual(
            try rs.verifyDPoPProof(Self.rfcProof, method: "GET", url: rfcURL, accessToken: token, jkt: Self.rfcJKT),
            Self.rfcJKT)
        XCTAssertThrowsError(
            try rs.verifyDPoPProof(Self.rfcProof, method: "GET", url: rfcURL, accessToken: token, jkt: Self.rfcJKT)
        ) { XCTAssertTrue(($0 as? TelenoridError)?.oauthErrorDescription?.contains("replayed") == true) }
        XCTAssertThrowsError(
            try server().verifyDPoPProof(
                Self.rfcProof, method: "GET", url: rfcURL, accessToken: SecretBytes(Array("other".utf8)),
                jkt: Self.rfcJKT))
    }
}
