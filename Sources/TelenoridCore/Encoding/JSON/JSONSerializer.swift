extension JSON {
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
        return String(copyingUTF8: out[...])
    }
}

/// A JSON object assembled straight into wiping storage, for a document that carries secrets (a saved
/// auth state's tokens and DPoP private key): the members that are not secret go through `JSON.serialize`,
/// the secret ones are copied in as bytes, so the only whole copy of the document is the one returned.
/// The output is what `JSON.serialize` writes for the same members in the same order.
struct SecretJSONObjectWriter {
    /// The document's text up to each secret value, the value, and whether it is a string's UTF-8 (to quote
    /// and escape as it is written) or JSON text (written as it is).
    private var parts: [(text: [UInt8], secret: SecretBytes, isString: Bool)] = []
    /// The text after the last secret.
    private var text: [UInt8] = [UInt8(ascii: "{")]

    mutating func set(_ key: String, _ value: JSONValue) {
        appendKey(key)
        text.append(contentsOf: JSON.serialize(value).utf8)
    }

    /// A string member whose value is secret.
    mutating func setSecret(_ key: String, string value: SecretBytes) {
        appendKey(key)
        parts.append((text, value, true))
        text = []
    }

    /// A member whose value is secret JSON text, written unchanged: the caller vouches it is one valid,
    /// compact value.
    mutating func setSecret(_ key: String, json value: SecretBytes) {
        appendKey(key)
        parts.append((text, value, false))
        text = []
    }

    /// The document, closed.
    func finished() -> SecretBytes {
        var total = text.count + 1
        for part in parts {
            total += part.text.count
            total +=
                part.isString
                ? part.secret.withUnsafeBytes { $0.reduce(2) { $0 + Self.escape($1).count } } : part.secret.count
        }
        return SecretBytes(count: total) { out in
            var position = 0
            func put(_ byte: UInt8) { out[position] = byte; position += 1 }
            func copy(_ bytes: UnsafeRawBufferPointer) { for byte in bytes { put(byte) } }
            for part in parts {
                part.text.withUnsafeBytes(copy)
                guard part.isString else { part.secret.withUnsafeBytes(copy); continue }
                put(UInt8(ascii: "\""))
                part.secret.withUnsafeBytes { bytes in
                    for byte in bytes {
                        let escape = Self.escape(byte)
                        switch escape.count {
                        case 1: put(byte)
                        case 2: put(UInt8(ascii: "\\")); put(escape.letter)
                        default:
                            put(UInt8(ascii: "\\")); put(UInt8(ascii: "u")); put(UInt8(ascii: "0"));
                            put(UInt8(ascii: "0"))
                            put(ASCII.hexDigit(byte >> 4)); put(ASCII.hexDigit(byte & 0x0F))
                        }
                    }
                }
                put(UInt8(ascii: "\""))
            }
            text.withUnsafeBytes(copy)
            put(UInt8(ascii: "}"))
        }
    }

    private mutating func appendKey(_ key: String) {
        if text.count > 1 || !parts.isEmpty { text.append(UInt8(ascii: ",")) }
        JSONGrammar.appendQuoted(key, to: &text)
        text.append(UInt8(ascii: ":"))
    }

    /// How `byte` is written inside a JSON string, as `JSONGrammar.appendQuoted` writes it (RFC 8259 §7:
    /// `"`, `\` and control characters are escaped): itself (count 1), a backslash and `letter` (count 2),
    /// or `\u00` and two hex digits (count 6).
    private static func escape(_ byte: UInt8) -> (count: Int, letter: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): (2, byte)
        case 0x08: (2, UInt8(ascii: "b"))
        case 0x09: (2, UInt8(ascii: "t"))
        case 0x0A: (2, UInt8(ascii: "n"))
        case 0x0C: (2, UInt8(ascii: "f"))
        case 0x0D: (2, UInt8(ascii: "r"))
        case 0x00..<0x20: (6, 0)
        default: (1, byte)
        }
    }
}
