/// Grammar pieces shared by the parser, `JSONNumber(text:)` and the serializer.
enum JSONGrammar {
    struct Failure: Error {
        let what: String
        let offset: Int
    }

    /// Scans `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` from `start` and returns the
    /// index just past it. Every read is guarded by `i < bytes.count`.
    static func scanNumber(_ bytes: [UInt8], from start: Int) -> Result<Int, Failure> {
        let end = bytes.count
        var i = start
        if i < end && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, ASCII.isDigit(bytes[i]) else {
            return .failure(Failure(what: "expected a digit in number", offset: i))
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && ASCII.isDigit(bytes[i]) {
                return .failure(Failure(what: "leading zero in number", offset: i - 1))
            }
        } else {
            while i < end && ASCII.isDigit(bytes[i]) { i += 1 }
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, ASCII.isDigit(bytes[i]) else {
                return .failure(Failure(what: "expected a digit after the decimal point", offset: i))
            }
            while i < end && ASCII.isDigit(bytes[i]) { i += 1 }
        }
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end, ASCII.isDigit(bytes[i]) else {
                return .failure(Failure(what: "expected a digit in the exponent", offset: i))
            }
            while i < end && ASCII.isDigit(bytes[i]) { i += 1 }
        }
        return .success(i)
    }

    static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(ASCII.hexDigit(byte >> 4))
                out.append(ASCII.hexDigit(byte & 0x0F))
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A key quoted and shortened for an error message: hostile keys may be huge or hold control
    /// characters, neither of which belongs in a log line.
    static func describeKey(_ key: String) -> String {
        let limit = 64
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: key.unicodeScalars.prefix(limit))
        var out: [UInt8] = []
        appendQuoted(String(scalars), to: &out)
        if key.unicodeScalars.count > limit { out.append(contentsOf: "...".utf8) }
        return DisplayText.escaping(String(decoding: out, as: UTF8.self))
    }

    static func describeByte(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F {
            return "'\(String(decoding: [byte], as: UTF8.self))'"
        }
        return "byte 0x\(String(decoding: [ASCII.hexDigit(byte >> 4), ASCII.hexDigit(byte & 0x0F)], as: UTF8.self))"
    }
}
