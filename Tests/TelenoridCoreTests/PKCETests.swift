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

    func testEveryAlphabetCharacterIsDrawn() throws {
        // 66 characters over 30 × 128 draws: missing one has odds far below 1e-50.
        var seen = Set<UInt8>()
        for _ in 0..<30 { seen.formUnion(try PKCE(length: 128).verifier.bytes) }
        XCTAssertEqual(seen.count, 66)
    }

    func testEveryCharacterIsDrawnByExactlyThreeByteValues() {
        // Uniform: 198 of the 256 byte values are accepted, three per character; the other 58 are rejected.
        var counts: [UInt8: Int] = [:]
        for character in PKCE.characterOfByte where character != 0 { counts[character, default: 0] += 1 }
        XCTAssertEqual(counts.count, 66)
        XCTAssertTrue(counts.values.allSatisfy { $0 == 3 })
        XCTAssertEqual(PKCE.characterOfByte[198...].filter { $0 != 0 }, [])
    }

    func testOutOfRangeLengthsAndBadVerifiersAreRefused() {
        for length in [0, 42, 129, -1, Int.max] {
            XCTAssertThrowsError(try PKCE(length: length)) { XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument) }
        }
        let tooShort = String(repeating: "a", count: 42)
        let withSpace = String(repeating: "a", count: 42) + " "
        let nonASCII = String(repeating: "a", count: 42) + "é"
        for verifier in [tooShort, withSpace, nonASCII, String(repeating: "a", count: 129), "+" + String(repeating: "a", count: 50)] {
            XCTAssertThrowsError(try PKCE(verifier: verifier))
        }
    }
}

final class Base64URLTests: XCTestCase {
    // RFC 4648 §10 vectors, in the URL-safe alphabet without padding.
    func testRFC4648Vectors() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
                       ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64URL.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64URL.decode(encoded), Array(plain.utf8))
        }
    }

    // RFC 7515 §3.3: the JWS Protected Header of the example.
    func testRFC7515ExampleHeader() {
        let header: [UInt8] = [123, 34, 116, 121, 112, 34, 58, 34, 74, 87, 84, 34, 44, 13, 10, 32, 34, 97, 108, 103, 34,
                               58, 34, 72, 83, 50, 53, 54, 34, 125]
        XCTAssertEqual(Base64URL.encode(header), "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9")
        XCTAssertEqual(Base64URL.decode("eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"), header)
    }

    func testStrictDecodingRefusesPaddingForeignAlphabetAndStrayBits() {
        for bad in ["Zg==", "Zm9v+", "Zm9v/", "Z", "Zh", "Zm9 v", "Zm9vYmF"] {
            XCTAssertNil(Base64URL.decode(bad), bad)
        }
        XCTAssertEqual(Base64URL.decode("-_8"), [0xFB, 0xFF])
    }
}
