import XCTest
@testable import TelenoridCore

final class CryptoTests: XCTestCase {
    private func hex(_ bytes: [UInt8]?) -> String? {
        let digits = Array("0123456789abcdef")
        return bytes.map { String($0.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }) }
    }

    /// FIPS 180-4's "abc" examples (NIST's published SHA example values), through the name of each JWS
    /// algorithm whose at_hash / c_hash uses that hash (OIDC Core §3.1.3.6).
    func testDigestsOfTheJWSAlgorithmsAreFIPS180Values() {
        let abc = Array("abc".utf8)
        let sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let sha384 =
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            + "8086072ba1e7cc2358baeca134c825a7"
        let sha512 =
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
            + "454d4423643ce80e2a9ac94fa54ca49f"
        for algorithm in ["RS256", "PS256", "ES256", "HS256"] {
            XCTAssertEqual(hex(Crypto.digest(forJWSAlgorithm: algorithm, abc)), sha256, algorithm)
        }
        for algorithm in ["RS384", "PS384", "ES384", "HS384"] {
            XCTAssertEqual(hex(Crypto.digest(forJWSAlgorithm: algorithm, abc)), sha384, algorithm)
        }
        for algorithm in ["RS512", "PS512", "ES512", "HS512", "EdDSA"] {
            XCTAssertEqual(hex(Crypto.digest(forJWSAlgorithm: algorithm, abc)), sha512, algorithm)
        }
        XCTAssertEqual(hex(Crypto.sha256(abc)), sha256)
        XCTAssertNil(Crypto.digest(forJWSAlgorithm: "none", abc))
        XCTAssertNil(Crypto.digest(forJWSAlgorithm: "rs256", abc), "names are case-sensitive (RFC 7515 §4.1.1)")
    }

    func testConstantTimeEqualsComparesContentAndLength() {
        XCTAssertTrue(Crypto.constantTimeEquals(Array("token".utf8), Array("token".utf8)))
        XCTAssertTrue(Crypto.constantTimeEquals([UInt8](), [UInt8]()))
        XCTAssertFalse(Crypto.constantTimeEquals(Array("token".utf8), Array("tokeN".utf8)))
        XCTAssertFalse(Crypto.constantTimeEquals(Array("token".utf8), Array("token2".utf8)), "a prefix is not equal")
        XCTAssertFalse(Crypto.constantTimeEquals(Array("".utf8), Array("x".utf8)))
    }

    func testRandomBytesHaveTheLengthAskedAndDoNotRepeat() throws {
        let first = try Crypto.randomBytes(32)
        let second = try Crypto.randomBytes(32)
        XCTAssertEqual(first.count, 32)
        XCTAssertNotEqual(first, second, "two 256-bit draws colliding means the generator is broken")
        XCTAssertEqual(try Crypto.randomBytes(0), [])
    }

    func testWipeZeroesTheArrayInPlace() {
        var bytes: [UInt8] = Array("a refresh token".utf8)
        let count = bytes.count
        Crypto.wipe(&bytes)
        XCTAssertEqual(bytes, [UInt8](repeating: 0, count: count))
    }

    func testSecretBytesFilledInPlaceHoldWhatWasWritten() {
        let secret = SecretBytes(count: 4) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(ascii: "a") + UInt8(index) }
        }
        XCTAssertEqual(secret.string, "abcd")
        XCTAssertEqual(secret.count, 4)
    }
}
