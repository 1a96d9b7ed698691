/// Text from outside (a provider's `error_description`, a token's header, a browser's callback) as it goes
/// into a message a person reads: every character that would act on a terminal or reorder a line instead
/// of showing is written as a visible escape. A message is printed to terminals and logs, where ESC starts
/// a control sequence (ECMA-48 §5.4), CR and LF forge lines, and the bidirectional embeddings, overrides
/// and isolates make text display in another order than it is read (Unicode UAX #9 §2, "Trojan Source").
public enum DisplayText {
    /// `text` with C0 controls (U+0000–U+001F), DEL (U+007F), C1 controls (U+0080–U+009F), the line and
    /// paragraph separators (U+2028, U+2029), the bidirectional marks (U+061C, U+200E, U+200F), embeddings
    /// and overrides (U+202A–U+202E) and isolates (U+2066–U+2069) written as `\x1B` (below U+0100) or
    /// `\u202E`; everything else, backslashes included, unchanged. The one function every message that quotes
    /// outside text uses.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let value = scalar.value
            let digits = value < 0x100 ? 2 : 4
            result += value < 0x100 ? "\\x" : "\\u"
            for position in stride(from: digits - 1, through: 0, by: -1) {
                let nibble = UInt8(truncatingIfNeeded: value >> (UInt32(position) * 4)) & 0x0F
                result.unicodeScalars.append(Unicode.Scalar(ASCII.hexDigit(nibble, upper: true)))
            }
        }
        return result
    }

    /// Whether `scalar` is one `escaping` writes as an escape.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
