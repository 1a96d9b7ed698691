/// Strict UTF-8 (RFC 3629, the Unicode Standard's table 3-7): no overlong forms, no surrogates, nothing
/// above U+10FFFF, no truncated sequences.
///
/// Why not `String(validating:as:)`: in this statically linked library its generic body runs
/// unspecialized, looking up type metadata on every call, about a thousand instructions before the
/// first byte; every callback parameter and every string a caller passes in goes through here.
public enum ValidUTF8 {
    /// The string of `bytes` if they are well-formed UTF-8, else nil.
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        let units = bytes.assumingMemoryBound(to: UInt8.self)
        return isValid(units) ? String(copyingUTF8: units) : nil
    }

    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while they are all ASCII (no high bit set), as most input is: URLs,
            // tokens, JSON. A byte at a time this loop took 5 instructions a byte (callgrind: 7.2k of an ID
            // token validation's, its two input strings).
            while bytes.count &- index >= 8,
                raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index &+= 8
            }
            if index == bytes.count { break }
            if bytes[index] < 0x80 {
                index &+= 1
            } else if let length = sequenceLength(bytes, at: index) {
                index &+= length
            } else {
                return false
            }
        }
        return true
    }

    /// The length of the well-formed sequence that starts at `index` (which must be in `bytes`), or nil
    /// when the bytes there are not one. The JSON parser calls this for each non-ASCII run it copies.
    public static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        // The continuation bytes after `lead`, and the range the first of them must fall in.
        let following: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: following = 1
        case 0xE0: following = 2; low = 0xA0  // below: overlong
        case 0xE1...0xEC, 0xEE...0xEF: following = 2
        case 0xED: following = 2; high = 0x9F  // above: surrogates
        case 0xF0: following = 3; low = 0x90  // below: overlong
        case 0xF1...0xF3: following = 3
        case 0xF4: following = 3; high = 0x8F  // above: beyond U+10FFFF
        default: return nil  // 0x80...0xC1 (continuation or overlong lead), 0xF5...0xFF
        }
        guard bytes.count - index > following else { return nil }
        let first = bytes[index + 1]
        guard first >= low && first <= high else { return nil }
        var next = 2
        while next <= following {
            guard bytes[index + next] & 0xC0 == 0x80 else { return nil }
            next += 1
        }
        return following + 1
    }
}
