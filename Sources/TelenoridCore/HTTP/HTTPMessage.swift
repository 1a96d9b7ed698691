/// One HTTP request as the client sends it.
///
/// Bodies of the client's requests carry authorization codes, PKCE verifiers, refresh tokens and client
/// secrets, and its Authorization headers carry access tokens and client credentials: both are held in
/// wiping storage (`SecretBytes`), and the transport copies them only into buffers it wipes after the
/// transfer. Secrets must not go into `headers`, whose Strings nobody wipes.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    /// The Authorization header's value (RFC 9110 §11.6.2), e.g. `bearer(_:)`'s.
    public var authorization: SecretBytes?
    public var body: SecretBytes?
    /// A request whose answer must not be lost once it may have left (a token request: it redeems a
    /// single-use code, or a refresh token the provider may rotate, RFC 9700 §4.14.2). A cancel that comes
    /// before it may have been written still ends it at once; one that comes later lets it finish within
    /// the transfer's own timeout, and the response says so (`cancelledAfterSending`).
    public var finishOnceSent = false

    public init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [],
        authorization: SecretBytes? = nil, body: SecretBytes? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.authorization = authorization
        self.body = body
    }

    /// A POST of `application/x-www-form-urlencoded` parameters that expects JSON back, as every
    /// token-endpoint-like call is (RFC 6749 §4.1.3, RFC 7009 §2.1). Content-Type and Accept are added
    /// unless `headers` already names them.
    public static func form(
        url: String, parameters: FormParameters, headers: [(name: String, value: String)] = [],
        authorization: SecretBytes? = nil
    ) -> HTTPRequest {
        var all = headers
        func has(_ name: String) -> Bool { headers.contains { ASCII.lowercased($0.name) == name } }
        if !has("content-type") { all.append((name: "Content-Type", value: "application/x-www-form-urlencoded")) }
        if !has("accept") { all.append((name: "Accept", value: "application/json")) }
        return HTTPRequest(
            method: "POST", url: url, headers: all, authorization: authorization, body: parameters.encodedSecret)
    }

    /// `Bearer <token>` (RFC 6750 §2.1), assembled in wiping storage rather than in a String.
    public static func bearer(_ token: SecretBytes) -> SecretBytes { tokenAuthorization(scheme: "Bearer", token) }

    /// `<scheme> <token>`: Bearer (RFC 6750 §2.1) or DPoP (RFC 9449 §7.1), in wiping storage.
    public static func tokenAuthorization(scheme: String, _ token: SecretBytes) -> SecretBytes {
        let prefix = (scheme + " ").utf8
        return SecretBytes(count: prefix.count + token.count) { out in
            var position = 0
            for byte in prefix { out[position] = byte; position += 1 }
            token.withUnsafeBytes { bytes in
                for byte in bytes { out[position] = byte; position += 1 }
            }
        }
    }
}

/// One HTTP response: status, headers (names lower-cased, in the order received) and body.
///
/// The body of a token response holds tokens, so it lives in wiping storage: `body` hands out that same
/// buffer (an array shares its storage until written to), and it is wiped when the last response
/// holding it goes. A copy of `body` kept beyond that is not wiped: parse it, don't keep it.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// The header lines as received, CRLF-terminated (RFC 9112 §5); parsed on each read, which is cheaper
    /// than turning every header into Strings when the client reads only a few.
    private let headerBlock: [UInt8]
    private let storage: SecretBytes
    public var body: [UInt8] { storage.bytes }
    /// A cancel came after this request (one that `finishOnceSent`) may have left: the answer was awaited
    /// all the same. The caller keeps what it brought, then reports the call cancelled.
    public internal(set) var cancelledAfterSending = false

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        var block: [UInt8] = []
        for (name, value) in headers { block += "\(name): \(value)\r\n".utf8 }
        self.init(status: status, headerBlock: block, body: SecretBytes(body))
    }

    init(status: Int, headerBlock: [UInt8], body: SecretBytes) {
        self.status = status
        self.headerBlock = headerBlock
        storage = body
    }

    public var headers: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        forEachField { name, value in
            if let name {
                fields.append((name: ASCII.lowercased(name), value: String(decoding: value, as: UTF8.self)))
            } else if let last = fields.indices.last {
                fields[last].value += " " + String(decoding: value, as: UTF8.self)
            }
        }
        return fields
    }

    /// The first header of that name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        var found: String?
        var inFound = false
        forEachField { fieldName, value in
            if let fieldName {
                inFound = found == nil && ASCII.equalsIgnoringCase(fieldName, name.utf8)
                if inFound { found = String(decoding: value, as: UTF8.self) }
            } else if inFound {
                found! += " " + String(decoding: value, as: UTF8.self)
            }
        }
        return found
    }

    /// Each header line's name and trimmed value, or a nil name and the non-empty trimmed text of an
    /// obsolete folded line (RFC 9112 §5.2), which continues the value before it. A line whose name is
    /// not a token is not a header: skipping it is what a lenient client does.
    private func forEachField(_ visit: (ArraySlice<UInt8>?, ArraySlice<UInt8>) -> Void) {
        var rest = headerBlock[...]
        while let end = rest.firstIndex(of: 0x0A) {
            let line = rest[...end]
            rest = rest[(end + 1)...]
            if let first = line.first, first == 0x20 || first == 0x09 {
                let more = HTTPResponse.trimmed(line)
                if !more.isEmpty { visit(nil, more) }
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = line[..<colon]
                if !name.isEmpty, name.allSatisfy(ASCII.isTokenByte) {
                    visit(name, HTTPResponse.trimmed(line[(colon + 1)...]))
                }
            }
        }
    }

    /// The media type alone, lower-cased: "application/json" for "Application/JSON; charset=utf-8".
    public var contentType: String? {
        guard let value = header("content-type") else { return nil }
        let media = value.utf8.prefix { $0 != UInt8(ascii: ";") }
        let trimmed = HTTPResponse.trimmed(media)
        return trimmed.isEmpty ? nil : ASCII.lowercased(String(decoding: trimmed, as: UTF8.self))
    }

    /// Drops optional whitespace (SP, HTAB) and line endings from both ends.
    static func trimmed<C: BidirectionalCollection>(_ bytes: C) -> C.SubSequence where C.Element == UInt8 {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}

/// The limits and TLS settings of every request a client makes.
public struct HTTPSettings: Sendable, Equatable {
    /// Time allowed for TCP connect plus TLS handshake.
    public var connectTimeoutMilliseconds: Int = 10_000
    /// Time allowed for the whole transfer, connect included.
    public var totalTimeoutMilliseconds: Int = 30_000
    /// Largest response body accepted; a larger one fails with `.responseTooLarge`.
    public var maxBodyBytes: Int = 1 << 20
    /// Largest response header block accepted (all header lines together).
    public var maxHeaderBytes: Int = 64 << 10
    /// A PEM bundle of CA certificates to trust instead of the system's.
    public var caFile: String?
    /// A directory of hashed CA certificates (c_rehash layout) to trust.
    public var caPath: String?
    /// The proxy to use, e.g. "http://proxy.example:3128". When nil no proxy is used at all: the
    /// http_proxy/https_proxy/all_proxy/no_proxy environment variables are deliberately ignored, so a
    /// library inside someone else's process never sends tokens through a proxy its caller did not
    /// choose. Loopback hosts never go through the proxy (a loopback http endpoint is acceptable only
    /// because its traffic never leaves the machine).
    public var proxy: String?
    /// The cipher suites TLS 1.2 connections may use, as an OpenSSL cipher list (CURLOPT_SSL_CIPHER_LIST);
    /// nil leaves the TLS library's default. TLS 1.3 suites are not affected. Set under the FAPI 2.0
    /// Security Profile, whose §5.2.2 permits only the suites BCP 195 recommends.
    public var tls12CipherList: String?
    /// "telenorid/" and TELENORID_VERSION_STRING; the core does not import the header, so
    /// scripts/check_facts.py checks the copy.
    public var userAgent: String = "telenorid/0.8.0"

    public init() {}
}

/// Sends requests. The library's one implementation is `CurlTransport`; tests may stand in for it.
/// `send` refuses any URL that is not https or http on a loopback host, with `.insecure`. Class-bound:
/// Embedded Swift has existentials of class-bound protocols only.
public protocol HTTPTransport: AnyObject, Sendable {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse
    /// Ends the sends under way with `.cancelled` (see `CurlTransport.cancel`); later sends run normally.
    func cancel()
}

extension HTTPTransport {
    /// A stand-in that answers at once has no send to end.
    public func cancel() {}
}
