/// The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), where a resource server says why it
/// refused a token (RFC 6750 §3: `Bearer error="invalid_token"`).
public struct AuthenticationChallenge: Sendable, Equatable {
    /// Lower-cased: schemes are case-insensitive.
    public var scheme: String
    /// Names lower-cased (case-insensitive too), values unquoted, in the order sent.
    public var parameters: [(name: String, value: String)]

    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    public static func == (a: Self, b: Self) -> Bool {
        a.scheme == b.scheme && a.parameters.elementsEqual(b.parameters) { $0 == $1 }
    }

    /// Every challenge in a header value. Parsing stops at the first byte the grammar does not allow and
    /// keeps what it read before it: a half-broken header still yields its leading challenges.
    public static func parse(_ value: String) -> [AuthenticationChallenge] {
        var reader = Reader(bytes: Array(value.utf8))
        var challenges: [AuthenticationChallenge] = []
        while true {
            reader.skip { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ",") }
            let token = reader.token()
            guard !token.isEmpty else { break }
            reader.skip { $0 == 0x20 || $0 == 0x09 }
            if reader.peek == UInt8(ascii: "=") {
                // An auth-param of the challenge before it.
                reader.index += 1
                reader.skip { $0 == 0x20 || $0 == 0x09 }
                guard !challenges.isEmpty, let value = reader.paramValue() else { break }
                challenges[challenges.count - 1].parameters.append((name: ASCII.lowercased(token), value: value))
            } else {
                challenges.append(AuthenticationChallenge(scheme: ASCII.lowercased(token), parameters: []))
            }
        }
        return challenges
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skip(while matches: (UInt8) -> Bool) {
            while let byte = peek, matches(byte) { index += 1 }
        }

        /// RFC 9110 §5.6.2's token, as the transport checks request header names.
        mutating func token() -> String {
            let start = index
            skip(while: ASCII.isTokenByte)
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// token / quoted-string (RFC 9110 §5.6.4), with quoted-pairs unescaped.
        mutating func paramValue() -> String? {
            guard peek == UInt8(ascii: "\"") else {
                let value = token()
                return value.isEmpty ? nil : value
            }
            index += 1
            var value: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return nil }
                    value.append(escaped)
                    index += 1
                default: value.append(byte)
                }
            }
            return nil  // no closing quote
        }
    }
}
