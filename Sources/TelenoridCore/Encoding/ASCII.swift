/// Byte classes and case folding for the ASCII parts of protocols: URIs (RFC 3986 §2), header names and
/// tokens (RFC 9110 §5.1), host names (RFC 3986 §3.2.2), hex in percent escapes, JSON escapes and UUIDs.
/// ASCII only, never locale or Unicode case rules: these comparisons must agree with the peer's, byte for byte.
public enum ASCII {
    public static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    public static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    public static func isAlpha(_ byte: UInt8) -> Bool { isUpper(byte) || (byte >= 0x61 && byte <= 0x7A) }
    public static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    /// RFC 9110 §5.6.2 tchar: what a method, a header name or an auth-scheme may consist of.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// The value of a hex digit in either case, or nil.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x61...0x66: return byte &- 0x61 &+ 10
        case 0x41...0x46: return byte &- 0x41 &+ 10
        default: return nil
        }
    }

    /// The hex digit of a value 0...15: lower case (JSON escapes, UUIDs) unless `upper` (RFC 3986 §2.1
    /// prefers upper case in percent escapes).
    public static func hexDigit(_ nibble: UInt8, upper: Bool = false) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : (upper ? 0x41 : 0x61) &+ (nibble &- 10)
    }

    public static func lowercased(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

    /// `bytes` with A-Z lowered, written straight into the string's storage (decoding a lazily mapped
    /// collection would take the generic path).
    public static func lowercased<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { out in
            for (offset, byte) in bytes.enumerated() { out[offset] = lowercased(byte) }
            return bytes.count
        }
    }

    public static func lowercased(_ text: String) -> String {
        text.utf8.contains(where: isUpper) ? lowercased(text.utf8) : text
    }

    /// Equal but for the case of ASCII letters.
    public static func equalsIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { lowercased($0) == lowercased($1) }
    }
}
