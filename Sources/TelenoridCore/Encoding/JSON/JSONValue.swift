// A strict RFC 8259 JSON parser and compact serializer for documents that come from untrusted servers
// (discovery documents, JWKS, token responses, JOSE headers). Standard library only.
//
// Strictness is deliberate: two parsers that read the same bytes differently (duplicate members,
// lenient numbers, repaired UTF-8) are how signed-token and header-confusion attacks work, so anything
// RFC 8259 does not allow is refused rather than guessed at.

/// The JSON entry points: `JSON.parse` (JSONParser.swift) and `JSON.serialize` (JSONSerializer.swift).
public enum JSON {}

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
    init(validated text: String) {
        self.text = text
    }

    /// The value when the lexeme is a plain integer (no fraction, no exponent) that fits in Int64.
    public var int64: Int64? {
        // Only plain integers: `1e2` or `1.0` are refused so callers never see an integer the server
        // did not literally send.
        let notPlain = text.utf8.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        if notPlain { return nil }
        // The grammar rules out `+` and other forms Int64's own parser would accept; it reports
        // overflow as nil.
        return Int64(text, radix: 10)
    }

    /// The value rounded down to a whole number: a plain integer as `int64` reads it, else the nearest Double
    /// rounded down when its magnitude is below `limit` (at most 2^63, so the result fits). For NumericDates
    /// and lifetimes in seconds, which may carry a fraction (RFC 7519 §2). Rounded by truncating conversion,
    /// not `rounded(.down)`, which on x86-64 calls libm's floor: the library links no libm, one library less
    /// for every process that loads it.
    public func roundedDown(magnitudeBelow limit: Double = 0x1p63) -> Int64? {
        if let whole = int64 { return whole }
        guard let value = double, abs(value) < min(limit, 0x1p63) else { return nil }
        let truncated = Int64(value)  // toward zero: one too high for a negative value with a fraction
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    /// The nearest Double, or nil when the magnitude is too large to be finite.
    public var double: Double? {
        // The grammar has checked the text, so strtod reads all of it; C's, as Embedded Swift has no Double(String).
        text.withCString { start -> Double? in
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = telenorid_platform_strtod_c(start, &end)
            guard let end, end != UnsafeMutablePointer(mutating: start), end.pointee == 0, value.isFinite else {
                return nil
            }
            return value
        }
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

    /// The strings when this is an array of strings only, nil otherwise.
    public var stringArrayValue: [String]? {
        guard case .array(let items) = self else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.append(text)
        }
        return strings
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

    mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    public subscript(key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        return members[position].value
    }

    public var keys: [String] { members.map { $0.key } }

    public var count: Int { members.count }

    /// Sets or replaces a member, keeping the position of an existing key.
    public mutating func set(_ key: String, _ value: JSONValue) {
        if let position = position(of: key) {
            members[position].value = value
        } else {
            appendNew(key, value)
        }
    }

    func position(of key: String) -> Int? {
        if members.count > Self.indexThreshold { return index[key] }
        return members.firstIndex(where: { $0.key == key })
    }

    // Callers guarantee `key` is absent.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
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
