/// One pass over the bytes of a redirect that arrived at the configured redirect URI, finding the
/// parameters a callback check needs (state, code, iss, error) without making a string of any of them.
///
/// It answers only for the plain case, where it can tell that the full check (`URI(parsing:)`, then
/// `FormParameters(parsing:)`) would accept the redirect and read the same values: the redirect begins
/// with the configured redirect URI byte for byte, and every parameter name is written without escapes.
/// Anything else gives nil and is left to the full check, which then reports its own error: so the
/// errors stay exactly those of the full check.
struct CallbackScan {
    /// The response parameters: the query or the fragment, per the response mode (OAuth 2.0 Multiple
    /// Response Type Encoding Practices §2.1).
    let component: Range<Int>
    private(set) var state: Range<Int>?
    private(set) var code: Range<Int>?
    private(set) var iss: Range<Int>?
    private(set) var error: Range<Int>?
    private let bytes: UnsafeBufferPointer<UInt8>

    @_optimize(speed)
    init?(_ bytes: UnsafeBufferPointer<UInt8>, redirectURI: UnsafeBufferPointer<UInt8>, inFragment: Bool) {
        self.bytes = bytes
        guard bytes.count <= URI.maxLength, bytes.count >= redirectURI.count else { return nil }
        // The same bytes up to the end of the redirect URI parse to the same scheme, authority and path
        // (RFC 3986 §3), provided the query or fragment begins right there. A redirect URI with a query of
        // its own (RFC 6749 §3.1.2) is left to the full check.
        var index = 0
        while index < redirectURI.count {
            let byte = bytes[index]
            guard byte == redirectURI[index], byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") else { return nil }
            index &+= 1
        }
        var query: Range<Int>? = nil, fragment: Range<Int>? = nil
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#") else { return nil }
            guard let hash = Self.checkTail(bytes, from: index) else { return nil }
            if bytes[index] == UInt8(ascii: "?") { query = index &+ 1..<hash }
            if hash < bytes.count { fragment = hash &+ 1..<bytes.count }
        }
        guard let component = inFragment ? fragment : query else { return nil }
        self.component = component
        guard findParameters() else { return nil }
    }

    /// Checks the query and fragment from `start` on the way `URI(parsing:)` and `PercentEncoding.decode`
    /// would, only stricter: no space, control, backslash or non-ASCII byte, and every escape well-formed and
    /// for an ASCII character other than NUL, so that every value decodes to ASCII, valid UTF-8. Returns
    /// where the fragment's "#" is (the end when there is none), nil when the full check must decide.
    @_optimize(speed)
    private static func checkTail(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var hash = bytes.count
        var index = start
        guard let base = bytes.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        while index < bytes.count {
            // Eight bytes at a time while all of them are such bytes, as a code, a state and an iss are; in the
            // word that holds one that is not, straight to it (the lowest flagged byte is a true match: a
            // borrow or carry only ever flags bytes above one).
            while bytes.count &- index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let flagged = bytesToCheck(word)
                if flagged != 0 {
                    index &+= flagged.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
            if index == bytes.count { break }
            let byte = bytes[index]
            // Most bytes are printable ASCII above "%" (0x25) and need no more than this test.
            if byte > UInt8(ascii: "%") && byte < 0x7F && byte != UInt8(ascii: "\\") {
                index &+= 1
                continue
            }
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\") { return nil }
            if byte == UInt8(ascii: "#") && hash == bytes.count { hash = index }
            if byte == UInt8(ascii: "%") {
                guard index &+ 2 < bytes.count, let high = ASCII.hexValue(bytes[index &+ 1]),
                    let low = ASCII.hexValue(bytes[index &+ 2]), high < 8, high | low != 0
                else { return nil }
                index &+= 3
            } else {
                index &+= 1
            }
        }
        return hash
    }

    /// The high bit of each of the eight bytes of `word` that is not one `checkTail` passes at once: at or
    /// below "%" (0x25), at or above 0x7F, or a backslash; zero when there is none. Bytes above a flagged one
    /// may be flagged without matching (a borrow or carry from one byte into the next happens only when the
    /// lower byte matched), never the lowest: Bit Twiddling Hacks' `hasless`, `hasmore` and `haszero`.
    @inline(__always)
    private static func bytesToCheck(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x26) & ~word & highs  // a byte < 0x26
        let above = ((word &+ ones &* (127 - 0x7E)) | word) & highs  // a byte > 0x7E
        let backslashes = word ^ (ones &* 0x5C)
        let backslash = (backslashes &- ones) & ~backslashes & highs  // a byte == 0x5C
        return below | above | backslash
    }

    /// Walks the `name=value` pairs, keeping where the four values are. False (full check) for a name
    /// that is empty, escaped or repeated (RFC 6749 §3.1 forbids repeats; the full check reports them).
    @_optimize(speed)
    private mutating func findParameters() -> Bool {
        // Room for the name of every piece the component could hold: each takes a byte and a "&" at least.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: component.count / 2 &+ 1) { names in
            var count = 0
            var pairs = Pairs(bytes, component)
            while let (name, value) = pairs.next() {
                guard !name.isEmpty, !isEncoded(name) else { return false }
                for index in 0..<count where equal(names[index], name) { return false }
                names.initializeElement(at: count, to: name)
                count &+= 1
                if equal(name, "state") {
                    state = value
                } else if equal(name, "code") {
                    code = value
                } else if equal(name, "iss") {
                    iss = value
                } else if equal(name, "error") {
                    error = value
                }
            }
            return true
        }
    }

    /// Whether the text at `range` holds a "%" escape or a "+" (a space): whether decoding would change it.
    func isEncoded(_ range: Range<Int>) -> Bool { Self.isEncoded(bytes, range) }

    @_optimize(speed)
    private static func isEncoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "%") || bytes[index] == UInt8(ascii: "+") { return true }
            index &+= 1
        }
        return false
    }

    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range]) }

    @_optimize(speed)
    private func equal(_ left: Range<Int>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        var index = 0
        while index < right.count {
            if bytes[left.lowerBound &+ index] != right[index] { return false }
            index &+= 1
        }
        return true
    }

    private func equal(_ left: Range<Int>, _ right: Range<Int>) -> Bool { equal(left, slice(right)) }

    private func equal(_ range: Range<Int>, _ name: StaticString) -> Bool {
        equal(range, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether the value at `range` decodes (form encoding: "+" is a space) to exactly `expected`.
    func decodes(_ range: Range<Int>, to expected: String) -> Bool {
        var expected = expected
        return expected.withUTF8 { target in
            var index = range.lowerBound, position = 0
            while index < range.upperBound {
                guard position < target.count,
                    Self.decodedByte(bytes, at: &index, end: range.upperBound) == target[position]
                else { return false }
                position &+= 1
            }
            return position == target.count
        }
    }

    /// The value at `range`, decoded.
    func decoded(_ range: Range<Int>) -> String { Self.decoded(bytes, range) }

    /// The parameters of `component` of `bytes`, decoded, in order: for the component of a redirect that
    /// passed a scan, the pairs `FormParameters(parsing:)` reads from it (the scan found every name
    /// unescaped, non-empty and unique, and `checkTail` let through only escapes of ASCII other than NUL).
    /// Unlike that parse it can't fail: reading a scanned callback's parameters leaves nothing to disagree on.
    static func parameters(_ bytes: UnsafeBufferPointer<UInt8>, in component: Range<Int>) -> FormParameters {
        var parameters = FormParameters()
        var pairs = Pairs(bytes, component.clamped(to: 0..<bytes.count))
        while let (name, value) = pairs.next() {
            parameters.appendUnique(decoded(bytes, name), decoded(bytes, value))
        }
        return parameters
    }

    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        if !isEncoded(bytes, range) {
            return String(copyingUTF8: UnsafeBufferPointer(rebasing: bytes[range]))
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count) { out in
            var index = range.lowerBound, written = 0
            while index < range.upperBound {
                out[written] = decodedByte(bytes, at: &index, end: range.upperBound)
                written &+= 1
            }
            return String(copyingUTF8: UnsafeBufferPointer(rebasing: out[0..<written]))
        }
    }

    /// The byte the form encoding at `index` stands for, advancing past it. A "%" without two hex digits
    /// before `end` stands for itself (`checkTail` lets none through; this keeps every read inside the range).
    private static func decodedByte(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int) -> UInt8 {
        let byte = bytes[index]
        if byte == UInt8(ascii: "%"), index &+ 2 < end, let high = ASCII.hexValue(bytes[index &+ 1]),
            let low = ASCII.hexValue(bytes[index &+ 2])
        {
            index &+= 3
            return high << 4 | low
        }
        index &+= 1
        return byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
    }

    /// The non-empty `name=value` pieces between "&"s, as `FormParameters(parsing:)` splits them.
    private struct Pairs {
        let bytes: UnsafeBufferPointer<UInt8>
        let end: Int
        var start: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            self.bytes = bytes
            end = range.upperBound
            start = range.lowerBound
        }

        @_optimize(speed)
        mutating func next() -> (name: Range<Int>, value: Range<Int>)? {
            while start < end && bytes[start] == UInt8(ascii: "&") { start &+= 1 }
            guard start < end, let base = bytes.baseAddress else { return nil }
            // memchr rather than a loop a byte at a time: a state or code value is tens of bytes.
            let pieceEnd = Self.find(UInt8(ascii: "&"), base, start, end)
            let equals = Self.find(UInt8(ascii: "="), base, start, pieceEnd)
            defer { start = pieceEnd }
            return (start..<equals, equals < pieceEnd ? equals &+ 1..<pieceEnd : pieceEnd..<pieceEnd)
        }

        /// Where the first `byte` in `start..<end` of `base` is, `end` when there is none.
        @inline(__always)
        private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
            guard start < end, let found = memchr(base + start, Int32(byte), end &- start) else { return end }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }
}
