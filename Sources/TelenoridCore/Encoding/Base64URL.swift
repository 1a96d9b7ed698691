/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it; and the padded standard alphabet
/// (§4) that HTTP Basic authentication needs.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        bytes.withContiguousStorageIfAvailable { encode(UnsafeRawBufferPointer($0), alphabet: alphabet, padded: false) }
            ?? Array(bytes).withUnsafeBytes { encode($0, alphabet: alphabet, padded: false) }
    }

    /// Encodes `bytes` in place, for callers holding them in temporary memory (random draws, digests).
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        encode(bytes, alphabet: alphabet, padded: false)
    }

    /// RFC 4648 §4 base64 with `+`, `/` and `=` padding.
    public static func encodeStandard(_ bytes: some Collection<UInt8>) -> String {
        bytes.withContiguousStorageIfAvailable { encode(UnsafeRawBufferPointer($0), alphabet: standardAlphabet, padded: true) }
            ?? Array(bytes).withUnsafeBytes { encode($0, alphabet: standardAlphabet, padded: true) }
    }

    /// The length of `count` bytes in padded standard base64.
    public static func standardLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Writes `bytes` as padded standard base64 into `out` (`standardLength(bytes.count)` bytes long)
    /// and returns the length written: for a secret (Basic credentials) that must go straight into wiping
    /// storage rather than through a String.
    public static func encodeStandard(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        write(bytes, alphabet: standardAlphabet, padded: true, to: out)
    }

    /// Written straight into the string's storage, sized up front: no intermediate array, and no capacity
    /// check per character. This runs for every state, nonce, verifier and challenge.
    private static func encode(_ inp: UnsafeRawBufferPointer, alphabet: [UInt8], padded: Bool) -> String {
        String(unsafeUninitializedCapacity: (inp.count / 3) * 4 + 4) { out in write(inp, alphabet: alphabet, padded: padded, to: out) }
    }

    /// Writes the encoding of `inp` from the start of `out` and returns its length.
    private static func write(_ inp: UnsafeRawBufferPointer, alphabet: [UInt8], padded: Bool,
                              to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        alphabet.withUnsafeBufferPointer { table in
            var o = 0, i = 0
            while i + 2 < inp.count {
                let v = UInt32(inp[i]) << 16 | UInt32(inp[i + 1]) << 8 | UInt32(inp[i + 2])
                out[o] = table[Int(v >> 18)]; out[o + 1] = table[Int((v >> 12) & 63)]
                out[o + 2] = table[Int((v >> 6) & 63)]; out[o + 3] = table[Int(v & 63)]
                o += 4; i += 3
            }
            if inp.count - i == 1 {
                let v = UInt32(inp[i]) << 16
                out[o] = table[Int(v >> 18)]; out[o + 1] = table[Int((v >> 12) & 63)]
                o += 2
            } else if inp.count - i == 2 {
                let v = UInt32(inp[i]) << 16 | UInt32(inp[i + 1]) << 8
                out[o] = table[Int(v >> 18)]; out[o + 1] = table[Int((v >> 12) & 63)]
                out[o + 2] = table[Int((v >> 6) & 63)]
                o += 3
            }
            while padded && o % 4 != 0 {
                out[o] = UInt8(ascii: "=")
                o += 1
            }
            return o
        }
    }

    /// Decodes strictly: no padding, no whitespace, no standard-alphabet `+` or `/`, and no stray bits in
    /// the last character, so that every byte string has exactly one accepted encoding.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for char in text.utf8 {
            guard let value = sextet(char) else { return nil }
            buffer = ((buffer << 6) | UInt32(value)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // A single leftover character cannot encode a byte; leftover bits must be zero.
        if bits >= 6 { return nil }
        if bits > 0 && buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return out
    }

    private static func sextet(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
