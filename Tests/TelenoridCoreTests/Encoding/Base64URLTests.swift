import XCTest
@testable import TelenoridCore

final class Base64URLTests: XCTestCase {
    // RFC 4648 §10 vectors, in the URL-safe alphabet without padding.
    func testRFC4648Vectors() {
        let vectors = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")
        ]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64URL.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64URL.decode(encoded), Array(plain.utf8))
        }
    }

    // RFC 7515 §3.3: the JWS Protected Header of the example.
    func testRFC7515ExampleHeader() {
        let header: [UInt8] = [
            123, 34, 116, 121, 112, 34, 58, 34, 74, 87, 84, 34, 44, 13, 10, 32, 34, 97, 108, 103, 34,
            58, 34, 72, 83, 50, 53, 54, 34, 125
        ]
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
