/// Percent-encoding per RFC 3986 §2.1 and the `application/x-www-form-urlencoded` reading of query
/// strings that OAuth responses use (RFC 6749 Appendix B).
public enum PercentEncoding {
    /// Encodes everything but the unreserved set [A-Za-z0-9-._~], so the result is safe as a query
    /// parameter name or value under any URL parser.
    public static func encode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            exactString(worstCase: bytes.count * 3) { out, position in write(bytes, to: out, at: &position) }
        }
    }

    /// What `write` puts into temporary memory of `worstCase` bytes, copied once into a string of exactly
    /// its length: a string keeps the capacity it was made with, and an authorization URL sized for the
    /// worst case would hold three times its length for as long as the sign-in waits.
    static func exactString(worstCase: Int, _ write: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: worstCase) { buffer in
            var length = 0
            write(buffer, &length)
            let written = UnsafeBufferPointer(rebasing: buffer[0..<length])
            return String(unsafeUninitializedCapacity: length) { out in
                var copied = 0
                copy(written, to: out, at: &copied)
                return copied
            }
        }
    }

    /// Writes `bytes` percent-encoded into `out` from `position` on, advancing it. `out` must have room
    /// for three bytes per input byte. Runs of unreserved bytes (nearly all of an authorization URL) are
    /// copied whole; only the bytes between runs are escaped.
    static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
    ) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index &+= 1
            if isUnreserved(byte) { continue }
            copy(UnsafeBufferPointer(rebasing: bytes[runStart..<(index &- 1)]), to: out, at: &position)
            out[position] = UInt8(ascii: "%")
            out[position + 1] = ASCII.hexDigit(byte >> 4, upper: true)
            out[position + 2] = ASCII.hexDigit(byte & 0x0F, upper: true)
            position += 3
            runStart = index
        }
        copy(UnsafeBufferPointer(rebasing: bytes[runStart..<index]), to: out, at: &position)
    }

    /// How many bytes `write` makes of `bytes`.
    static func encodedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // A plain loop: `reduce` with its closure took 16 instructions a byte here (callgrind, the
        // authorization URL's state, nonce and challenge).
        var escapes = 0
        for byte in bytes where !isUnreserved(byte) { escapes &+= 1 }
        return bytes.count &+ 2 &* escapes
    }

    /// Writes `bytes` as they are into `out` from `position` on, advancing it.
    static func copy(
        _ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
    ) {
        // A bounds-checked slice, then one memory copy (ByteCopy says why not element by element).
        let target = UnsafeMutableBufferPointer(rebasing: out[position..<(position + bytes.count)])
        if let to = target.baseAddress { ByteCopy.copy(bytes, to: to) }
        position += bytes.count
    }

    /// Decodes `%XX` escapes and, when `plusIsSpace`, `+` as a space. Malformed escapes and byte
    /// sequences that are not UTF-8 give nil rather than a guess.
    public static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        bytes.withUnsafeBufferPointer { input in
            // Fast path: nothing to decode.
            if !input.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
                return ValidUTF8.string(UnsafeRawBufferPointer(input))
            }
            // Decoded into temporary memory (never longer than the input), validated, then copied once.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: input.count) { out -> String? in
                var index = 0, written = 0
                while index < input.count {
                    let byte = input[index]
                    if byte == UInt8(ascii: "%") {
                        guard index + 2 < input.count, let h = ASCII.hexValue(input[index + 1]),
                            let l = ASCII.hexValue(input[index + 2])
                        else {
                            return nil
                        }
                        out[written] = h << 4 | l
                        index += 3
                    } else {
                        out[written] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                        index += 1
                    }
                    written += 1
                }
                return ValidUTF8.string(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: out[0..<written])))
            }
        }
    }

    @inline(__always)
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        // A-Z a-z 0-9 - . _ ~ as two 64-bit masks over the ASCII range: a test per byte of every URL.
        // Literals here rather than static constants, whose every read would go through a lazy-init check.
        let low: UInt64 = 0x03FF_6000_0000_0000  // "-" 45, "." 46, "0"-"9" 48-57
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFE  // "A"-"Z", "_" 95, "a"-"z", "~" 126
        return byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 == 1
    }
}
