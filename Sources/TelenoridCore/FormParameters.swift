/// Name/value pairs as OAuth carries them in a query string, a fragment or a form body, in order.
public struct FormParameters: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// Parses `a=b&c=d` as `application/x-www-form-urlencoded`. A parameter that appears twice is
    /// refused (RFC 6749 §3.1: parameters MUST NOT be included more than once): a second `state` or
    /// `code` could otherwise be read differently by two layers of a host.
    public init(parsing text: Substring) throws(TelenoridError) {
        pairs = []
        let utf8 = Array(text.utf8)
        var start = 0
        while start <= utf8.count {
            var end = start
            while end < utf8.count && utf8[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end && utf8[equals] != UInt8(ascii: "=") { equals += 1 }
                guard let name = PercentEncoding.decode(utf8[start..<equals], plusIsSpace: true),
                      let value = PercentEncoding.decode(equals < end ? utf8[(equals + 1)..<end] : utf8[end..<end], plusIsSpace: true)
                else {
                    throw TelenoridError(.malformed, "a parameter is not valid percent-encoded UTF-8")
                }
                guard !name.isEmpty else { throw TelenoridError(.malformed, "a parameter has no name") }
                try append(name, value)
            }
            start = end + 1
        }
    }

    public subscript(name: String) -> String? {
        pairs.first(where: { $0.name == name })?.value
    }

    public mutating func append(_ name: String, _ value: String) throws(TelenoridError) {
        if self[name] != nil {
            throw TelenoridError(.malformed, "parameter \"\(name)\" appears more than once")
        }
        pairs.append((name, value))
    }

    /// `name=value&...`, every part percent-encoded outside the unreserved set.
    public var encoded: String {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count * 3 + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.appendEncoded(pair.name, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.appendEncoded(pair.value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func == (lhs: FormParameters, rhs: FormParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}
