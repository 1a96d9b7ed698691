/// An absolute URI split into the parts RFC 3986 §3 names. Only what a client needs: it checks the
/// syntax strictly enough to compare redirect URIs and decide whether an endpoint is secure, and keeps
/// every part in its original, still-encoded form. Parsing works on UTF-8 bytes with integer offsets:
/// Character-level String operations would pay for grapheme breaking on every step.
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
        var copy = text
        let parts: Result<Parts, TelenoridError> = copy.withUTF8 { bytes in
            do throws(TelenoridError) { return .success(try URI.split(bytes)) } catch { return .failure(error) }
        }
        (scheme, host, port, hasAuthority, userInfo, path, query, fragment) = try parts.get()
    }

    private typealias Parts = (String, String?, Int?, Bool, String?, String, String?, String?)

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) throws(TelenoridError) -> Parts {
        guard bytes.count <= URI.maxLength else {
            throw TelenoridError(.malformed, "URL longer than \(URI.maxLength) bytes")
        }
        for byte in bytes where byte <= 0x20 || byte == 0x7F || byte >= 0x80 || byte == UInt8(ascii: "\\") {
            throw TelenoridError(.malformed, "URL contains a space, control, backslash or non-ASCII character")
        }
        func text(_ range: Range<Int>) -> String {
            String(copyingUTF8: UnsafeBufferPointer(rebasing: bytes[range]))
        }
        func lowered(_ range: Range<Int>) -> String { ASCII.lowercased(UnsafeBufferPointer(rebasing: bytes[range])) }
        func first(_ byte: UInt8, in range: Range<Int>) -> Int? {
            var index = range.lowerBound
            while index < range.upperBound {
                if bytes[index] == byte { return index }
                index += 1
            }
            return nil
        }

        guard let colon = first(UInt8(ascii: ":"), in: 0..<bytes.count), colon > 0, ASCII.isAlpha(bytes[0]),
            bytes[0..<colon].allSatisfy({
                ASCII.isAlpha($0) || ASCII.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        else {
            throw TelenoridError(.malformed, "URL has no valid scheme")
        }
        let scheme = lowered(0..<colon)
        var end = bytes.count
        var fragment: String? = nil
        if let hash = first(UInt8(ascii: "#"), in: colon + 1..<end) {
            fragment = text(hash + 1..<end)
            end = hash
        }
        var query: String? = nil
        if let question = first(UInt8(ascii: "?"), in: colon + 1..<end) {
            try checkPercentEscapes(bytes, question + 1..<end)
            query = text(question + 1..<end)
            end = question
        }
        var start = colon + 1
        var host: String? = nil, port: Int? = nil, userInfo: String? = nil, hasAuthority = false
        if end - start >= 2 && bytes[start] == UInt8(ascii: "/") && bytes[start + 1] == UInt8(ascii: "/") {
            hasAuthority = true
            let authorityStart = start + 2
            let authorityEnd = first(UInt8(ascii: "/"), in: authorityStart..<end) ?? end
            var hostStart = authorityStart
            var at = authorityEnd
            while at > authorityStart {
                at -= 1
                if bytes[at] == UInt8(ascii: "@") {
                    userInfo = text(authorityStart..<at)
                    hostStart = at + 1
                    break
                }
            }
            (host, port) = try splitHostPort(bytes, hostStart..<authorityEnd, lowered: lowered)
            start = authorityEnd
        }
        try checkPercentEscapes(bytes, start..<end)
        return (scheme, host, port, hasAuthority, userInfo, text(start..<end), query, fragment)
    }

    /// True for hosts that never leave the machine: 127.0.0.0/8, ::1 and localhost (RFC 8252 §8.3).
    /// Whether `other` names the same place: scheme, user info, host, port and path equal, query and
    /// fragment aside. A redirect arrived at its redirect URI (RFC 6749 §3.1.2) when this holds and the
    /// redirect URI's own query pairs are kept.
    /// Scheme, authority (without user info) and path: where a request went, without what it carried in
    /// its query or fragment (a callback's code and state), for messages that name an address.
    public var address: String {
        guard hasAuthority else { return "\(scheme):\(path)" }
        let hostPart = host.map { $0.utf8.contains(UInt8(ascii: ":")) ? "[\($0)]" : $0 } ?? ""
        return "\(scheme)://\(hostPart)\(port.map { ":\($0)" } ?? "")\(path)"
    }

    public func hasSameOriginAndPath(as other: URI) -> Bool {
        scheme == other.scheme && userInfo == other.userInfo && host == other.host && port == other.port
            && path == other.path
    }

    public var isLoopback: Bool {
        guard let host else { return false }
        if host == "localhost" || host == "::1" { return true }
        let octets = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0].elementsEqual("127".utf8) else { return false }
        return octets.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(ASCII.isDigit) else { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    /// An endpoint the client may send credentials or tokens to: https, or http on a loopback host.
    public var isSecureEndpoint: Bool {
        guard host?.isEmpty == false, userInfo == nil else { return false }
        return scheme == "https" || (scheme == "http" && isLoopback)
    }

    private static func splitHostPort(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
        lowered: (Range<Int>) -> String
    ) throws(TelenoridError) -> (String?, Int?) {
        var hostRange = range
        var portRange: Range<Int>? = nil
        if let open = range.first, bytes[open] == UInt8(ascii: "[") {
            guard let close = range.first(where: { bytes[$0] == UInt8(ascii: "]") }) else {
                throw TelenoridError(.malformed, "URL has an unterminated IPv6 address")
            }
            hostRange = open + 1..<close
            if close + 1 < range.upperBound {
                guard bytes[close + 1] == UInt8(ascii: ":") else {
                    throw TelenoridError(.malformed, "URL has junk after its IPv6 address")
                }
                portRange = close + 2..<range.upperBound
            }
            guard !hostRange.isEmpty,
                hostRange.allSatisfy({ ASCII.isHexDigit(bytes[$0]) || bytes[$0] == 0x3A || bytes[$0] == 0x2E })
            else {
                throw TelenoridError(.malformed, "URL has an invalid IPv6 address")
            }
        } else if let colon = range.last(where: { bytes[$0] == UInt8(ascii: ":") }) {
            hostRange = range.lowerBound..<colon
            portRange = colon + 1..<range.upperBound
        }
        for index in hostRange {
            let byte = bytes[index]
            guard
                ASCII.isAlpha(byte) || ASCII.isDigit(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F
                    || byte == 0x3A
                    || byte == 0x25 || byte == 0x7E
            else {
                throw TelenoridError(.malformed, "URL host contains a character a host may not have")
            }
        }
        var port: Int? = nil
        if let portRange, !portRange.isEmpty {
            guard portRange.count <= 5, portRange.allSatisfy({ ASCII.isDigit(bytes[$0]) }) else {
                throw TelenoridError(.malformed, "URL port is not a number from 0 to 65535")
            }
            let value = portRange.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
            guard value <= 65535 else { throw TelenoridError(.malformed, "URL port is not a number from 0 to 65535") }
            port = value
        }
        return (lowered(hostRange), port)
    }

    private static func checkPercentEscapes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(TelenoridError)
    {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound,
                    ASCII.isHexDigit(bytes[index + 1]), ASCII.isHexDigit(bytes[index + 2])
                else {
                    throw TelenoridError(.malformed, "URL has a malformed percent escape")
                }
                index += 3
            } else {
                index += 1
            }
        }
    }

}
