/// Collects one response within its caps. libcurl calls it on the thread running the transfer.
final class ResponseSink {
    enum Limit { case body, headers }

    let maxBody: Int
    let maxHeaders: Int
    /// Grown by hand so that every buffer it outgrows is wiped: a token response would otherwise leave
    /// partial copies behind at each doubling. Whatever is not taken by `takeBody` is wiped at the end.
    private var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var headerBytes = 0
    /// The blank line that ends the (final) header block has arrived.
    private(set) var headersComplete = false
    /// Which cap stopped the transfer, if one did.
    var exceeded: Limit?

    init(maxBody: Int, maxHeaders: Int) {
        self.maxBody = maxBody
        self.maxHeaders = maxHeaders
    }

    /// Returns the bytes taken; anything else makes libcurl abort with CURLE_WRITE_ERROR, which is how
    /// the transfer stops the moment the body would pass the cap (nothing more is read).
    func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int) -> Int {
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, length <= maxBody - body.count else {
            exceeded = .body
            return 0
        }
        guard length > 0, let data else { return length }
        if body.capacity - body.count < length {
            var grown: [UInt8] = []
            grown.reserveCapacity(Swift.max(body.capacity * 2, body.count + length))
            grown.append(contentsOf: body)
            ResponseSink.wipe(&body)
            body = grown
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// The body, in wiping storage; the sink keeps nothing of it.
    func takeBody() -> SecretBytes {
        defer { body = [] }
        return SecretBytes(body)
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) }
    }

    deinit { ResponseSink.wipe(&body) }

    /// One complete header line per call (status line, header, blank line, and trailers after a chunked
    /// body), with its CRLF.
    func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int) -> Int {
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        let (total, totalOverflow) = headerBytes.addingReportingOverflow(length)
        guard !overflow, !totalOverflow, total <= maxHeaders else {
            exceeded = .headers
            return 0
        }
        headerBytes = total
        guard length > 0, let data else { return length }
        let line = UnsafeRawBufferPointer(start: data, count: length)
        if line.starts(with: "HTTP/".utf8) {
            // A new status line (after a 1xx, or a proxy's CONNECT answer) starts a new header block.
            headers.removeAll()
            headersComplete = false
        } else if HTTPResponse.trimmed(line).isEmpty {
            headersComplete = true
        } else if let first = line.first, first == 0x20 || first == 0x09 {
            // Obsolete line folding (RFC 9112 §5.2): continues the previous header's value.
            let more = HTTPResponse.trimmed(line)
            if let last = headers.indices.last, !more.isEmpty {
                headers[last].value += " " + String(decoding: more, as: UTF8.self)
            }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = line[..<colon]
            // A name that is not a token is not a header; skipping it is what a lenient client does.
            if !name.isEmpty, name.allSatisfy(ASCII.isTokenByte) {
                let value = HTTPResponse.trimmed(line[(colon + 1)...])
                headers.append((name: ASCII.lowercased(String(decoding: name, as: UTF8.self)),
                                value: String(decoding: value, as: UTF8.self)))
            }
        }
        return length
    }
}
