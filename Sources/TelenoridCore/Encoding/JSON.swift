// A strict RFC 8259 JSON parser and compact serializer for documents that come from untrusted servers
// (discovery documents, JWKS, token responses, JOSE headers). Standard library only.
//
// Strictness is deliberate: two parsers that read the same bytes differently (duplicate members,
// lenient numbers, repaired UTF-8) are how signed-token and header-confusion attacks work, so anything
// RFC 8259 does not allow is refused rather than guessed at.

/// A JSON number kept as its exact lexeme so integers are never rounded.
public struct JSONNumber: Sendable, Equatable {
    /// The number exactly as written. Equality compares this text, so `1` and `1.0` differ.
    public let text: String

    /// Accepts exactly the RFC 8259 `number` production and nothing else (no surrounding space).
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard case .success(let end) = JSONGrammar.scanNumber(bytes, from: 0), end == bytes.count else {
            return nil
        }
        self.text = text
    }

    public init(_ value: Int64) {
        text = String(value)
    }

    // For lexemes the parser has already checked against the grammar.
    fileprivate init(validated text: String) {
        self.text = text
    }

    /// The value when the lexeme is a plain integer (no fraction, no exponent) that fits in Int64.
    public var int64: Int64? {
        // Only plain integers: `1e2` or `1.0` are refused so callers never see an integer the server
        // did not literally send.
        let notPlain = text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if notPlain { return nil }
        // The grammar rules out `+` and other forms Int64's own parser would accept; it reports
        // overflow as nil.
        return Int64(text, radix: 10)
    }

    /// The nearest Double, or nil when the magnitude is too large to be finite.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object, nil otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number when it is a plain integer within Int64 range; see `JSONNumber.int64`.
    public var int64Value: Int64? {
        if case .number(let value) = self { return value.int64 }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// Members in document order; keys unique (enforced by parser and by the mutating API).
///
/// Keys are compared with Swift `String` equality, i.e. canonically equivalent spellings (`"é"` as
/// U+00E9 or as `e` + U+0301) are the same key. The parser therefore refuses such pairs as duplicates,
/// which is stricter than RFC 8259 but keeps every lookup unambiguous.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)]
    // Key -> position, kept only for large objects: small ones (the usual case) are faster to scan
    // than to hash, while large ones from a hostile server must not make lookups quadratic.
    private var index: [String: Int]
    private static let indexThreshold = 16

    public init() {
        members = []
        index = [:]
    }

    public subscript(key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        return members[position].value
    }

    public var keys: [String] { members.map(\.key) }

    public var count: Int { members.count }

    /// Sets or replaces a member, keeping the position of an existing key.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let position = position(of: key) {
            members[position].value = value
        } else {
            appendNew(key, value)
        }
    }

    fileprivate func position(of key: String) -> Int? {
        if members.count > Self.indexThreshold { return index[key] }
        return members.firstIndex(where: { $0.key == key })
    }

    // Callers guarantee `key` is absent.
    fileprivate mutating func appendNew(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
        if members.count > Self.indexThreshold {
            if index.isEmpty {
                for (position, member) in members.enumerated() { index[member.key] = position }
            } else {
                index[key] = members.count - 1
            }
        }
    }

    /// Same members with equal values in the same order (order matters so equal objects serialize
    /// identically).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// Bounds on what the parser will accept. Values and their destruction are recursive, so keep
/// `maxDepth` modest (the default suits every OIDC document).
public struct JSONLimits: Sendable {
    /// Deepest nesting of arrays and objects; a top-level `[]` has depth 1.
    public var maxDepth: Int = 64
    /// Largest input, in UTF-8 bytes.
    public var maxBytes: Int = 1 << 20
    /// Longest string (member names included) after unescaping, in UTF-8 bytes.
    public var maxStringBytes: Int = 1 << 20

    public init(maxDepth: Int = 64, maxBytes: Int = 1 << 20, maxStringBytes: Int = 1 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.maxStringBytes = maxStringBytes
    }
}

public struct JSONParseError: Error, Sendable, Equatable {
    /// Human-readable, ending in "at offset N".
    public let message: String
    /// Byte offset into the input where the problem was found.
    public let offset: Int

    init(_ what: String, at offset: Int) {
        message = "\(what) at offset \(offset)"
        self.offset = offset
    }
}

public enum JSON {
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        try parse(bytes, secretMembers: [], limits: limits).0
    }

    /// Parses a document whose top-level object's string members named in `secretMembers` (a token
    /// response's access_token and refresh_token) are decoded straight into wiping storage and left out
    /// of the value: as Strings they would stay in freed memory once the response is read.
    public static func parse(_ bytes: [UInt8], secretMembers: Set<String>,
                             limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> (JSONValue, [String: SecretBytes]) {
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError("input of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes", at: 0)
        }
        var parser = JSONParser(input: bytes, limits: limits, secretMembers: secretMembers)
        let value = try parser.parseDocument()
        return (value, parser.secrets)
    }

    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        // Check the size before copying so an oversized string costs nothing.
        let count = text.utf8.count
        guard count <= limits.maxBytes else {
            throw JSONParseError("input of \(count) bytes exceeds the limit of \(limits.maxBytes) bytes", at: 0)
        }
        return try parse(Array(text.utf8), limits: limits)
    }

    /// Compact JSON: no whitespace, members in order, numbers as their lexemes, only `"`, `\` and
    /// control characters escaped.
    public static func serialize(_ value: JSONValue) -> String {
        // Iterative so values built in code (not bounded by the parser's depth limit) cannot exhaust
        // the stack here.
        enum Task {
            case value(JSONValue)
            case key(String)
            case byte(UInt8)
        }
        var out: [UInt8] = []
        var tasks: [Task] = [.value(value)]
        while let task = tasks.popLast() {
            switch task {
            case .byte(let byte):
                out.append(byte)
            case .key(let key):
                JSONGrammar.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
            case .value(.null):
                out.append(contentsOf: "null".utf8)
            case .value(.bool(let flag)):
                out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .value(.number(let number)):
                out.append(contentsOf: number.text.utf8)
            case .value(.string(let string)):
                JSONGrammar.appendQuoted(string, to: &out)
            case .value(.array(let elements)):
                out.append(UInt8(ascii: "["))
                tasks.append(.byte(UInt8(ascii: "]")))
                // Pushed in reverse so they pop in document order.
                for (position, element) in elements.enumerated().reversed() {
                    tasks.append(.value(element))
                    if position > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                }
            case .value(.object(let object)):
                out.append(UInt8(ascii: "{"))
                tasks.append(.byte(UInt8(ascii: "}")))
                for (position, member) in object.members.enumerated().reversed() {
                    tasks.append(.value(member.value))
                    tasks.append(.key(member.key))
                    if position > 0 { tasks.append(.byte(UInt8(ascii: ","))) }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - Implementation

/// Grammar pieces shared by the parser, `JSONNumber(text:)` and the serializer.
private enum JSONGrammar {
    struct Failure: Error {
        let what: String
        let offset: Int
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Scans `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` from `start` and returns the
    /// index just past it. Every read is guarded by `i < bytes.count`.
    static func scanNumber(_ bytes: [UInt8], from start: Int) -> Result<Int, Failure> {
        let end = bytes.count
        var i = start
        if i < end && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, isDigit(bytes[i]) else {
            return .failure(Failure(what: "expected a digit in number", offset: i))
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(bytes[i]) {
                return .failure(Failure(what: "leading zero in number", offset: i - 1))
            }
        } else {
            while i < end && isDigit(bytes[i]) { i += 1 }
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(bytes[i]) else {
                return .failure(Failure(what: "expected a digit after the decimal point", offset: i))
            }
            while i < end && isDigit(bytes[i]) { i += 1 }
        }
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end, isDigit(bytes[i]) else {
                return .failure(Failure(what: "expected a digit in the exponent", offset: i))
            }
            while i < end && isDigit(bytes[i]) { i += 1 }
        }
        return .success(i)
    }

    static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + (nibble - 10)
    }

    /// A key quoted and shortened for an error message: hostile keys may be huge or hold control
    /// characters, neither of which belongs in a log line.
    static func describeKey(_ key: String) -> String {
        let limit = 64
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: key.unicodeScalars.prefix(limit))
        var out: [UInt8] = []
        appendQuoted(String(scalars), to: &out)
        if key.unicodeScalars.count > limit { out.append(contentsOf: "...".utf8) }
        return String(decoding: out, as: UTF8.self)
    }

    static func describeByte(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F {
            return "'\(String(decoding: [byte], as: UTF8.self))'"
        }
        return "byte 0x\(String(decoding: [hexDigit(byte >> 4), hexDigit(byte & 0x0F)], as: UTF8.self))"
    }
}

/// An open array or object whose elements are still being read. One type for both so the stack can
/// be mutated in place (`stack[top].array.append`) without copying the collections.
private struct JSONFrame {
    var isObject: Bool
    var array: [JSONValue] = []
    var object = JSONObject()
    var key = ""
}

private struct JSONParser {
    let input: [UInt8]
    let limits: JSONLimits
    var pos = 0
    // Reused across strings that contain escapes.
    var scratch: [UInt8] = []
    let secretMembers: Set<String>
    /// The secret members read so far, by name.
    var secrets: [String: SecretBytes] = [:]

    init(input: [UInt8], limits: JSONLimits, secretMembers: Set<String>) {
        self.input = input
        self.limits = limits
        self.secretMembers = secretMembers
    }

    // Iterative (explicit stack of open containers), so nesting costs heap, not call stack, whatever
    // maxDepth a caller chooses.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        var stack: [JSONFrame] = []
        skipWhitespace()
        readValue: while true {
            var value: JSONValue
            // A secret member's value is in `secrets`, not in the object.
            var secret = false
            guard pos < input.count else { throw JSONParseError("unexpected end of input, expected a value", at: pos) }
            let byte = input[pos]
            switch byte {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count)
                pos += 1
                skipWhitespace()
                if pos < input.count && input[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    var frame = JSONFrame(isObject: true)
                    frame.key = try readKey(in: frame.object)
                    stack.append(frame)
                    continue readValue
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count)
                pos += 1
                skipWhitespace()
                if pos < input.count && input[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    stack.append(JSONFrame(isObject: false))
                    continue readValue
                }
            case UInt8(ascii: "\"") where stack.count == 1 && stack[0].isObject && secretMembers.contains(stack[0].key):
                let keyOffset = pos
                guard secrets[stack[0].key] == nil else {
                    throw JSONParseError("duplicate member \(JSONGrammar.describeKey(stack[0].key))", at: keyOffset)
                }
                let escaped = try readString { SecretBytes(Array($0)) }
                secrets[stack[0].key] = escaped.value
                // The unescaped copy of a secret with escapes was made in the scratch buffer.
                if escaped.usedScratch { scratch.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) } }
                secret = true
                value = .null
            case UInt8(ascii: "\""):
                value = .string(try readString { String(decoding: $0, as: UTF8.self) }.value)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try readNumber())
            case UInt8(ascii: "t"):
                try readLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try readLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try readLiteral("null")
                value = .null
            default:
                throw JSONParseError("unexpected \(JSONGrammar.describeByte(byte)), expected a value", at: pos)
            }

            // `value` is complete: hand it to the enclosing container, closing every container that
            // ends right after it, until one wants another element.
            while true {
                skipWhitespace()
                let top = stack.count - 1
                guard top >= 0 else {
                    guard pos == input.count else {
                        let trailing = input[pos]
                        throw JSONParseError("unexpected \(JSONGrammar.describeByte(trailing)) after the value", at: pos)
                    }
                    return value
                }
                let isObject = stack[top].isObject
                if isObject {
                    // The key was checked for duplicates when it was read.
                    let key = stack[top].key
                    if !secret { stack[top].object.appendNew(key, value) }
                    secret = false
                } else {
                    stack[top].array.append(value)
                }
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard pos < input.count else {
                    throw JSONParseError("unexpected end of input, expected ',' or '\(isObject ? "}" : "]")'", at: pos)
                }
                let next = input[pos]
                if next == UInt8(ascii: ",") {
                    pos += 1
                    skipWhitespace()
                    if isObject {
                        stack[top].key = try readKey(in: stack[top].object)
                    }
                    continue readValue
                }
                guard next == closer else {
                    throw JSONParseError(
                        "unexpected \(JSONGrammar.describeByte(next)), expected ',' or '\(isObject ? "}" : "]")'", at: pos)
                }
                pos += 1
                let frame = stack.removeLast()
                value = isObject ? .object(frame.object) : .array(frame.array)
            }
        }
    }

    /// `openCount` containers are already open; one more is about to be.
    func checkDepth(_ openCount: Int) throws(JSONParseError) {
        guard openCount < limits.maxDepth else {
            throw JSONParseError("nesting deeper than \(limits.maxDepth) levels", at: pos)
        }
    }

    mutating func skipWhitespace() {
        // RFC 8259 whitespace only: space, tab, LF, CR.
        while pos < input.count {
            switch input[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    /// Reads `"name" :` and the whitespace after it, refusing a name `object` already has.
    mutating func readKey(in object: JSONObject) throws(JSONParseError) -> String {
        let keyOffset = pos
        guard pos < input.count else {
            throw JSONParseError("unexpected end of input, expected a member name", at: pos)
        }
        guard input[pos] == UInt8(ascii: "\"") else {
            throw JSONParseError("unexpected \(JSONGrammar.describeByte(input[pos])), expected a member name", at: pos)
        }
        let key = try readString { String(decoding: $0, as: UTF8.self) }.value
        // Compared after unescaping, so `"a"` and `"\u0061"` collide.
        if object.position(of: key) != nil {
            throw JSONParseError("duplicate member \(JSONGrammar.describeKey(key))", at: keyOffset)
        }
        skipWhitespace()
        guard pos < input.count else {
            throw JSONParseError("unexpected end of input, expected ':'", at: pos)
        }
        guard input[pos] == UInt8(ascii: ":") else {
            throw JSONParseError("unexpected \(JSONGrammar.describeByte(input[pos])), expected ':'", at: pos)
        }
        pos += 1
        skipWhitespace()
        return key
    }

    mutating func readLiteral(_ word: String) throws(JSONParseError) {
        let count = word.utf8.count
        // `input.count - pos` cannot overflow: 0 <= pos <= input.count.
        guard input.count - pos >= count, input[pos..<(pos + count)].elementsEqual(word.utf8) else {
            throw JSONParseError("invalid literal, expected \(word)", at: pos)
        }
        pos += count
    }

    mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = pos
        switch JSONGrammar.scanNumber(input, from: start) {
        case .success(let end):
            pos = end
            return JSONNumber(validated: String(decoding: input[start..<end], as: UTF8.self))
        case .failure(let failure):
            throw JSONParseError(failure.what, at: failure.offset)
        }
    }

    /// Reads a string starting at its opening quote. Unescaped runs are copied straight from the input
    /// after validating their UTF-8 here, so `String(decoding:)` never has to repair anything.
    /// `make` builds the result from the unescaped bytes, which are in the scratch buffer when the string
    /// had escapes (`usedScratch`).
    mutating func readString<R>(_ make: (ArraySlice<UInt8>) -> R) throws(JSONParseError) -> (value: R, usedScratch: Bool) {
        let quoteOffset = pos
        pos += 1
        var runStart = pos
        var escaped = false
        scratch.removeAll(keepingCapacity: true)
        while pos < input.count {
            let byte = input[pos]
            if byte == UInt8(ascii: "\"") {
                let result: R
                let length: Int
                if escaped {
                    scratch.append(contentsOf: input[runStart..<pos])
                    length = scratch.count
                    result = make(scratch[...])
                } else {
                    length = pos - runStart
                    result = make(input[runStart..<pos])
                }
                guard length <= limits.maxStringBytes else {
                    throw JSONParseError(
                        "string of \(length) bytes exceeds the limit of \(limits.maxStringBytes) bytes", at: quoteOffset)
                }
                pos += 1
                return (result, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: input[runStart..<pos])
                escaped = true
                try readEscape()
                runStart = pos
            } else if byte < 0x20 {
                throw JSONParseError("unescaped control character \(JSONGrammar.describeByte(byte)) in string", at: pos)
            } else if byte < 0x80 {
                pos += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw JSONParseError("unterminated string", at: quoteOffset)
    }

    /// Validates one multi-byte UTF-8 sequence at `pos` (well-formed per Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF) and steps past it.
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let start = pos
        let lead = input[pos]
        let trailing: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: trailing = 1
        case 0xE0: trailing = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED: trailing = 2; high = 0x9F
        case 0xF0: trailing = 3; low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4: trailing = 3; high = 0x8F
        default: throw JSONParseError("invalid UTF-8 \(JSONGrammar.describeByte(lead))", at: start)
        }
        // pos < input.count here, so the subtraction is safe and so are the indexes below.
        guard input.count - start > trailing else {
            throw JSONParseError("truncated UTF-8 sequence", at: start)
        }
        let second = input[start + 1]
        guard second >= low && second <= high else {
            throw JSONParseError("invalid UTF-8 sequence", at: start)
        }
        if trailing >= 2 && input[(start + 2)...(start + trailing)].contains(where: { $0 & 0xC0 != 0x80 }) {
            throw JSONParseError("invalid UTF-8 sequence", at: start)
        }
        pos = start + trailing + 1
    }

    /// Decodes the escape at `pos` (a backslash) into `scratch`.
    mutating func readEscape() throws(JSONParseError) {
        let start = pos
        guard input.count - pos >= 2 else { throw JSONParseError("unterminated escape", at: start) }
        let kind = input[pos + 1]
        pos += 2
        switch kind {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeOffset: start)
            var scalar = unit
            if unit >= 0xD800 && unit <= 0xDBFF {
                // A high surrogate counts only when a low-surrogate escape follows at once.
                guard input.count - pos >= 2, input[pos] == UInt8(ascii: "\\"), input[pos + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError("lone surrogate \\u\(hex4(unit))", at: start)
                }
                let lowOffset = pos
                pos += 2
                let lowUnit = try readHex4(escapeOffset: lowOffset)
                guard lowUnit >= 0xDC00 && lowUnit <= 0xDFFF else {
                    throw JSONParseError("lone surrogate \\u\(hex4(unit))", at: start)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (lowUnit - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw JSONParseError("lone surrogate \\u\(hex4(unit))", at: start)
            }
            appendUTF8(scalar)
        default:
            throw JSONParseError("invalid escape \\\(JSONGrammar.describeByte(kind))", at: start)
        }
    }

    mutating func readHex4(escapeOffset: Int) throws(JSONParseError) -> UInt32 {
        guard input.count - pos >= 4 else {
            throw JSONParseError("\\u escape needs four hex digits", at: escapeOffset)
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = input[pos + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError("\\u escape needs four hex digits", at: escapeOffset)
            }
            // At most 16 bits after four digits: no overflow.
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }

    func hex4(_ unit: UInt32) -> String {
        let digits = (0..<4).reversed().map { JSONGrammar.hexDigit(UInt8(truncatingIfNeeded: unit >> (UInt32($0) * 4)) & 0x0F) }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `scalar` is a Unicode scalar value (surrogates excluded, at most U+10FFFF) by construction.
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        }
    }
}
