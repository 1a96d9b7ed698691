import XCTest
@testable import TelenoridCore

/// ValidUTF8 replaces the standard library's String(validating:as:) on the hot paths; it must accept and
/// refuse exactly the same byte sequences.
final class ValidUTF8Tests: XCTestCase {
    private func agrees(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let ours = bytes.withUnsafeBytes { ValidUTF8.string($0) }
        let standard = String(validating: bytes, as: UTF8.self)
        XCTAssertEqual(ours, standard, "\(bytes.map { String($0, radix: 16) })", file: file, line: line)
    }

    func testEveryOneAndTwoByteSequence() {
        for a in 0...255 {
            agrees([UInt8(a)])
            for b in 0...255 { agrees([UInt8(a), UInt8(b)]) }
        }
    }

    /// Up to four bytes from the values at the edges of table 3-7's ranges, in every combination.
    func testEveryCombinationOfBoundaryBytesUpToFour() {
        let edges: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF
        ]
        for a in edges {
            for b in edges {
                agrees([a, b])
                for c in edges {
                    agrees([a, b, c])
                    for d in edges { agrees([a, b, c, d]) }
                }
            }
        }
    }

    /// Runs of ASCII long enough for the eight-bytes-at-a-time path, with a byte of every kind (ASCII,
    /// lead, continuation, invalid) at every position up to 24, and a valid sequence straddling each
    /// eight-byte boundary.
    func testLongASCIIRunsWithABreakAtEveryPosition() {
        let breaks: [[UInt8]] = [
            [0x41], [0x00], [0x7F], [0x80], [0xC3, 0xA5], [0xC3], [0xE2, 0x82, 0xAC], [0xED, 0xA0, 0x80],
            [0xF0, 0x9F, 0x98, 0x80], [0xFF]
        ]
        for length in [0, 7, 8, 9, 15, 16, 17, 24] {
            for position in 0...length {
                for inserted in breaks {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes.insert(contentsOf: inserted, at: position)
                    agrees(bytes)
                }
            }
        }
    }

    func testKnownCases() {
        agrees(Array("Åse 😀 ~".utf8))
        agrees([0xC0, 0x80])  // overlong NUL
        agrees([0xED, 0xA0, 0x80])  // a UTF-16 surrogate
        agrees([0xF4, 0x90, 0x80, 0x80])  // above U+10FFFF
        agrees([0xF0, 0x9F, 0x98])  // truncated emoji
        agrees([])
        XCTAssertEqual([UInt8]("ok".utf8).withUnsafeBytes { ValidUTF8.string($0) }, "ok")
    }
}
