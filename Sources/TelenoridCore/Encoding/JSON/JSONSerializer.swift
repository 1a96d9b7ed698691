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
        return String(decoding: out, as: UTF8.self)
    }
}

/// A JSON object assembled straight into wiping storage, for a document that carries secrets (a saved
/// auth state's tokens and DPoP private key): the members that are not secret go through `JSON.serialize`,
/// the secret ones are copied in as bytes, so the only whole copy of the document is the one returned.
/// The output is what `JSON.serialize` writes for the same members in the same order.
struct SecretJSONObjectWriter {
    private enum Part {
        case plain([UInt8])
        /// A string's UTF-8, quoted and escaped as it is written.
        case string(SecretBytes)
        /// A value's JSON text, written as it is.
        case json(SecretBytes)
    }
    private var parts: [Part] = []
    private var plain: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    mutating func set(_ key: String, _ value: JSONValue) {
        appendKey(key)
        plain.append(contentsOf: JSON.serialize(value).utf8)
    }

    /// A string member whose value is secret.
    mutating func setSecret(_ key: String, string value: SecretBytes) {
        appendKey(key)
        parts.append(.plain(plain))
        parts.append(.string(value))
        plain = []
    }

    /// A member whose value is secret JSON text, written unchanged: the caller vouches it is one valid,
    /// compact value.
    mutating func setSecret(_ key: String, json value: SecretBytes) {
        appendKey(key)
        parts.append(.plain(plain))
        parts.append(.json(value))
        plain = []
    }

    /// The document, closed.
    func finished() -> SecretBytes {
        let parts = self.parts + [.plain(plain + [UInt8(ascii: "}")])]
        var total = 0
        for part in parts {
            switch part {
            case .plain(let bytes): total += bytes.count
            case .string(let secret): total += 2 + secret.withUnsafeBytes { $0.reduce(0) { $0 + Self.escaped($1) { _ in } } }
            case .json(let secret): total += secret.count
            }
        }
        return SecretBytes(count: total) { out in
            var position = 0
            func put(_ byte: UInt8) { out[position] = byte; position += 1 }
            for part in parts {
                switch part {
                case .plain(let bytes): bytes.forEach(put)
                case .string(let secret):
                    put(UInt8(ascii: "\""))
                    secret.withUnsafeBytes { for byte in $0 { _ = Self.escaped(byte, put) } }
                    put(UInt8(ascii: "\""))
                case .json(let secret): secret.withUnsafeBytes { $0.forEach(put) }
                }
            }
        }
    }

    private mutating func appendKey(_ key: String) {
        if !empty { plain.append(UInt8(ascii: ",")) }
        empty = false
        JSONGrammar.appendQuoted(key, to: &plain)
        plain.append(UInt8(ascii: ":"))
    }

    /// Writes `byte` as it appears inside a JSON string, escaped as `JSONGrammar.appendQuoted` escapes it
    /// (RFC 8259 §7: `"`, `\` and control characters), and returns how many bytes that took.
    private static func escaped(_ byte: UInt8, _ put: (UInt8) -> Void) -> Int {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x08: short = UInt8(ascii: "b")
        case 0x09: short = UInt8(ascii: "t")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x00..<0x20:
            "\\u00".utf8.forEach(put)
            put(ASCII.hexDigit(byte >> 4))
            put(ASCII.hexDigit(byte & 0x0F))
            return 6
        default:
            put(byte)
            return 1
        }
        put(UInt8(ascii: "\\"))
        put(short)
        return 2
    }
}
