/// The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), where a resource server says why it
/// refused a token (RFC 6750 §3: `Bearer error="invalid_token"`).
public struct AuthenticationChallenge: Sendable, Equatable {
    /// Lower-cased: schemes are case-insensitive.
    public var scheme: String
    /// Names lower-cased (case-insensitive too), values unquoted, in the order sent.
    public var parameters: [(name: String, value: String)]
    /// The token68 a challenge may carry instead of parameters (`Negotiate YIIB...==`), as sent: it is
    /// the scheme's own data, not a parameter.
    public var token68: String?

    public init(scheme: String, parameters: [(name: String, value: String)] = [], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    public static func == (a: Self, b: Self) -> Bool {
        a.scheme == b.scheme && a.token68 == b.token68 && a.parameters.elementsEqual(b.parameters) { $0 == $1 }
    }

    /// Every challenge in a header value:
    ///
    ///     WWW-Authenticate = #challenge
    ///     challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
    ///     auth-param = token BWS "=" BWS ( token / quoted-string )
    ///     token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
    ///
    /// A token68 and an auth-param both start with a run of token bytes; a run that ends in nothing but
    /// `=`s before a comma or the end is a token68, one followed by `=` and a value is a parameter.
    /// Parsing stops at the first byte the grammar does not allow and keeps what it read before it: a
    /// half-broken header still yields its leading challenges.
    public static func parse(_ value: String) -> [AuthenticationChallenge] {
        var reader = Reader(bytes: Array(value.utf8))
        var challenges: [AuthenticationChallenge] = []
        // Whether an auth-param may come next without a comma: right after a scheme and its spaces.
        var paramMayFollow = false
        while true {
            let listed = reader.skipListSeparators()
            let token = reader.token()
            guard !token.isEmpty else { break }
            let afterToken = reader.index
            let spaces = reader.skipSpaces()
            if reader.peek == UInt8(ascii: "=") {
                // An auth-param of the challenge before it; a challenge with a token68 has none.
                guard listed || paramMayFollow, let last = challenges.indices.last, challenges[last].token68 == nil
                else { break }
                reader.index += 1
                reader.skipSpaces()
                guard let value = reader.paramValue() else { break }
                challenges[last].parameters.append((name: ASCII.lowercased(token), value: value))
                paramMayFollow = false
            } else {
                guard listed || challenges.isEmpty else { break }
                var challenge = AuthenticationChallenge(scheme: ASCII.lowercased(token))
                if spaces > 0, let token68 = reader.token68() {
                    challenge.token68 = token68
                    paramMayFollow = false
                } else {
                    reader.index = afterToken
                    paramMayFollow = reader.skipSpaces() > 0
                }
                challenges.append(challenge)
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

        /// OWS (SP / HTAB); how many bytes it was.
        @discardableResult
        mutating func skipSpaces() -> Int {
            let start = index
            skip { $0 == 0x20 || $0 == 0x09 }
            return index - start
        }

        /// OWS and commas, empty list elements included (RFC 9110 §5.6.1); whether a comma was among
        /// them or this is the start of the value, so that what follows is a new list element.
        mutating func skipListSeparators() -> Bool {
            var separated = index == 0
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") {
                if byte == UInt8(ascii: ",") { separated = true }
                index += 1
            }
            return separated
        }

        /// RFC 9110 §5.6.2's token, as the transport checks request header names.
        mutating func token() -> String {
            let start = index
            skip(while: ASCII.isTokenByte)
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A token68 (RFC 9110 §11.2) that ends its challenge: followed by OWS and then a comma or the end.
        /// Anything else (`name=value`, `name="value"`) leaves the reader where it was.
        mutating func token68() -> String? {
            let start = index
            skip(while: Self.isToken68Byte)
            guard index > start else { return nil }
            skip { $0 == UInt8(ascii: "=") }
            let end = index
            skipSpaces()
            guard peek == nil || peek == UInt8(ascii: ",") else {
                index = start
                return nil
            }
            index = end
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        static func isToken68Byte(_ byte: UInt8) -> Bool {
            ASCII.isAlpha(byte) || ASCII.isDigit(byte) || "-._~+/".utf8.contains(byte)
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
