/// The `login_hint` forms mobile operators take in backchannel authentication requests (OpenID MODRNA
/// CIBA profile, CAMARA Security and Interoperability Profile): the subscriber's phone number
/// (`tel:+4790000000`), the device's public address and port as the operator's network sees it
/// (`ipport:203.0.113.7:5555`, `ipport:[2001:db8::1]:5555`), or a token the operator issued
/// (`operatortoken:...`). Each is built and checked strictly: a hint in none of these forms is refused,
/// not guessed at (a number without `+`, an address without a port), since the operator would resolve
/// it to a subscriber the host did not mean, or to none.
public enum LoginHint {
    public enum Form: Sendable, Equatable {
        case phoneNumber, ipPort, operatorToken
    }

    /// `tel:` and an E.164 number (ITU-T E.164 §6: at most 15 digits, the country code's first not 0), as
    /// RFC 3966 writes a global number without visual separators.
    public static func phoneNumber(_ e164: String) throws(TelenoridError) -> String {
        guard isE164(Array(e164.utf8)[...]) else {
            throw TelenoridError(
                .invalidArgument,
                "a phone number login hint needs an E.164 number: + and 1 to 15 digits, the first not 0")
        }
        return "tel:" + e164
    }

    /// `ipport:` with an IPv4 address in dotted decimal, or an IPv6 address (RFC 4291 §2.2, written
    /// without brackets here; the hint brackets it), and a port from 1 to 65535.
    public static func ipPort(address: String, port: Int) throws(TelenoridError) -> String {
        guard (1...65_535).contains(port) else {
            throw TelenoridError(.invalidArgument, "an ipport login hint's port must be from 1 to 65535")
        }
        if IPAddress.isIPv4(Array(address.utf8)[...]) { return "ipport:\(address):\(port)" }
        if IPAddress.isIPv6(Array(address.utf8)[...]) { return "ipport:[\(address)]:\(port)" }
        throw TelenoridError(
            .invalidArgument, "an ipport login hint needs an IPv4 address (a.b.c.d) or an IPv6 address without brackets"
        )
    }

    /// `operatortoken:` and the token the operator issued, which only the operator reads: it must be
    /// there and be printable ASCII without spaces, as it travels in a form parameter and a JWT claim.
    public static func operatorToken(_ token: String) throws(TelenoridError) -> String {
        guard isOperatorToken(Array(token.utf8)[...]) else {
            throw TelenoridError(
                .invalidArgument,
                "an operator token login hint needs a non-empty token of printable ASCII without spaces")
        }
        return "operatortoken:" + token
    }

    /// Which of the forms `hint` is in; `.invalidArgument` when it is in none.
    public static func form(of hint: String) throws(TelenoridError) -> Form {
        let bytes = Array(hint.utf8)
        if let rest = suffix(bytes, after: "tel:"), isE164(rest) { return .phoneNumber }
        if let rest = suffix(bytes, after: "ipport:"), isAddressAndPort(rest) { return .ipPort }
        if let rest = suffix(bytes, after: "operatortoken:"), isOperatorToken(rest) { return .operatorToken }
        throw TelenoridError(
            .invalidArgument,
            "the login hint is none of the forms tel:+E.164, ipport:address:port, operatortoken:token")
    }

    private static func suffix(_ bytes: [UInt8], after prefix: String) -> ArraySlice<UInt8>? {
        let head = Array(prefix.utf8)
        guard bytes.count >= head.count, bytes[..<head.count].elementsEqual(head) else { return nil }
        return bytes[head.count...]
    }

    static func isE164(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "+") else { return false }
        let digits = text.dropFirst()
        return (1...15).contains(digits.count) && digits.allSatisfy(ASCII.isDigit)
            && digits.first != UInt8(ascii: "0")
    }

    static func isOperatorToken(_ text: ArraySlice<UInt8>) -> Bool {
        !text.isEmpty && text.count <= 4096 && text.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// `a.b.c.d:port` or `[IPv6]:port`.
    static func isAddressAndPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), isPort(bytes[(colon + 1)...]) else { return false }
        let address = bytes[bytes.startIndex..<colon]
        if address.first == UInt8(ascii: "["), address.last == UInt8(ascii: "]"), address.count > 2 {
            return IPAddress.isIPv6(address.dropFirst().dropLast())
        }
        return IPAddress.isIPv4(address)
    }

    private static func isPort(_ text: ArraySlice<UInt8>) -> Bool {
        guard (1...5).contains(text.count), text.allSatisfy(ASCII.isDigit), text.first != UInt8(ascii: "0") else {
            return false
        }
        return text.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 65_535
    }

}
