import XCTest
@testable import TelenoridCore

final class LoginHintTests: XCTestCase {
    private func assertRefused<T>(_ expression: @autoclosure () throws -> T, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument, "\($0)", line: line)
        }
    }

    func testPhoneNumbersAreE164Only() throws {
        XCTAssertEqual(try LoginHint.phoneNumber("+4790000000"), "tel:+4790000000")
        XCTAssertEqual(try LoginHint.phoneNumber("+1"), "tel:+1")
        XCTAssertEqual(try LoginHint.phoneNumber("+123456789012345"), "tel:+123456789012345")
        for refused in [
            "4790000000", "+", "+0790000000", "+1234567890123456", "+47 900 00 000", "tel:+4790000000",
            "+47-90000000", "", "+４７"
        ] {
            assertRefused(try LoginHint.phoneNumber(refused))
        }
    }

    func testIPPortTakesIPv4AndIPv6WithAPort() throws {
        XCTAssertEqual(try LoginHint.ipPort(address: "84.125.93.10", port: 59028), "ipport:84.125.93.10:59028")
        XCTAssertEqual(
            try LoginHint.ipPort(address: "2001:db8:85a3:8d3:1319:8a2e:370:7344", port: 12345),
            "ipport:[2001:db8:85a3:8d3:1319:8a2e:370:7344]:12345")
        XCTAssertEqual(try LoginHint.ipPort(address: "2001:db8::1", port: 1), "ipport:[2001:db8::1]:1")
        XCTAssertEqual(
            try LoginHint.ipPort(address: "::ffff:192.0.2.1", port: 65535), "ipport:[::ffff:192.0.2.1]:65535")
        XCTAssertEqual(try LoginHint.ipPort(address: "::", port: 80), "ipport:[::]:80")
        for address in [
            "256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "[2001:db8::1]", "2001:db8:::1",
            "1::2::3", "2001:db8::1%eth0", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "host.example", "", "12345::",
            "192.0.2.1\u{0}.5", "2001:db8::1\u{0}"
        ] {
            assertRefused(try LoginHint.ipPort(address: address, port: 5555))
        }
        assertRefused(try LoginHint.ipPort(address: "192.0.2.1", port: 0))
        assertRefused(try LoginHint.ipPort(address: "192.0.2.1", port: 65536))
        assertRefused(try LoginHint.ipPort(address: "192.0.2.1", port: -1))
    }

    func testOperatorTokensAreNonEmptyPrintableASCII() throws {
        XCTAssertEqual(try LoginHint.operatorToken("A-Tk_3.x~/+="), "operatortoken:A-Tk_3.x~/+=")
        for refused in ["", "two words", "tab\there", "ünicode"] { assertRefused(try LoginHint.operatorToken(refused)) }
    }

    func testTheFormOfAHintIsOneOfTheThreeOrNone() throws {
        XCTAssertEqual(try LoginHint.form(of: "tel:+4790000000"), .phoneNumber)
        XCTAssertEqual(try LoginHint.form(of: "ipport:203.0.113.7:5555"), .ipPort)
        XCTAssertEqual(try LoginHint.form(of: "ipport:[2001:db8::7]:5555"), .ipPort)
        XCTAssertEqual(try LoginHint.form(of: "operatortoken:abc"), .operatorToken)
        for refused in [
            "tel:4790000000", "tel:+47 90000000", "ipport:203.0.113.7", "ipport:2001:db8::7:5555",
            "ipport:[2001:db8::7]", "ipport:203.0.113.7:0", "ipport:203.0.113.7:05555", "ipport:203.0.113.7:70000",
            "operatortoken:", "mailto:user@example.com", "user@example.com", "TEL:+4790000000", "", "ipport:[]:80"
        ] {
            assertRefused(try LoginHint.form(of: refused))
        }
    }
}
