import XCTest
@testable import TelenoridCore

final class PKCETests: XCTestCase {
    // RFC 7636 Appendix B.
    func testRFC7636AppendixBVector() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(pkce.s256Challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        XCTAssertEqual(pkce.challenge(.plain), "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    func testGeneratedVerifiersHaveTheAskedLengthAndAlphabet() throws {
        for length in [43, 64, 100, 128] {
            let pkce = try PKCE(length: length)
            XCTAssertEqual(pkce.verifier.count, length)
            XCTAssertTrue(pkce.verifier.bytes.allSatisfy(PercentEncoding.isUnreserved))
            XCTAssertEqual(pkce.s256Challenge.utf8.count, 43)
        }
    }

    func testGeneratedVerifiersDiffer() throws {
        let first = try PKCE(), second = try PKCE()
        XCTAssertNotEqual(first.verifier.string, second.verifier.string)
    }

    func testVerifiersAreBase64URLWithEveryCharacterDrawn() throws {
        // Random bytes in base64url (RFC 7636 §4.1): 64 characters over 30 × 128 draws, missing one has
        // odds far below 1e-50; "." and "~", unreserved but not base64url, never appear.
        var seen = Set<UInt8>()
        for _ in 0..<30 { seen.formUnion(try PKCE(length: 128).verifier.bytes) }
        XCTAssertEqual(seen, Set(PKCE.base64URLAlphabet))
        XCTAssertEqual(seen.count, 64)
    }

    func testVerifierIsTheBase64URLOfItsRandomBytes() {
        // RFC 7636 Appendix B's 32 octets give its 43-character verifier (the 33rd byte only fills the last group).
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121, 0
        ]
        let pkce = octets.withUnsafeBytes { PKCE(length: 43, random: $0) }
        XCTAssertEqual(pkce.verifier.string, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(pkce.s256Challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        XCTAssertEqual(PKCE.randomByteCount(length: 43), 33)
        XCTAssertEqual(PKCE.randomByteCount(length: 128), 96)
    }

    func testOutOfRangeLengthsAndBadVerifiersAreRefused() {
        for length in [0, 42, 129, -1, Int.max] {
            XCTAssertThrowsError(try PKCE(length: length)) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
            }
        }
        let tooShort = String(repeating: "a", count: 42)
        let withSpace = String(repeating: "a", count: 42) + " "
        let nonASCII = String(repeating: "a", count: 42) + "é"
        for verifier in [
            tooShort, withSpace, nonASCII, String(repeating: "a", count: 129), "+" + String(repeating: "a", count: 50)
        ] {
            XCTAssertThrowsError(try PKCE(verifier: verifier))
        }
    }
}
