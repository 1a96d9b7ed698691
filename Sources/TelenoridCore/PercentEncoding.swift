/// Percent-encoding per RFC 3986 §2.1 and the `application/x-www-form-urlencoded` reading of query
/// strings that OAuth responses use (RFC 6749 Appendix B).
public enum PercentEncoding {
    /// Encodes everything but the unreserved set [A-Za-z0-9-._~], so the result is safe as a query
    /// parameter name or value under any URL parser.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        appendEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func appendEncoded(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // Runs of unreserved bytes (nearly all of an authorization URL) are copied whole; only the
            // bytes between runs are escaped. The loop's own bound keeps every index inside `bytes`.
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index &+= 1
                if isUnreserved(byte) { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<(index &- 1)]))
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        }
    }

    /// The upper-case hex digit of a value 0...15 (RFC 3986 §2.1 prefers upper case).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ (value &- 10)
    }

    /// Decodes `%XX` escapes and, when `plusIsSpace`, `+` as a space. Malformed escapes and byte
    /// sequences that are not UTF-8 give nil rather than a guess.
    public static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        // Fast path: nothing to decode.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(validating: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let h = hexValue(bytes[index + 1]), let l = hexValue(bytes[index + 2]) else {
                    return nil
                }
                out.append(h << 4 | l)
                index += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }


    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
