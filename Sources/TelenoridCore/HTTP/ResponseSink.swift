/// Collects one response within its caps. libcurl calls it on the thread running the transfer.
final class ResponseSink {
    enum Limit { case body, headers }

    let maxBody: Int
    let maxHeaders: Int
    /// Grown by hand so that every buffer it outgrows is wiped: a token response would otherwise leave
    /// partial copies behind at each doubling. Whatever is not taken by `takeBody` is wiped at the end.
    private var body: [UInt8] = []
    /// The lines of the last header block as received, without its status line: kept as bytes and parsed
    /// only when a header is asked for (`HTTPResponse.header`), since a client reads two or three of them.
    private var headerBlock: [UInt8] = []
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
            Crypto.wipe(&body)
            body = grown
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    func takeHeaderBlock() -> [UInt8] {
        defer { headerBlock = [] }
        return headerBlock
    }

    /// The body, in wiping storage; the sink keeps nothing of it.
    func takeBody() -> SecretBytes {
        defer { body = [] }
        return SecretBytes(body)
    }

    deinit { Crypto.wipe(&body) }

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
            headerBlock.removeAll(keepingCapacity: true)
            headersComplete = false
        } else if !line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }) {
            // Nothing but whitespace and the line end: the blank line.
            headersComplete = true
        } else {
            // A typical block is a few hundred bytes: one allocation rather than growing line by line.
            if headerBlock.capacity == 0 { headerBlock.reserveCapacity(512) }
            headerBlock.append(contentsOf: line)
        }
        return length
    }
}
