/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it; and the padded standard alphabet
/// (§4) that HTTP Basic authentication needs.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

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
        bytes.withContiguousStorageIfAvailable {
            encode(UnsafeRawBufferPointer($0), alphabet: standardAlphabet, padded: true)
        }
            ?? Array(bytes).withUnsafeBytes { encode($0, alphabet: standardAlphabet, padded: true) }
    }

    /// The length of `count` bytes in padded standard base64.
    public static func standardLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Writes `bytes` as padded standard base64 into `out` (`standardLength(bytes.count)` bytes long)
    /// and returns the length written: for a secret (Basic credentials) that must go straight into wiping
    /// storage rather than through a String.
    public static func encodeStandard(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        write(bytes, alphabet: standardAlphabet, padded: true, to: out)
    }

    /// Written straight into the string's storage, sized up front: no intermediate array, and no capacity
    /// check per character. This runs for every state, nonce, verifier and challenge.
    private static func encode(_ inp: UnsafeRawBufferPointer, alphabet: [UInt8], padded: Bool) -> String {
        String(unsafeUninitializedCapacity: (inp.count / 3) * 4 + 4) { out in
            write(inp, alphabet: alphabet, padded: padded, to: out)
        }
    }

    /// Writes the encoding of `inp` from the start of `out` and returns its length.
    private static func write(
        _ inp: UnsafeRawBufferPointer, alphabet: [UInt8], padded: Bool,
        to out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
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
        text.utf8.withContiguousStorageIfAvailable { decode(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { decode($0) }
    }

    /// Decodes ASCII base64url straight from memory (a part of a JWS), with the same strictness.
    ///
    /// Every ID token validation decodes three parts, so this writes into an array of the exact decoded
    /// length in one pass, four characters to three bytes, instead of appending byte by byte.
    @_optimize(speed)
    public static func decode(_ inp: UnsafeRawBufferPointer) -> [UInt8]? {
        // A single leftover character cannot encode a byte.
        let tail = inp.count % 4
        if tail == 1 { return nil }
        let length = inp.count / 4 * 3 + (tail == 0 ? 0 : tail - 1)
        var valid = true
        let out = sextets.withUnsafeBufferPointer { sextets in
            [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
                var i = 0, o = 0
                // Sextets are 0...63; any character outside the alphabet maps to 0xFF, so or-ing the four of a
                // group and testing bit 7 checks all of them at once. Through local pointers: writing through
                // `out` itself made the compiler reload its base address for every group.
                if let from = inp.baseAddress, let to = out.baseAddress, let table = sextets.baseAddress {
                    let bytes = from.assumingMemoryBound(to: UInt8.self)
                    while inp.count &- i >= 4 {
                        let a = UInt32(table[Int(bytes[i])]), b = UInt32(table[Int(bytes[i &+ 1])])
                        let c = UInt32(table[Int(bytes[i &+ 2])]), d = UInt32(table[Int(bytes[i &+ 3])])
                        if (a | b | c | d) & 0x80 != 0 { valid = false; break }
                        let v = a << 18 | b << 12 | c << 6 | d
                        to[o] = UInt8(truncatingIfNeeded: v >> 16)
                        to[o &+ 1] = UInt8(truncatingIfNeeded: v >> 8)
                        to[o &+ 2] = UInt8(truncatingIfNeeded: v)
                        i &+= 4; o &+= 3
                    }
                }
                if valid && tail > 0 {
                    let a = UInt32(sextets[Int(inp[i])]), b = UInt32(sextets[Int(inp[i + 1])])
                    let c = tail == 3 ? UInt32(sextets[Int(inp[i + 2])]) : 0
                    let v = a << 18 | b << 12 | c << 6
                    // Leftover bits below the last whole byte must be zero.
                    let stray: UInt32 = tail == 2 ? v & 0xFFFF : v & 0xFF
                    if (a | b | c) & 0x80 != 0 || stray != 0 {
                        valid = false
                    } else {
                        out[o] = UInt8(truncatingIfNeeded: v >> 16)
                        if tail == 3 { out[o + 1] = UInt8(truncatingIfNeeded: v >> 8) }
                        o += tail - 1
                    }
                }
                // What was decoded before the fault may be part of a secret (a private JWK's d): not left behind.
                if !valid { Crypto.wipe(UnsafeMutableRawPointer(out.baseAddress), o); o = 0 }
                initialized = o
            }
        }
        return valid ? out : nil
    }

    /// The sextet of each byte value in the base64url alphabet, 0xFF for bytes outside it.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()
}
