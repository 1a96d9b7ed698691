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
            let table = unreservedTable
            var length = 0
            for byte in bytes { length += table[Int(byte)] ? 1 : 3 }
            out.reserveCapacity(out.count + length)
            let hex = hexDigits
            for byte in bytes {
                if table[Int(byte)] {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
        }
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

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let unreservedTable: [Bool] = (0...255).map { isUnreserved(UInt8($0)) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
