/// An absolute URI split into the parts RFC 3986 §3 names. Only what a client needs: it checks the
/// syntax strictly enough to compare redirect URIs and decide whether an endpoint is secure, and keeps
/// every part in its original, still-encoded form.
public struct URI: Sendable, Equatable {
    /// Lower-cased scheme, e.g. "https" or "com.example.app".
    public let scheme: String
    /// Lower-cased host without brackets ("::1" for "[::1]"); nil when the URI has no authority.
    public let host: String?
    public let port: Int?
    public let hasAuthority: Bool
    public let userInfo: String?
    public let path: String
    public let query: String?
    public let fragment: String?

    public static let maxLength = 64 * 1024

    public init(parsing text: String) throws(TelenoridError) {
        guard text.utf8.count <= URI.maxLength else {
            throw TelenoridError(.malformed, "URL longer than \(URI.maxLength) bytes")
        }
        for byte in text.utf8 where byte <= 0x20 || byte == 0x7F || byte >= 0x80 || byte == UInt8(ascii: "\\") {
            throw TelenoridError(.malformed, "URL contains a space, control, backslash or non-ASCII character")
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw TelenoridError(.malformed, "URL has no scheme")
        }
        let scheme = text[..<colon]
        guard let first = scheme.utf8.first, URI.isAlpha(first),
              scheme.utf8.allSatisfy({ URI.isAlpha($0) || URI.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else {
            throw TelenoridError(.malformed, "URL scheme is not valid")
        }
        self.scheme = scheme.lowercased()

        var rest = text[text.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let authorityEnd = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[afterSlashes..<authorityEnd]
            path = String(rest[authorityEnd...])
            hasAuthority = true
            var hostPort = authority
            if let at = authority.lastIndex(of: "@") {
                userInfo = String(authority[..<at])
                hostPort = authority[authority.index(after: at)...]
            } else {
                userInfo = nil
            }
            (host, port) = try URI.splitHostPort(hostPort)
        } else {
            path = String(rest)
            hasAuthority = false
            host = nil
            port = nil
            userInfo = nil
        }
        try URI.checkPercentEscapes(path)
        if let query { try URI.checkPercentEscapes(query) }
    }

    /// True for hosts that never leave the machine: 127.0.0.0/8, ::1 and localhost (RFC 8252 §8.3).
    public var isLoopback: Bool {
        guard let host else { return false }
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.first == "127" else { return false }
        return octets.allSatisfy { part in
            guard let value = Int(part), part.utf8.count <= 3 else { return false }
            return (0...255).contains(value)
        }
    }

    /// An endpoint the client may send credentials or tokens to: https, or http on a loopback host.
    public var isSecureEndpoint: Bool {
        guard host?.isEmpty == false, userInfo == nil else { return false }
        return scheme == "https" || (scheme == "http" && isLoopback)
    }

    private static func splitHostPort(_ text: Substring) throws(TelenoridError) -> (String?, Int?) {
        var hostPart = text
        var portPart: Substring? = nil
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw TelenoridError(.malformed, "URL has an unterminated IPv6 address")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw TelenoridError(.malformed, "URL has junk after its IPv6 address") }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ isHexDigit($0) || $0 == 0x3A || $0 == 0x2E }) else {
                throw TelenoridError(.malformed, "URL has an invalid IPv6 address")
            }
        } else if let colon = text.lastIndex(of: ":") {
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        for byte in hostPart.utf8 where !(isAlpha(byte) || isDigit(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x3A || byte == 0x25 || byte == 0x7E) {
            throw TelenoridError(.malformed, "URL host contains a character a host may not have")
        }
        var port: Int? = nil
        if let portPart, !portPart.isEmpty {
            guard portPart.utf8.count <= 5, portPart.utf8.allSatisfy(isDigit), let value = Int(portPart), value <= 65535 else {
                throw TelenoridError(.malformed, "URL port is not a number from 0 to 65535")
            }
            port = value
        }
        return (hostPart.lowercased(), port)
    }

    private static func checkPercentEscapes(_ part: String) throws(TelenoridError) {
        var utf8 = part.utf8[...]
        while let percent = utf8.firstIndex(of: UInt8(ascii: "%")) {
            let digits = utf8[utf8.index(after: percent)...].prefix(2)
            guard digits.count == 2, digits.allSatisfy(isHexDigit) else {
                throw TelenoridError(.malformed, "URL has a malformed percent escape")
            }
            utf8 = utf8[digits.endIndex...]
        }
    }

    static func isAlpha(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
    static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b) }
}
