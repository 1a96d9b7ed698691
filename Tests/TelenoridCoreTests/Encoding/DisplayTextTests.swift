import XCTest
@testable import TelenoridCore

final class DisplayTextTests: XCTestCase {
    func testControlsAndBidiFormattingAreEscapedVisibly() {
        XCTAssertEqual(DisplayText.escaping("plain text, ÆØÅ and 日本 \\ stay"), "plain text, ÆØÅ and 日本 \\ stay")
        XCTAssertEqual(DisplayText.escaping("\u{1B}]0;owned\u{07}"), "\\x1B]0;owned\\x07")
        XCTAssertEqual(DisplayText.escaping("a\r\nb\tc\u{0}d\u{7F}"), "a\\x0D\\x0Ab\\x09c\\x00d\\x7F")
        XCTAssertEqual(DisplayText.escaping("\u{85}\u{9B}31m"), "\\x85\\x9B31m")
        XCTAssertEqual(DisplayText.escaping("user\u{202E}gnp.exe"), "user\\u202Egnp.exe")
        XCTAssertEqual(
            DisplayText.escaping("\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}"),
            "\\u202A\\u202B\\u202C\\u202D\\u2066\\u2067\\u2068\\u2069")
        XCTAssertEqual(
            DisplayText.escaping("\u{2028}\u{2029}\u{200E}\u{200F}\u{61C}"), "\\u2028\\u2029\\u200E\\u200F\\u061C")
        XCTAssertEqual(DisplayText.escaping("\u{A0}\u{2065}\u{206A}\u{2027}"), "\u{A0}\u{2065}\u{206A}\u{2027}")
        // Escaping twice changes nothing more: a message that quotes a message stays readable.
        let once = DisplayText.escaping("x\u{1B}[2Jy")
        XCTAssertEqual(DisplayText.escaping(once), once)
    }
}
