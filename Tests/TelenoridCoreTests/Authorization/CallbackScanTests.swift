import XCTest
@testable import TelenoridCore

/// handleCallback reads plain redirects with CallbackScan and leaves the rest to parseCallback; either way a
/// redirect must give what parseCallback alone gives: the same code and parameters, or the same error.
final class CallbackScanTests: XCTestCase {
    let state = "218gz18yveu1ybajwh2g1h3g"

    func pending(_ extra: [ClientConfiguration.Setting: String] = [:], fragment: Bool = false) throws
        -> PendingAuthorization
    {
        var request = AuthorizationRequest(configuration: try testConfiguration(extra))
        if fragment { try request.set(.responseMode, "fragment") }
        return try request.build(state: state, nonce: "n", pkce: try PKCE())
    }

    /// What a redirect gives on a fresh request: its code and parameters, or its error.
    enum Outcome: Equatable {
        case callback(code: String, parameters: FormParameters)
        case failure(TelenoridError.Kind, String, oauthError: String?, description: String?)
    }

    func outcome(_ body: () throws(TelenoridError) -> AuthorizationCallback) -> Outcome {
        do {
            let callback = try body()
            return .callback(code: callback.code, parameters: callback.parameters)
        } catch {
            return .failure(
                error.kind, error.message, oauthError: error.oauthError, description: error.oauthErrorDescription)
        }
    }

    func assertSameAsFullParse(
        _ redirect: String, _ extra: [ClientConfiguration.Setting: String] = [:],
        fragment: Bool = false, line: UInt = #line
    ) throws {
        let fast = try pending(extra, fragment: fragment), full = try pending(extra, fragment: fragment)
        XCTAssertEqual(
            outcome { () throws(TelenoridError) in try fast.handleCallback(redirect) },
            outcome { () throws(TelenoridError) in try full.parseCallback(redirect) }, redirect, line: line)
        XCTAssertEqual(fast.isConsumed, full.isConsumed, redirect, line: line)
    }

    func testPlainRedirectsAreScannedAndGiveWhatTheFullParseGives() throws {
        let base = "telenorid-example://authcallback/"
        let plain = [
            "?code=SplxlOBeZQQYbYS6WxSbIA&state=\(state)&scope=openid",
            "?state=\(state)&code=abc%2Fdef+g&scope=openid+profile%20email&session_state=x%3Dy",
            "?code=c&state=\(state)&iss=https%3A%2F%2Fid.example.com",
            "?code=c&state=\(state)&iss=https://id.example.com&&empty=&flag"
        ]
        for query in plain {
            XCTAssertNotNil(try pending().acceptPlainCallback(base + query), query)
            try assertSameAsFullParse(base + query)
        }
        XCTAssertNotNil(try pending(fragment: true).acceptPlainCallback(base + "#code=c&state=\(state)"))
    }

    func testEverythingElseGivesWhatTheFullParseGives() throws {
        let base = "telenorid-example://authcallback/"
        let others = [
            // Not the configured redirect URI byte for byte, yet the same place, or another place.
            "TELENORID-EXAMPLE://authcallback/?code=c&state=\(state)",
            "telenorid-example://authcallback?code=c&state=\(state)",
            "telenorid-example://authcallback/x?code=c&state=\(state)",
            "telenorid-example://other/?code=c&state=\(state)",
            "telenorid-example://authcallback/", "telenorid-example://auth", "::::", "",
            // Escaped, repeated or empty names; escapes that are malformed, NUL or not ASCII.
            base + "?code=c&st%61te=\(state)", base + "?code=c&state=\(state)&code=d",
            base + "?code=c&state=\(state)&st%61te=x",
            base + "?code=c&state=\(state)&=x", base + "?code=%zz&state=\(state)", base + "?code=c%0&state=\(state)",
            base + "?code=c%00d&state=\(state)", base + "?code=c&state=\(state)&scope=%C3%A6",
            base + "?code=c&state=\(state)&scope=%FF",
            base + "?code=c d&state=\(state)", base + "?code=c&state=\(state)&scope=æ",
            base + "?code=c\\d&state=\(state)",
            // The state, the issuer, the code and the error answer.
            base + "?code=c&state=other", base + "?code=c", base + "?code=c&state=\(state.dropLast())",
            base + "?code=c&state=218gz18yveu1ybajwh2g1h3%67",
            base + "?code=c&state=\(state)&iss=https%3A%2F%2Fevil.example",
            base + "?code=c&state=\(state)&iss=https://id.example.com/", base + "?code=&state=\(state)",
            base + "?state=\(state)",
            base + "?error=access_denied&error_description=User+said+no&state=\(state)",
            base + "?error=access_denied&state=other",
            // Query and fragment.
            base + "?code=c&state=\(state)#frag%zz", base + "#code=c&state=\(state)", base + "?code=c#state=\(state)"
        ]
        for redirect in others { try assertSameAsFullParse(redirect) }
        for redirect in [
            base + "#code=c&state=\(state)", base + "?code=c&state=\(state)", base + "?x=%zz#code=c&state=\(state)",
            base + "?code=c&state=\(state)#code=d&state=\(state)"
        ] {
            try assertSameAsFullParse(redirect, fragment: true)
        }
        let fapi2: [ClientConfiguration.Setting: String] = [.securityProfile: "fapi2", .dpopSigningAlgorithm: "ES256"]
        try assertSameAsFullParse(base + "?code=c&state=\(state)", fapi2)
        try assertSameAsFullParse(base + "?code=c&state=\(state)&iss=https%3A%2F%2Fid.example.com", fapi2)
    }

    /// The scan passes eight bytes of the query at a time while none needs a look: each byte that does must
    /// be seen wherever it falls in such a word, and the scan must still give what the full parse gives.
    func testEveryByteIsSeenWhereverItFallsInAWord() throws {
        let base = "telenorid-example://authcallback/?code="
        for offset in 0..<9 {
            let run = String(repeating: "a", count: offset), after = String(repeating: "b", count: 16)
            for byte in [
                " ", "\\", "#", "%", "%zz", "%00", "%41", "%C3%A6", "+", "&", "=", "\"", "\u{7F}", "\u{1F}", "æ", "~"
            ] {
                try assertSameAsFullParse(base + run + byte + after + "&state=\(state)")
            }
        }
    }

    /// What CallbackScan reads of `redirect` (nil when it leaves it to the full parse), beside what
    /// URI(parsing:) and FormParameters(parsing:) read of its query.
    func readings(_ redirect: String) throws -> (scan: FormParameters, fields: [String?], full: FormParameters)? {
        var text = redirect, prefix = "telenorid-example://authcallback/"
        let scanned: (FormParameters, [String?])? = text.withUTF8 { bytes in
            prefix.withUTF8 { prefix in
                guard let scan = CallbackScan(bytes, redirectURI: prefix, inFragment: false) else { return nil }
                return (
                    CallbackScan.parameters(bytes, in: scan.component),
                    [scan.state, scan.code, scan.iss, scan.error].map { $0.map(scan.decoded) }
                )
            }
        }
        guard let (parameters, fields) = scanned else { return nil }
        return (parameters, fields, try FormParameters(parsing: (try URI(parsing: redirect).query ?? "")[...]))
    }

    func testTheScanReadsPlainRedirectsAsTheFullParseDoes() throws {
        let base = "telenorid-example://authcallback/?"
        let plain = [
            "code=c&state=\(state)&&&flag&empty=&a==b=&plus=+&escapes=%2B%25%26%3D%23%20%7E&",
            "&state=\(state)&iss=https%3A%2F%2Fid.example.com&code=%41+b#frag%41+x",
            "error=access_denied&error_description=User+said+%22no%22&state=\(state)",
            "x"
        ]
        for query in plain {
            let reading = try XCTUnwrap(try readings(base + query), query)
            XCTAssertEqual(reading.scan, reading.full, query)
            XCTAssertEqual(reading.fields, ["state", "code", "iss", "error"].map { reading.full[$0] }, query)
        }
        let reading = try XCTUnwrap(
            try readings(base + "&state=\(state)&iss=https%3A%2F%2Fid.example.com&code=%41+b#f"))
        XCTAssertEqual(reading.scan.pairs.map(\.name), ["state", "iss", "code"])
        XCTAssertEqual(reading.scan["code"], "A b")
        XCTAssertEqual(reading.scan["iss"], "https://id.example.com")
    }

    func testAScannedCallbacksParametersAreTheFullParses() throws {
        let redirect =
            "telenorid-example://authcallback/?code=%41+b&state=\(state)&&flag&scope=openid%20profile&x=a=b#f"
        let scanned = try XCTUnwrap(try pending().acceptPlainCallback(redirect))
        let full = try pending().parseCallback(redirect)
        XCTAssertEqual(scanned.code, "A b")
        XCTAssertEqual(scanned.parameters, full.parameters)
        XCTAssertEqual(scanned.parameters.pairs.map(\.name), ["code", "state", "flag", "scope", "x"])
        XCTAssertEqual(scanned.parameters["x"], "a=b")
    }

    /// The scan's reading of parameters has no way to fail, whatever bytes and range it is given: an
    /// escape cut short by the end of the range stands for itself and nothing is read past it.
    func testReadingParametersNeverFails() {
        func read(_ text: String, _ range: Range<Int>) -> [String] {
            var text = text
            return text.withUTF8 { CallbackScan.parameters($0, in: range).pairs.map { "\($0.name)=\($0.value)" } }
        }
        XCTAssertEqual(read("a=%4", 0..<4), ["a=%4"])
        XCTAssertEqual(read("a=%41", 0..<4), ["a=%4"])
        XCTAssertEqual(read("a=%41", 0..<5), ["a=A"])
        XCTAssertEqual(read("a=%", 0..<3), ["a=%"])
        XCTAssertEqual(read("a=%zz&a=%FF", 0..<11), ["a=%zz", "a=\u{FFFD}"])
        XCTAssertEqual(read("a=b", 1..<99), ["=b"])
        XCTAssertEqual(read("a=b", 0..<0), [])
    }

    func testAnsweredRequestIsRefusedTheSecondTime() throws {
        let p = try pending()
        let redirect = "telenorid-example://authcallback/?code=c&state=\(state)"
        XCTAssertEqual(try p.handleCallback(redirect).code, "c")
        XCTAssertEqual(
            outcome { () throws(TelenoridError) in try p.handleCallback(redirect) },
            .failure(.consumed, "this authorization request was already answered", oauthError: nil, description: nil))
    }
}
