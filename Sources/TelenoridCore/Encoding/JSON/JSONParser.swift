// The parser: strict RFC 8259, iterative, with limits on size, depth and string length, and secret
// members read straight into wiping storage.

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

/// The top-level object members `JSON.parse` keeps as their JSON text, in wiping storage.
public enum SecretObjectMembers: Sendable, ExpressibleByArrayLiteral {
    /// Those named (a saved auth state's DPoP key).
    case named(Set<String>)
    /// Every member whose value is an object (a configuration's environments, each of which may hold a
    /// client secret).
    case all

    public init(arrayLiteral names: String...) { self = .named(Set(names)) }
}

extension JSON {
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONValue {
        try parse(bytes, secretMembers: [], limits: limits).0
    }

    /// Parses a document whose top-level object's string members named in `secretMembers` (a token
    /// response's access_token and refresh_token) are decoded straight into wiping storage and left out
    /// of the value: as Strings they would stay in freed memory once the response is read.
    ///
    /// The object members `secretObjectMembers` names (a saved auth state's DPoP private key) are
    /// checked like any value, but come back as their JSON text, in wiping storage, instead of in the
    /// value: their strings are never decoded into Strings. A member that is not an object stays in the
    /// value, for the caller to refuse.
    public static func parse(
        _ bytes: [UInt8], secretMembers: Set<String>, secretObjectMembers: SecretObjectMembers = [],
        limits: JSONLimits = JSONLimits()
    ) throws(JSONParseError) -> (JSONValue, [String: SecretBytes]) {
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError("input of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes", at: 0)
        }
        var parser = JSONParser(
            input: bytes, limits: limits, secretMembers: secretMembers,
            secretObjectMembers: secretObjectMembers)
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
    let secretObjectMembers: SecretObjectMembers
    /// The secret members read so far, by name.
    var secrets: [String: SecretBytes]
    /// Where the secret object member being read opened: its strings are checked but not kept.
    var secretObjectStart: Int?

    init(input: [UInt8], limits: JSONLimits, secretMembers: Set<String>, secretObjectMembers: SecretObjectMembers = [])
    {
        self.input = input
        self.limits = limits
        self.secretMembers = secretMembers
        self.secretObjectMembers = secretObjectMembers
        // Sized once: growing a dictionary rehashes what it holds. (`[:]` would go through the
        // dictionary-literal initializer, which costs more than the empty dictionary it makes.)
        switch secretObjectMembers {
        case .named(let names):
            let expected = secretMembers.count + names.count
            secrets = expected > 0 ? Dictionary(minimumCapacity: expected) : Dictionary()
        case .all: secrets = Dictionary()
        }
    }

    /// Is the value about to be read a top-level member that `members` names? A second one is refused
    /// here: secret members are not in the object, where `readKey` looks for duplicates.
    /// The sets hold two or three short names: comparing each costs less than hashing the key.
    func isTopLevelMember(of members: SecretObjectMembers, _ stack: [JSONFrame]) throws(JSONParseError) -> Bool {
        guard stack.count == 1, stack[0].isObject else { return false }
        let key = stack[0].key
        if case .named(let names) = members, !names.contains(where: { $0 == key }) { return false }
        guard !secrets.contains(where: { $0.key == key }) else {
            throw JSONParseError("duplicate member \(JSONGrammar.describeKey(key))", at: pos)
        }
        return true
    }

    /// Keeps `input[start..<pos]`, a secret object member's text, in wiping storage.
    mutating func keepSecretObject(from start: Int, as name: String) {
        let end = pos
        secrets[name] = SecretBytes(count: end - start) { out in
            input.withUnsafeBufferPointer { source in
                UnsafeMutableRawBufferPointer(out).copyMemory(
                    from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: source[start..<end])))
            }
        }
    }

    // Iterative (explicit stack of open containers), so nesting costs heap, not call stack, whatever
    // maxDepth a caller chooses.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        var stack: [JSONFrame] = []
        // Documents here nest a few levels: one allocation instead of growing 1, 2, 4.
        stack.reserveCapacity(4)
        skipWhitespace()
        readValue: while true {
            var value: JSONValue
            // A secret member's value is in `secrets`, not in the object.
            var secret = false
            guard pos < input.count else { throw JSONParseError("unexpected end of input, expected a value", at: pos) }
            let byte = input[pos]
            var secretString = false
            if byte == UInt8(ascii: "\"") { secretString = try isTopLevelMember(of: .named(secretMembers), stack) }
            switch byte {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count)
                let opening = pos
                let keep = try isTopLevelMember(of: secretObjectMembers, stack)
                if keep { secretObjectStart = opening }
                pos += 1
                skipWhitespace()
                if pos < input.count && input[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                    if keep {
                        keepSecretObject(from: opening, as: stack[0].key)
                        secretObjectStart = nil
                        secret = true
                    }
                } else {
                    var frame = JSONFrame(isObject: true)
                    // Token responses, headers and keys have a handful of members: one allocation for them.
                    frame.object.reserveCapacity(8)
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
            case UInt8(ascii: "\"") where secretString:
                let escaped = try readString { SecretBytes(Array($0)) }
                secrets[stack[0].key] = escaped.value
                // The unescaped copy of a secret with escapes was made in the scratch buffer.
                if escaped.usedScratch { Crypto.wipe(&scratch) }
                secret = true
                value = .null
            case UInt8(ascii: "\"") where secretObjectStart != nil:
                // Checked, then dropped: the object's text is what is kept.
                let escaped = try readString { _ in () }
                if escaped.usedScratch { Crypto.wipe(&scratch) }
                value = .string("")
            case UInt8(ascii: "\""):
                value = .string(try readString { String(copyingUTF8: $0) }.value)
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
                        throw JSONParseError(
                            "unexpected \(JSONGrammar.describeByte(trailing)) after the value", at: pos)
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
                        "unexpected \(JSONGrammar.describeByte(next)), expected ',' or '\(isObject ? "}" : "]")'",
                        at: pos)
                }
                pos += 1
                let frame = stack.removeLast()
                value = isObject ? .object(frame.object) : .array(frame.array)
                if stack.count == 1, let start = secretObjectStart {
                    keepSecretObject(from: start, as: stack[0].key)
                    secretObjectStart = nil
                    secret = true
                }
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
        let key = try readString { String(copyingUTF8: $0) }.value
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
            return JSONNumber(validated: String(copyingUTF8: input[start..<end]))
        case .failure(let failure):
            throw JSONParseError(failure.what, at: failure.offset)
        }
    }

    /// Reads a string starting at its opening quote. Unescaped runs are copied straight from the input
    /// after validating their UTF-8 here, so `String(decoding:)` never has to repair anything.
    /// `make` builds the result from the unescaped bytes, which are in the scratch buffer when the string
    /// had escapes (`usedScratch`).
    mutating func readString<R>(_ make: (ArraySlice<UInt8>) -> R) throws(JSONParseError) -> (
        value: R, usedScratch: Bool
    ) {
        let quoteOffset = pos
        pos += 1
        var runStart = pos
        var escaped = false
        while pos < input.count {
            pos = Self.skipPlain(input, from: pos)
            guard pos < input.count else { break }
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
                        "string of \(length) bytes exceeds the limit of \(limits.maxStringBytes) bytes", at: quoteOffset
                    )
                }
                pos += 1
                return (result, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                // Emptied at a string's first escape only: most strings have none and never touch it.
                if !escaped { scratch.removeAll(keepingCapacity: true) }
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

    /// Where the run of string bytes that need no look (printable ASCII other than `"` and `\`) starting
    /// at `start` ends, read eight bytes at a time; in the last seven bytes of the input the caller goes on a
    /// byte at a time. A JWT's claims are mostly such runs, and a byte at a time with the array's bounds
    /// checks this loop was the parser's largest cost (callgrind, an ID token's payload). The tests are Bit
    /// Twiddling Hacks' `hasless` and `haszero`, exact for "any byte".
    @_optimize(speed)
    static func skipPlain(_ input: [UInt8], from start: Int) -> Int {
        input.withUnsafeBytes { raw in
            var index = start
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            while raw.count &- index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
                let stop =
                    ((word &- ones &* 0x20) & ~word)  // a byte < 0x20 (its high bit then from ~word)
                    | word  // a byte >= 0x80
                    | ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                // The lowest flagged byte is a true match (a borrow only ever flags bytes above one), and every
                // byte below it needs no look: the run ends there.
                if stop & highs != 0 { return index &+ (stop & highs).trailingZeroBitCount &>> 3 }
                index &+= 8
            }
            return index
        }
    }

    /// Steps past one multi-byte UTF-8 sequence at `pos`, refusing it unless well-formed (`ValidUTF8`).
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let start = pos
        let length = input.withUnsafeBufferPointer { ValidUTF8.sequenceLength($0, at: start) }
        guard let length else { throw JSONParseError("invalid UTF-8 sequence", at: start) }
        pos = start + length
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
                guard input.count - pos >= 2, input[pos] == UInt8(ascii: "\\"), input[pos + 1] == UInt8(ascii: "u")
                else {
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
            guard let digit = ASCII.hexValue(input[pos + offset]) else {
                throw JSONParseError("\\u escape needs four hex digits", at: escapeOffset)
            }
            // At most 16 bits after four digits: no overflow.
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }

    func hex4(_ unit: UInt32) -> String {
        let digits = (0..<4).reversed().map {
            ASCII.hexDigit(UInt8(truncatingIfNeeded: unit >> (UInt32($0) * 4)) & 0x0F)
        }
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
