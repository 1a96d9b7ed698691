/// Percent-encoding per RFC 3986 §2.1 and the `application/x-www-form-urlencoded` reading of query
/// strings that OAuth responses use (RFC 6749 Appendix B).
public enum PercentEncoding {
    /// Encodes everything but the unreserved set [A-Za-z0-9-._~], so the result is safe as a query
    /// parameter name or value under any URL parser.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func appendEncoded(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Decodes `%XX` escapes and, when `plusIsSpace`, `+` as a space. Malformed escapes and byte
    /// sequences that are not UTF-8 give nil rather than a guess.
    public static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = text.utf8
        // Fast path: nothing to decode.
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low < utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
                out.append(h << 4 | l)
                index = utf8.index(after: low)
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
