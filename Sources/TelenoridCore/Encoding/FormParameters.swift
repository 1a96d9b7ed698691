/// Name/value pairs as OAuth carries them in a query string, a fragment or a form body, in order.
public struct FormParameters: Sendable, Equatable {
    /// A struct rather than a tuple: arrays of tuples are copied and destroyed through the runtime's
    /// generic tuple witnesses, which cost more than the strings themselves on every URL and callback.
    public struct Pair: Sendable, Equatable {
        public let name: String
        private let plain: String
        /// A secret value (a verifier, a refresh token, a client secret) stays in wiping storage; it
        /// becomes a String only if someone reads `value`.
        private let secret: SecretBytes?

        init(name: String, value: String) {
            self.name = name
            plain = value
            secret = nil
        }

        init(name: String, secret: SecretBytes) {
            self.name = name
            plain = ""
            self.secret = secret
        }

        public var value: String { secret?.string ?? plain }

        /// The value's UTF-8 in place, without a String made of a secret.
        func withValue<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let secret { return secret.withUnsafeBytes { body($0.assumingMemoryBound(to: UInt8.self)) } }
            var plain = plain  // withUTF8 needs it mutable; no copy of the bytes
            return plain.withUTF8(body)
        }

        public static func == (lhs: Pair, rhs: Pair) -> Bool {
            lhs.name == rhs.name && lhs.withValue { left in rhs.withValue { left.elementsEqual($0) } }
        }
    }

    public private(set) var pairs: [Pair]

    public init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs.map { Pair(name: $0.name, value: $0.value) }
    }

    /// Empty, with room for `capacity` pairs: an authorization URL has a dozen, and growing the array
    /// one doubling at a time would copy it four times.
    init(capacity: Int) {
        pairs = []
        pairs.reserveCapacity(capacity)
    }

    /// Parses `a=b&c=d` as `application/x-www-form-urlencoded`. A parameter that appears twice is
    /// refused (RFC 6749 §3.1: parameters MUST NOT be included more than once): a second `state` or
    /// `code` could otherwise be read differently by two layers of a host.
    public init(parsing text: Substring) throws(TelenoridError) {
        pairs = []
        var text = text
        let utf8 = text.withUTF8 { Array($0) }  // one copy from contiguous storage, not a byte-wise walk
        var start = 0
        while start <= utf8.count {
            var end = start
            while end < utf8.count && utf8[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end && utf8[equals] != UInt8(ascii: "=") { equals += 1 }
                guard let name = PercentEncoding.decode(utf8[start..<equals], plusIsSpace: true),
                    let value = PercentEncoding.decode(
                        equals < end ? utf8[(equals + 1)..<end] : utf8[end..<end], plusIsSpace: true)
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
        try checkNew(name)
        pairs.append(Pair(name: name, value: value))
    }

    /// Appends a secret value, kept in its wiping storage until it is encoded into `encodedSecret`.
    public mutating func appendSecret(_ name: String, _ value: SecretBytes) throws(TelenoridError) {
        try checkNew(name)
        pairs.append(Pair(name: name, secret: value))
    }

    private func checkNew(_ name: String) throws(TelenoridError) {
        if pairs.contains(where: { $0.name == name }) {
            throw TelenoridError(.malformed, "parameter \"\(DisplayText.escaping(name))\" appears more than once")
        }
    }

    /// Appends without the repeat check, for queries whose names are unique by construction (the
    /// library's own parameters, then extras that can't take their names).
    mutating func appendUnique(_ name: String, _ value: String) {
        pairs.append(Pair(name: name, value: value))
    }

    /// Appends one pair per value, all under `name`, for a parameter a spec lets repeat (RFC 8707 §2's
    /// `resource`) in a query whose other names are unique by construction and never `name`.
    mutating func appendRepeated(_ name: String, _ values: [String]) {
        for value in values { pairs.append(Pair(name: name, value: value)) }
    }

    /// `name=value&...`, every part percent-encoded outside the unreserved set.
    public var encoded: String { encoded(after: "") }

    /// `prefix` followed by `encoded` (an endpoint and its "?"), built in one pass into a string of its
    /// exact length.
    public func encoded(after prefix: String) -> String {
        var prefix = prefix
        let worstCase = pairs.reduce(prefix.utf8.count) { total, pair in
            total + (pair.name.utf8.count + pair.withValue { $0.count }) * 3 + 2
        }
        return PercentEncoding.exactString(worstCase: worstCase) { out, position in
            prefix.withUTF8 { PercentEncoding.copy($0, to: out, at: &position) }
            write(to: out, at: &position)
        }
    }

    /// `encoded` as a request body in wiping storage, written there directly at its exact length: the
    /// body of a token request carries the code verifier, a refresh token or the client secret, and a
    /// String or worst-case scratch buffer of it would stay in freed memory.
    public var encodedSecret: SecretBytes {
        let encodedCount = PercentEncoding.encodedCount
        let count = pairs.reduce(max(pairs.count - 1, 0)) { total, pair in
            var name = pair.name
            return total + name.withUTF8(encodedCount) + 1 + pair.withValue(encodedCount)
        }
        return SecretBytes(count: count) { out in
            var position = 0
            write(to: out, at: &position)
        }
    }

    /// `name=value&...` into `out` from `position` on; `out` must have room for it.
    private func write(to out: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out[position] = UInt8(ascii: "&"); position += 1 }
            var name = pair.name  // withUTF8 needs it mutable; no copy of the bytes
            name.withUTF8 { PercentEncoding.write($0, to: out, at: &position) }
            out[position] = UInt8(ascii: "="); position += 1
            pair.withValue { PercentEncoding.write($0, to: out, at: &position) }
        }
    }

    public static func == (lhs: FormParameters, rhs: FormParameters) -> Bool {
        lhs.pairs == rhs.pairs
    }
}
