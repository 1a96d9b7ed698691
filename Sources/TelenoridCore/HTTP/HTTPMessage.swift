/// One HTTP request as the client sends it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?

    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A POST of `application/x-www-form-urlencoded` parameters that expects JSON back, as every
    /// token-endpoint-like call is (RFC 6749 §4.1.3, RFC 7009 §2.1).
    public static func form(url: String, parameters: FormParameters, headers: [(name: String, value: String)] = []) -> HTTPRequest {
        HTTPRequest(method: "POST", url: url,
                    headers: headers + [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                    body: Array(parameters.encoded.utf8))
    }
}

/// One HTTP response: status, headers (names lower-cased) and body.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first(where: { $0.name == wanted })?.value
    }

    /// The media type alone, lower-cased: "application/json" for "application/json; charset=utf-8".
    public var contentType: String? {
        guard let value = header("content-type") else { return nil }
        let media = value.split(separator: ";", maxSplits: 1).first ?? ""
        return String(media.filter { $0 != " " && $0 != "\t" }).lowercased()
    }
}

/// The limits and TLS settings of every request a client makes.
public struct HTTPSettings: Sendable, Equatable {
    public var connectTimeoutMilliseconds = 10_000
    public var totalTimeoutMilliseconds = 30_000
    public var maxBodyBytes = 1 << 20
    public var maxHeaderBytes = 64 << 10
    public var caFile: String?
    public var caPath: String?
    /// Used when set; proxies named in the environment are ignored, so a library inside an app never
    /// sends tokens through a proxy the app did not choose.
    public var proxy: String?
    public var userAgent = "telenorid/0.1.0"

    public init() {}
}

/// Sends requests. The library's one implementation is `CurlTransport`; tests may stand in for it.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse
}
