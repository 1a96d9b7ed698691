/// IP address literals in text, read as the platform's inet_pton(3) reads them: POSIX's text forms, which
/// glibc and bionic read strictly (no leading zeros in IPv4 parts, which some parsers read as octal; no zone
/// index, which means nothing off the device; nothing after).
enum IPAddress {
    /// Dotted decimal: four numbers 0-255 without leading zeros.
    static func isIPv4(_ text: ArraySlice<UInt8>) -> Bool { isAddress(text, family: AF_INET) }

    /// RFC 4291 §2.2: eight groups of 1-4 hex digits, one run of zero groups written `::`, the last two
    /// groups optionally as dotted decimal.
    static func isIPv6(_ text: ArraySlice<UInt8>) -> Bool { isAddress(text, family: AF_INET6) }

    private static func isAddress(_ text: ArraySlice<UInt8>, family: Int32) -> Bool {
        // A NUL would end the C string early and let what follows it through unread.
        guard !text.isEmpty, text.count <= 45, !text.contains(0) else { return false }
        var address = (UInt64(0), UInt64(0))  // room for an in6_addr
        return String(decoding: text, as: UTF8.self).withCString { string in
            // bionic declares the destination non-null; an in6_addr's room always has an address.
            withUnsafeMutableBytes(of: &address) { room in
                guard let destination = room.baseAddress else { return false }
                return inet_pton(family, string, destination) == 1
            }
        }
    }
}
