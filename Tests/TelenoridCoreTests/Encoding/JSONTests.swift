import XCTest
@testable import TelenoridCore

final class JSONTests: XCTestCase {
    // MARK: Helpers

    private func parse(
        _ text: String, limits: JSONLimits = JSONLimits(),
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONValue? {
        do {
            return try JSON.parse(text, limits: limits)
        } catch {
            XCTFail("unexpected error: \(error.message)", file: file, line: line)
            return nil
        }
    }

    /// Asserts the bytes are refused and returns the error for further checks.
    @discardableResult
    private func assertRejects(
        _ bytes: [UInt8], limits: JSONLimits = JSONLimits(), containing fragment: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONParseError? {
        do {
            let value = try JSON.parse(bytes, limits: limits)
            XCTFail(
                "accepted \(JSON.serialize(value)) from \(String(decoding: bytes, as: UTF8.self))", file: file,
                line: line)
            return nil
        } catch {
            if let fragment {
                XCTAssertTrue(
                    error.message.contains(fragment), "message \"\(error.message)\" lacks \"\(fragment)\"",
                    file: file, line: line)
            }
            XCTAssertTrue(error.message.hasSuffix("at offset \(error.offset)"), error.message, file: file, line: line)
            return error
        }
    }

    @discardableResult
    private func assertRejects(
        _ text: String, limits: JSONLimits = JSONLimits(), containing fragment: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> JSONParseError? {
        assertRejects(Array(text.utf8), limits: limits, containing: fragment, file: file, line: line)
    }

    private func assertRoundTrips(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let value = parse(text, file: file, line: line) else { return }
        XCTAssertEqual(JSON.serialize(value), text, file: file, line: line)
    }

    private func nested(_ depth: Int, open: String, close: String, inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    // MARK: Valid documents

    func testScalarsRoundTrip() {
        for text in [
            "null", "true", "false", "0", "-0", "1", "-1", "3.25", "-0.5e-7", "1E+2", "6.02e23",
            "\"\"", "\"hello\"", "[]", "{}"
        ] {
            assertRoundTrips(text)
        }
    }

    func testDocumentsRoundTrip() {
        for text in [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
            #"[1,[2,[3,[4]]],{"x":[]},{}]"#,
            #"{"z":1,"a":2,"m":3}"#,
            #"{"emoji":"😀","accent":"é","cjk":"日本","slash":"a/b"}"#,
            #"{"":""}"#,
            #"["\"quoted\"","back\\slash","\n\r\t\b\f","\u0000\u001f"]"#
        ] {
            assertRoundTrips(text)
        }
    }

    func testWhitespaceIsAllowedAndDropped() {
        let text = " \t\r\n{ \"a\" : [ 1 , 2 ] ,\n\t\"b\" : { } } \n"
        guard let value = parse(text) else { return }
        XCTAssertEqual(JSON.serialize(value), #"{"a":[1,2],"b":{}}"#)
    }

    func testStringAndByteEntryPointsAgree() throws {
        let text = #"{"iss":"https://id.example.com","n":[1,2.5]}"#
        XCTAssertEqual(try JSON.parse(text), try JSON.parse(Array(text.utf8)))
    }

    func testMembersKeepDocumentOrder() throws {
        let value = try JSON.parse(#"{"c":1,"a":2,"b":3}"#)
        XCTAssertEqual(value.objectValue?.keys, ["c", "a", "b"])
        XCTAssertEqual(value.objectValue?.count, 3)
    }

    // MARK: RFC 8259 examples

    func testRFC8259ObjectExample() throws {
        let text = """
            {
              "Image": {
                  "Width":  800,
                  "Height": 600,
                  "Title":  "View from 15th Floor",
                  "Thumbnail": {
                      "Url":    "http://www.example.com/image/481989943",
                      "Height": 125,
                      "Width":  100
                  },
                  "Animated" : false,
                  "IDs": [116, 943, 234, 38793]
                }
            }
            """
        let value = try JSON.parse(text)
        let image = value["Image"]
        XCTAssertEqual(image?["Width"]?.int64Value, 800)
        XCTAssertEqual(image?["Title"]?.stringValue, "View from 15th Floor")
        XCTAssertEqual(image?["Thumbnail"]?["Url"]?.stringValue, "http://www.example.com/image/481989943")
        XCTAssertEqual(image?["Animated"]?.boolValue, false)
        XCTAssertEqual(image?["IDs"]?.arrayValue?.compactMap(\.int64Value), [116, 943, 234, 38793])
        XCTAssertEqual(
            JSON.serialize(value),
            #"{"Image":{"Width":800,"Height":600,"Title":"View from 15th Floor","Thumbnail":{"Url":"http://www.example.com/image/481989943","Height":125,"Width":100},"Animated":false,"IDs":[116,943,234,38793]}}"#
        )
    }

    func testRFC8259ArrayExample() throws {
        let text = """
            [
              {
                 "precision": "zip",
                 "Latitude":  37.7668,
                 "Longitude": -122.3959,
                 "Address":   "",
                 "City":      "SAN FRANCISCO",
                 "State":     "CA",
                 "Zip":       "94107",
                 "Country":   "US"
              },
              {
                 "precision": "zip",
                 "Latitude":  37.371991,
                 "Longitude": -122.026020,
                 "Address":   "",
                 "City":      "SUNNYVALE",
                 "State":     "CA",
                 "Zip":       "94085",
                 "Country":   "US"
              }
            ]
            """
        let value = try JSON.parse(text)
        XCTAssertEqual(value.arrayValue?.count, 2)
        guard case .number(let longitude)? = value.arrayValue?.last?["Longitude"] else {
            return XCTFail("no longitude")
        }
        // The lexeme is kept, trailing zero included.
        XCTAssertEqual(longitude.text, "-122.026020")
        XCTAssertEqual(longitude.double, -122.02602)
        XCTAssertNil(longitude.int64)
    }

    func testRFC8259SmallTexts() throws {
        XCTAssertEqual(try JSON.parse(#""Hello world!""#), .string("Hello world!"))
        XCTAssertEqual(try JSON.parse("42").int64Value, 42)
        XCTAssertEqual(try JSON.parse("true"), .bool(true))
    }

    // MARK: Duplicate members

    func testDuplicateKeyRejected() {
        let error = assertRejects(#"{"a":1,"a":2}"#, containing: #"duplicate member "a""#)
        XCTAssertEqual(error?.offset, 7)
        XCTAssertEqual(error?.message, #"duplicate member "a" at offset 7"#)
    }

    func testEscapedDuplicateKeyRejected() {
        assertRejects(#"{"a":1,"\u0061":2}"#, containing: #"duplicate member "a""#)
        assertRejects(#"{"a/b":1,"a\/b":2}"#, containing: "duplicate member")
        assertRejects(#"{"😀":1,"\ud83d\ude00":2}"#, containing: "duplicate member")
    }

    func testJOSEHeaderWithRepeatedAlgRejected() {
        let error = assertRejects(#"{"alg":"RS256","alg":"none"}"#)
        XCTAssertEqual(error?.message, #"duplicate member "alg" at offset 15"#)
    }

    func testNestedDuplicateRejectedButSameKeyInSiblingsAllowed() throws {
        assertRejects(#"{"a":{"b":1,"c":2,"b":3}}"#, containing: #"duplicate member "b""#)
        let value = try JSON.parse(#"[{"a":1},{"a":2}]"#)
        XCTAssertEqual(value.arrayValue?.count, 2)
        XCTAssertEqual(try JSON.parse(#"{"a":{"a":{"a":1}}}"#)["a"]?["a"]?["a"]?.int64Value, 1)
    }

    func testDuplicateInLargeObjectRejected() {
        // Past the size where JSONObject switches to a hash index.
        var text = "{"
        for n in 0..<200 { text += "\"k\(n)\":\(n)," }
        text += "\"k137\":0}"
        assertRejects(text, containing: #"duplicate member "k137""#)
    }

    func testCanonicallyEquivalentKeysRejected() {
        // U+00E9 and e + U+0301 are the same Swift String; accepting both would make lookups ambiguous.
        assertRejects("{\"\u{E9}\":1,\"e\u{301}\":2}", containing: "duplicate member")
    }

    func testDuplicateKeyMessageIsEscapedAndShortened() {
        let longKey = String(repeating: "x", count: 500)
        let error = assertRejects("{\"\(longKey)\":1,\"\(longKey)\":2}")
        XCTAssertLessThan(error?.message.utf8.count ?? 1000, 120)
        let control = assertRejects(#"{"a\nb":1,"a\u000ab":2}"#)
        XCTAssertEqual(control?.message.contains("\n"), false)
        XCTAssertEqual(control?.message.contains(#""a\nb""#), true)
    }

    // MARK: Depth

    func testDepth64AcceptedAnd65Rejected() throws {
        XCTAssertNoThrow(try JSON.parse(nested(64, open: "[", close: "]")))
        XCTAssertNoThrow(try JSON.parse(nested(64, open: "[", close: "]", inner: "1")))
        assertRejects(nested(65, open: "[", close: "]"), containing: "nesting deeper than 64")
        assertRejects(nested(65, open: "[", close: "]", inner: "1"), containing: "nesting deeper than 64")

        XCTAssertNoThrow(try JSON.parse(nested(63, open: #"{"a":"#, close: "}", inner: "{}")))
        assertRejects(nested(64, open: #"{"a":"#, close: "}", inner: "{}"), containing: "nesting")
        XCTAssertNoThrow(try JSON.parse(nested(32, open: #"[{"a":"#, close: "}]", inner: "1")))
        assertRejects(nested(32, open: #"[{"a":"#, close: "}]", inner: "[]"), containing: "nesting")
    }

    func testDepthRejectionOffsetPointsAtTheOpeningBracket() {
        XCTAssertEqual(assertRejects(nested(65, open: "[", close: "]"))?.offset, 64)
    }

    func testCustomDepthLimit() {
        let limits = JSONLimits(maxDepth: 2)
        XCTAssertNoThrow(try JSON.parse(#"[[1],{"a":[]},{}]"#, limits: JSONLimits(maxDepth: 3)))
        XCTAssertNoThrow(try JSON.parse(#"[[1],{"a":1},[]]"#, limits: limits))
        assertRejects("[[[1]]]", limits: limits, containing: "nesting deeper than 2")
        XCTAssertNoThrow(try JSON.parse("1", limits: JSONLimits(maxDepth: 0)))
        assertRejects("[]", limits: JSONLimits(maxDepth: 0), containing: "nesting")
    }

    func testVeryDeepInputRejectedWithoutCrashing() {
        let deep = String(repeating: "[", count: 500_000)
        assertRejects(deep, containing: "nesting")
        // Even with the depth limit lifted the parser is iterative, so the input just runs out.
        assertRejects(
            String(repeating: "[{\"a\":", count: 100_000),
            limits: JSONLimits(maxDepth: Int.max), containing: "unexpected end of input")
    }

    // MARK: Structure

    func testTrailingGarbageRejected() {
        assertRejects("{} x", containing: "after the value")
        assertRejects("1 2", containing: "after the value")
        assertRejects("[1]]", containing: "after the value")
        assertRejects("truex", containing: "after the value")
        assertRejects("nullnull", containing: "after the value")
        assertRejects(#""a""b""#, containing: "after the value")
        assertRejects([UInt8(ascii: "1"), 0x00], containing: "byte 0x00")
        XCTAssertEqual(assertRejects("{}  ,")?.offset, 4)
    }

    func testEmptyAndWhitespaceOnlyRejected() {
        assertRejects("", containing: "unexpected end of input")
        assertRejects(" \n\t\r", containing: "unexpected end of input")
    }

    func testOnlyRFCWhitespaceAllowed() {
        assertRejects("\u{0C}1")  // form feed
        assertRejects("\u{0B}1")  // vertical tab
        assertRejects("\u{A0}1")  // no-break space
        assertRejects("\u{FEFF}{}")  // byte order mark
        assertRejects("[1,\u{2028}2]")
    }

    func testMalformedStructuresRejected() {
        assertRejects("[1,]", containing: "expected a value")
        assertRejects(#"{"a":1,}"#, containing: "expected a member name")
        assertRejects("[1 2]", containing: "expected ',' or ']'")
        assertRejects(#"{"a" 1}"#, containing: "expected ':'")
        assertRejects(#"{"a":1 "b":2}"#, containing: "expected ',' or '}'")
        assertRejects("{a:1}", containing: "expected a member name")
        assertRejects("{'a':1}")
        assertRejects("['a']")
        assertRejects("[1", containing: "unexpected end of input")
        assertRejects(#"{"a":1"#, containing: "unexpected end of input")
        assertRejects(#"{"a":"#, containing: "unexpected end of input")
        assertRejects(#"{"a""#, containing: "unexpected end of input")
        assertRejects("{", containing: "unexpected end of input")
        assertRejects("]")
        assertRejects("[}")
        assertRejects(#"{"a":1]"#)
        assertRejects("[1,,2]")
        assertRejects("[,]")
        assertRejects("/* c */ 1")
        assertRejects("[1] // c")
        assertRejects("undefined")
    }

    func testLiteralsMustBeExact() {
        for text in ["True", "FALSE", "Null", "tru", "fals", "nul", "t", "nulL", "[tru]", "nan"] {
            assertRejects(text)
        }
        XCTAssertEqual(assertRejects("[tru]", containing: "expected true")?.offset, 1)
    }

    // MARK: Numbers

    func testNumberGrammarRejections() {
        let cases: [(String, String)] = [
            ("01", "leading zero"), ("-01", "leading zero"), ("00", "leading zero"), ("[007]", "leading zero"),
            ("-", "expected a digit"), ("-a", "expected a digit"), ("1.", "after the decimal point"),
            ("1.e5", "after the decimal point"), ("1e", "exponent"), ("1e+", "exponent"), ("1E-", "exponent"),
            ("-Infinity", "expected a digit")
        ]
        for (text, fragment) in cases {
            assertRejects(text, containing: fragment)
        }
        for text in ["+1", ".5", "NaN", "Infinity", "0x10", "1_000", "--1", "1.5.2", "1e5e5", "0.0.0", "1,5"] {
            assertRejects(text)
        }
    }

    func testNumbersAcceptedAsLexemes() throws {
        for text in ["0", "-0", "0.0", "-0.0", "0e0", "0E-0", "1e999", "-1.5E+10", "123456789012345678901234567890"] {
            guard case .number(let number) = try JSON.parse(text) else { return XCTFail(text) }
            XCTAssertEqual(number.text, text)
        }
    }

    func testBigIntegersKeepTheirText() throws {
        let value = try JSON.parse(#"{"a":9007199254740993,"b":12345678901234567890}"#)
        guard case .number(let a)? = value["a"], case .number(let b)? = value["b"] else {
            return XCTFail("not numbers")
        }
        XCTAssertEqual(a.text, "9007199254740993")
        XCTAssertEqual(a.int64, 9_007_199_254_740_993)
        XCTAssertEqual(b.text, "12345678901234567890")
        XCTAssertNil(b.int64)
        XCTAssertNil(value["b"]?.int64Value)
        XCTAssertEqual(JSON.serialize(value), #"{"a":9007199254740993,"b":12345678901234567890}"#)
    }

    func testInt64Boundaries() throws {
        XCTAssertEqual(try JSON.parse("9223372036854775807").int64Value, Int64.max)
        XCTAssertNil(try JSON.parse("9223372036854775808").int64Value)
        XCTAssertEqual(try JSON.parse("-9223372036854775808").int64Value, Int64.min)
        XCTAssertNil(try JSON.parse("-9223372036854775809").int64Value)
        XCTAssertEqual(try JSON.parse("-0").int64Value, 0)
        XCTAssertNil(try JSON.parse("1.0").int64Value)
        XCTAssertNil(try JSON.parse("1e2").int64Value)
        XCTAssertNil(try JSON.parse("1E2").int64Value)
        XCTAssertNil(try JSON.parse("\"1\"").int64Value)
    }

    func testRoundedDownReadsFractionsAndExponentsDownToWholeNumbers() {
        let cases: [(String, Int64?)] = [
            ("1700000000", 1_700_000_000), ("1700000000.9", 1_700_000_000), ("3599.999", 3599), ("1e3", 1000),
            ("0.5", 0), ("-0.5", -1), ("-1.5", -2), ("-2.0", -2), ("-0", 0), ("9223372036854775807", Int64.max),
            ("9.3e18", nil), ("-9.3e18", nil), ("1e400", nil)
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONNumber(text: text)?.roundedDown(), expected, text)
        }
        // A bound below 2^63 applies to values that are not plain integers.
        XCTAssertNil(JSONNumber(text: "2e17")?.roundedDown(magnitudeBelow: 1e17))
        XCTAssertEqual(JSONNumber(text: "1.5e16")?.roundedDown(magnitudeBelow: 1e17), 15_000_000_000_000_000)
    }

    func testJSONNumberInitializers() {
        XCTAssertEqual(JSONNumber(text: "-12.5e3")?.text, "-12.5e3")
        XCTAssertEqual(JSONNumber(text: "-12.5e3")?.double, -12500)
        for bad in ["", " 1", "1 ", "+1", "01", ".5", "1.", "NaN", "Infinity", "0x1", "1e", "١"] {
            XCTAssertNil(JSONNumber(text: bad), bad)
        }
        XCTAssertEqual(JSONNumber(Int64.min).text, "-9223372036854775808")
        XCTAssertEqual(JSONNumber(42).int64, 42)
        XCTAssertEqual(JSONNumber(0), JSONNumber(text: "0"))
        XCTAssertNotEqual(JSONNumber(text: "1"), JSONNumber(text: "1.0"))
    }

    func testDoubleConversion() {
        XCTAssertEqual(JSONNumber(text: "0.1")?.double, 0.1)
        XCTAssertEqual(JSONNumber(text: "9007199254740993")?.double, 9_007_199_254_740_992)
        XCTAssertNil(JSONNumber(text: "1e999")?.double)
        XCTAssertNil(JSONNumber(text: "-1e999")?.double)
        XCTAssertEqual(JSONNumber(text: "1e-999")?.double, 0)
    }

    // MARK: Strings

    func testAllEscapesDecode() throws {
        let value = try JSON.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#)
        XCTAssertEqual(value.stringValue, "\"\\/\u{8}\u{C}\n\r\tA\u{E9}\u{20AC}\u{1F600}\u{0}")
    }

    func testRawUnicodePassesThrough() throws {
        XCTAssertEqual(try JSON.parse("\"é日😀\u{7F}\"").stringValue, "é日😀\u{7F}")
    }

    func testLoneSurrogatesRejected() {
        for text in [
            #""\uD800""#, #""\udc00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\uDBFF\uDBFF""#,
            #""\uDE00\uD83D""#, #""\uD83D\n""#, #""\uD83D"#, #""a\uDFFFb""#
        ] {
            assertRejects(text, containing: "surrogate")
        }
        XCTAssertEqual(assertRejects(#"["ab\uD800"]"#)?.message, #"lone surrogate \ud800 at offset 4"#)
    }

    func testBadEscapesRejected() {
        for text in [
            #""\x41""#, #""\a""#, #""\'""#, #""\U0041""#, #""\u00G0""#, #""\u12""#, #""\u""#, #""\"#,
            "\"\\\u{0}\""
        ] {
            assertRejects(text)
        }
        assertRejects(#""\u12""#, containing: "four hex digits")
        assertRejects(#""\q""#, containing: "invalid escape")
    }

    func testControlCharactersInStringsRejected() {
        for byte: UInt8 in [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F] {
            let error = assertRejects([0x22, 0x61, byte, 0x62, 0x22], containing: "control character")
            XCTAssertEqual(error?.offset, 2)
        }
        assertRejects("{\"a\tb\":1}", containing: "control character")
    }

    /// The parser passes eight plain bytes of a string at a time: a quote, an escape, a control character or
    /// a non-ASCII byte must be seen wherever it falls in such a word, and a run must end where the string does.
    func testEveryKindOfByteIsSeenWhereverItFallsInAWord() throws {
        for offset in 0..<17 {
            let run = String(repeating: "a", count: offset), after = String(repeating: "b", count: 9)
            for (written, read) in [
                (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), (#"\u00e9"#, "é"), ("é", "é"), ("\u{7F}", "\u{7F}"),
                ("", "")
            ] {
                let inArray = try JSON.parse("[\"\(run)\(written)\(after)\"]").arrayValue?.first
                XCTAssertEqual(inArray?.stringValue, run + read + after)
                XCTAssertEqual(try JSON.parse("\"\(run)\(written)\"").stringValue, run + read)
            }
            for byte: UInt8 in [0x00, 0x1F, 0x80, 0xC3, 0xFF] {
                let text = [0x22] + Array(run.utf8) + [byte] + Array(after.utf8) + [0x22]
                let error = assertRejects(text)
                XCTAssertEqual(error?.offset, 1 + offset, "\(byte) at \(offset)")
            }
            assertRejects([0x22] + Array(run.utf8), containing: "unterminated string")
        }
    }

    func testUnterminatedStringRejected() {
        XCTAssertEqual(assertRejects(#"["abc"#, containing: "unterminated string")?.offset, 1)
        assertRejects(#""abc\""#, containing: "unterminated string")
    }

    func testInvalidUTF8Rejected() {
        let cases: [[UInt8]] = [
            [0xFF],  // never valid
            [0x80],  // stray continuation
            [0xC0, 0xAF],  // overlong '/'
            [0xC1, 0xBF],  // overlong
            [0xE0, 0x80, 0xAF],  // overlong 3-byte
            [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
            [0xED, 0xA0, 0x80],  // encoded surrogate U+D800
            [0xED, 0xBF, 0xBF],  // encoded surrogate U+DFFF
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82],  // truncated
            [0xE2, 0x28, 0xA1],  // bad continuation
            [0xF0, 0x9F, 0x98],  // truncated emoji
            [0xC3]  // truncated at the closing quote
        ]
        for bytes in cases {
            assertRejects([0x22] + bytes + [0x22], containing: "UTF-8")
            assertRejects([0x7B, 0x22] + bytes + [0x22, 0x3A, 0x31, 0x7D], containing: "UTF-8")
        }
        // Truncated at end of input, and non-ASCII outside any string.
        assertRejects([0x22, 0xE2, 0x82], containing: "UTF-8")
        assertRejects([0xC3, 0xA9])
        assertRejects([0x5B, 0xFF, 0x5D])
        XCTAssertEqual(assertRejects([0x22, 0x61, 0xC0, 0xAF, 0x22])?.offset, 2)
    }

    func testValidUTF8BoundariesAccepted() throws {
        let cases: [([UInt8], String)] = [
            ([0xC2, 0x80], "\u{80}"), ([0xDF, 0xBF], "\u{7FF}"), ([0xE0, 0xA0, 0x80], "\u{800}"),
            ([0xED, 0x9F, 0xBF], "\u{D7FF}"), ([0xEE, 0x80, 0x80], "\u{E000}"), ([0xEF, 0xBF, 0xBF], "\u{FFFF}"),
            ([0xF0, 0x90, 0x80, 0x80], "\u{10000}"), ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}")
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(try JSON.parse([0x22] + bytes + [0x22]).stringValue, expected)
        }
    }

    // MARK: Size limits

    func testOversizedInputRejected() {
        let big = "\"" + String(repeating: "a", count: (1 << 20) - 1) + "\""
        XCTAssertEqual(assertRejects(big, containing: "exceeds the limit of 1048576 bytes")?.offset, 0)
        XCTAssertEqual(try JSON.parse(String(big.dropLast(2)) + "\"").stringValue?.utf8.count, (1 << 20) - 2)
        assertRejects(Array("[1,2,3]".utf8), limits: JSONLimits(maxBytes: 6), containing: "input of 7 bytes")
        XCTAssertNoThrow(try JSON.parse("[1,2,3]", limits: JSONLimits(maxBytes: 7)))
    }

    func testStringLengthLimitCountsDecodedBytes() {
        let limits = JSONLimits(maxStringBytes: 4)
        XCTAssertNoThrow(try JSON.parse(#"["abcd","\u00e9\u00e9"]"#, limits: limits))
        assertRejects(#"["abcde"]"#, limits: limits, containing: "string of 5 bytes")
        assertRejects(#"{"abcde":1}"#, limits: limits, containing: "string of 5 bytes")
        assertRejects(#"["ab\u00e9\n"]"#, limits: limits, containing: "string of 5 bytes")
    }

    // MARK: Serializer

    func testSerializerEscapes() {
        let value = JSONValue.string("q\"b\\s/\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é😀\u{2028}")
        XCTAssertEqual(JSON.serialize(value), #""q\"b\\s/\u0000\u0001\b\t\n\f\r\u001f"# + "\u{7F}é😀\u{2028}\"")
        XCTAssertEqual(try JSON.parse(JSON.serialize(value)), value)
    }

    func testSerializerEscapesKeysAndBuiltValues() throws {
        var object = JSONObject()
        object.set("line\nbreak", .null)
        object.set("n", .number(JSONNumber(-5)))
        object.set("list", .array([.bool(true), .string("x"), .object(JSONObject())]))
        let text = JSON.serialize(.object(object))
        XCTAssertEqual(text, #"{"line\nbreak":null,"n":-5,"list":[true,"x",{}]}"#)
        XCTAssertEqual(try JSON.parse(text), .object(object))
    }

    func testSerializerHandlesDeepBuiltValues() {
        var value = JSONValue.null
        for _ in 0..<10_000 { value = .array([value]) }
        let text = JSON.serialize(value)
        XCTAssertEqual(text, String(repeating: "[", count: 10_000) + "null" + String(repeating: "]", count: 10_000))
    }

    // MARK: JSONObject and accessors

    func testObjectSetKeepsPosition() {
        var object = JSONObject()
        XCTAssertEqual(object.count, 0)
        object.set("a", .number(JSONNumber(1)))
        object.set("b", .number(JSONNumber(2)))
        object.set("a", .string("replaced"))
        XCTAssertEqual(object.keys, ["a", "b"])
        XCTAssertEqual(object.count, 2)
        XCTAssertEqual(object["a"], .string("replaced"))
        XCTAssertNil(object["c"])
        XCTAssertEqual(object.members.first?.key, "a")
    }

    func testLargeObjectLookupAndSet() throws {
        var object = JSONObject()
        for n in 0..<100 { object.set("k\(n)", .number(JSONNumber(Int64(n)))) }
        object.set("k50", .null)
        object.set("k5", .bool(true))
        XCTAssertEqual(object.count, 100)
        XCTAssertEqual(object["k99"]?.int64Value, 99)
        XCTAssertEqual(object["k50"], .null)
        XCTAssertEqual(object.keys[5], "k5")
        XCTAssertEqual(object["k5"], .bool(true))
        XCTAssertNil(object["k100"])
        let reparsed = try JSON.parse(JSON.serialize(.object(object)))
        XCTAssertEqual(reparsed, .object(object))
        XCTAssertEqual(reparsed["k77"]?.int64Value, 77)
    }

    func testObjectEqualityIsOrderSensitive() throws {
        XCTAssertEqual(try JSON.parse(#"{"a":1,"b":2}"#), try JSON.parse(#"{ "a" : 1 , "b" : 2 }"#))
        XCTAssertNotEqual(try JSON.parse(#"{"a":1,"b":2}"#), try JSON.parse(#"{"b":2,"a":1}"#))
        XCTAssertNotEqual(try JSON.parse(#"{"a":1}"#), try JSON.parse(#"{"a":1,"b":2}"#))
        XCTAssertNotEqual(try JSON.parse(#"{"a":1}"#), try JSON.parse(#"{"a":2}"#))
    }

    func testValueAccessors() throws {
        let value = try JSON.parse(#"{"s":"x","b":true,"i":7,"a":[1],"o":{"k":null},"n":null}"#)
        XCTAssertEqual(value["s"]?.stringValue, "x")
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["i"]?.int64Value, 7)
        XCTAssertEqual(value["a"]?.arrayValue, [.number(JSONNumber(1))])
        XCTAssertEqual(value["o"]?.objectValue?.keys, ["k"])
        XCTAssertEqual(value["o"]?["k"], .null)
        XCTAssertEqual(value["n"], .null)
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["s"]?["anything"])
        XCTAssertNil(value["a"]?["0"])
        XCTAssertNil(value["s"]?.boolValue)
        XCTAssertNil(value["b"]?.stringValue)
        XCTAssertNil(value["i"]?.arrayValue)
        XCTAssertNil(value["a"]?.objectValue)
        XCTAssertNil(value["o"]?.int64Value)
    }

    // MARK: OIDC-shaped documents

    func testDiscoveryAndJWKDocuments() throws {
        let discovery = try JSON.parse(
            """
            {"issuer":"https://id.example.com","authorization_endpoint":"https://id.example.com\\/authorize",
             "jwks_uri":"https://id.example.com/jwks","response_types_supported":["code"],
             "code_challenge_methods_supported":["S256"],"request_parameter_supported":false}
            """)
        XCTAssertEqual(discovery["authorization_endpoint"]?.stringValue, "https://id.example.com/authorize")
        XCTAssertEqual(discovery["request_parameter_supported"]?.boolValue, false)
        let jwks = try JSON.parse(
            #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#
        )
        XCTAssertEqual(jwks["keys"]?.arrayValue?.first?["crv"]?.stringValue, "P-256")
    }

    // MARK: Secret members

    func testSecretObjectMembersComeBackAsTheirTextAndStayOutOfTheValue() throws {
        let text = #"{"a":1,"key":{"v":1,"jwk":{"d":"s\"e\u0063ret","n":[1,{}]}},"empty":{},"b":"x"}"#
        let (value, secrets) = try JSON.parse(
            Array(text.utf8), secretMembers: ["token"], secretObjectMembers: ["key", "empty"])
        XCTAssertEqual(secrets["key"]?.string, #"{"v":1,"jwk":{"d":"s\"e\u0063ret","n":[1,{}]}}"#)
        XCTAssertEqual(secrets["empty"]?.string, "{}")
        XCTAssertEqual(JSON.serialize(value), #"{"a":1,"b":"x"}"#)
        // Not an object: left in the value for the caller to refuse.
        let (other, none) = try JSON.parse(
            Array(#"{"key":"text"}"#.utf8), secretMembers: [], secretObjectMembers: ["key"])
        XCTAssertEqual(other.objectValue?["key"]?.stringValue, "text")
        XCTAssertTrue(none.isEmpty)
    }

    func testSecretObjectMembersAreCheckedLikeAnyValue() {
        for bad in [
            #"{"key":{"d":"x",}}"#, #"{"key":{"d":"x","d":"y"}}"#, #"{"key":{"d":"\q"}}"#, #"{"key":{},"key":{}}"#,
            #"{"key":{"d":1"#
        ] {
            XCTAssertThrowsError(try JSON.parse(Array(bad.utf8), secretMembers: [], secretObjectMembers: ["key"]), bad)
        }
        // Only a top-level member is kept aside.
        let nested = try? JSON.parse(
            Array(#"{"o":{"key":{"d":"x"}}}"#.utf8), secretMembers: [], secretObjectMembers: ["key"])
        XCTAssertEqual(nested.map { JSON.serialize($0.0) }, #"{"o":{"key":{"d":"x"}}}"#)
    }

    func testEveryObjectMemberCanBeKeptAsText() throws {
        let text = #"{"prod":{"client_secret":"p","n":{"x":[1]}},"n":1,"test":{},"s":"x"}"#
        let (value, kept) = try JSON.parse(Array(text.utf8), secretMembers: [], secretObjectMembers: .all)
        XCTAssertEqual(kept["prod"]?.string, #"{"client_secret":"p","n":{"x":[1]}}"#)
        XCTAssertEqual(kept["test"]?.string, "{}")
        XCTAssertEqual(kept.count, 2)
        XCTAssertEqual(JSON.serialize(value), #"{"n":1,"s":"x"}"#)
        XCTAssertThrowsError(
            try JSON.parse(Array(#"{"a":{},"a":{}}"#.utf8), secretMembers: [], secretObjectMembers: .all))
    }
}
