import CCurl
import Glibc

/// One CURL easy handle and the keep-alive connections libcurl caches inside it.
///
/// `@unchecked Sendable`: the pool hands a handle to one thread at a time (checked out under the pool's
/// mutex), and libcurl requires exactly that of an easy handle.
final class EasyHandle: @unchecked Sendable {
    private let curl: UnsafeMutableRawPointer
    /// Held so the share outlives every handle attached to it.
    private let share: CurlShare
    /// libcurl's detailed message for a failed transfer. Owned by the handle rather than by one transfer
    /// so the pointer libcurl keeps can never dangle.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE)
    /// CURLINFO_NUM_CONNECTS of the last transfer: new connections it had to open.
    private(set) var connectsInLastTransfer = 0

    init(share: CurlShare) throws(TelenoridError) {
        guard let curl = curl_easy_init() else {
            throw TelenoridError(.network, "libcurl could not create a handle")
        }
        self.curl = curl
        self.share = share
        errorBuffer = .allocate(capacity: EasyHandle.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: EasyHandle.errorBufferSize)
    }

    deinit {
        curl_easy_cleanup(curl)
        errorBuffer.deinitialize(count: EasyHandle.errorBufferSize)
        errorBuffer.deallocate()
    }

    /// Forgets every option of the last transfer; keeps live connections, the share and caches.
    func reset() { curl_easy_reset(curl) }

    func perform(_ request: HTTPRequest, target: borrowing RequestTarget, settings: HTTPSettings,
                 socketHook: SocketHook? = nil) throws(TelenoridError) -> HTTPResponse {
        connectsInLastTransfer = 0
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(EasyHandle.isTokenByte) else {
            throw TelenoridError(.invalidArgument, "HTTP method is not a valid token")
        }
        let what = "\(request.method) \(target.display)"

        // Header lines and body live in buffers that are wiped when this function returns: they may hold
        // an Authorization header, a client secret, a code, a verifier or a refresh token.
        var headers = HeaderList()
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(EasyHandle.isTokenByte) else {
                throw TelenoridError(.invalidArgument, "a request header name is not a valid token")
            }
            // CR or LF would let a value inject headers; the value itself is never put in a message.
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw TelenoridError(.invalidArgument, "request header \(name) has a line break or NUL in its value")
            }
            try headers.append(name: name, value: value)
        }
        if let authorization = request.authorization {
            guard !authorization.withUnsafeBytes({ $0.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }) else {
                throw TelenoridError(.invalidArgument, "the Authorization header has a line break or NUL in its value")
            }
            try headers.append(name: "Authorization", value: authorization)
        }
        // "Expect: 100-continue" would cost a round trip on larger POSTs, and servers mishandle it.
        try headers.appendRemoval(of: "Expect")

        let hasBody = request.body != nil
        let body = SecretBuffer(copying: request.body)
        switch request.method {
        case "GET", "HEAD":
            guard body.count == 0 else {
                throw TelenoridError(.invalidArgument, "a \(request.method) request cannot carry a body")
            }
        default:
            break
        }

        let sink = ResponseSink(maxBody: settings.maxBodyBytes, maxHeaders: settings.maxHeaderBytes)
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        errorBuffer[0] = 0

        func set(_ code: CURLcode, _ option: StaticString) throws(TelenoridError) {
            guard code == CURLE_OK else {
                throw TelenoridError(.network, "libcurl rejected \(option): \(EasyHandle.describe(code))")
            }
        }
        try set(tnc_setopt_share(curl, share.handle), "CURLOPT_SHARE")
        try set(tnc_setopt_curlu(curl, target.url.handle), "CURLOPT_CURLU")
        try set(tnc_setopt_ptr(curl, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), "CURLOPT_ERRORBUFFER")
        // No SIGALRM for DNS timeouts: signals are process-wide and unsafe with many threads.
        try set(tnc_setopt_long(curl, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        try set(tnc_setopt_str(curl, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR")
        try set(tnc_setopt_str(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"), "CURLOPT_REDIR_PROTOCOLS_STR")
        // A redirect is the caller's decision (it must re-check the new URL); it gets the 3xx.
        try set(tnc_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        try set(tnc_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1), "CURLOPT_SSL_VERIFYPEER")
        try set(tnc_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2), "CURLOPT_SSL_VERIFYHOST")
        try set(tnc_setopt_long(curl, CURLOPT_PROXY_SSL_VERIFYPEER, 1), "CURLOPT_PROXY_SSL_VERIFYPEER")
        try set(tnc_setopt_long(curl, CURLOPT_PROXY_SSL_VERIFYHOST, 2), "CURLOPT_PROXY_SSL_VERIFYHOST")
        try set(tnc_setopt_long(curl, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)), "CURLOPT_SSLVERSION")
        if let caFile = settings.caFile { try set(tnc_setopt_str(curl, CURLOPT_CAINFO, caFile), "CURLOPT_CAINFO") }
        if let caPath = settings.caPath { try set(tnc_setopt_str(curl, CURLOPT_CAPATH, caPath), "CURLOPT_CAPATH") }
        // "" disables proxies, including any named by http_proxy/https_proxy/all_proxy in the environment.
        try set(tnc_setopt_str(curl, CURLOPT_PROXY, settings.proxy ?? ""), "CURLOPT_PROXY")
        if settings.proxy != nil {
            // Set explicitly so no_proxy from the environment cannot change the route; loopback stays
            // direct, since plain http to loopback is only acceptable because it never leaves the machine.
            try set(tnc_setopt_str(curl, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1"), "CURLOPT_NOPROXY")
        }
        try set(tnc_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds), "CURLOPT_CONNECTTIMEOUT_MS")
        try set(tnc_setopt_long(curl, CURLOPT_TIMEOUT_MS, settings.totalTimeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        // Refuses up front a body whose Content-Length is over the cap; the write callback enforces the
        // cap on bodies of unknown length (and on servers that lie about it).
        try set(tnc_setopt_off_t(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxBodyBytes)), "CURLOPT_MAXFILESIZE_LARGE")
        try set(tnc_setopt_str(curl, CURLOPT_USERAGENT, settings.userAgent), "CURLOPT_USERAGENT")
        try set(tnc_setopt_slist(curl, CURLOPT_HTTPHEADER, headers.head), "CURLOPT_HTTPHEADER")
        // Literal closures without captures, so Swift can pass them to C as plain function pointers.
        try set(tnc_setopt_write_function(curl) { data, size, count, user in
            guard let user else { return 0 }
            return Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue().receiveBody(data, size, count)
        }, "CURLOPT_WRITEFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_WRITEDATA, sinkPointer), "CURLOPT_WRITEDATA")
        try set(tnc_setopt_header_function(curl) { data, size, count, user in
            guard let user else { return 0 }
            return Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue().receiveHeader(data, size, count)
        }, "CURLOPT_HEADERFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_HEADERDATA, sinkPointer), "CURLOPT_HEADERDATA")

        let hookCall = socketHook.map(SocketHookCall.init)
        if let hookCall {
            try set(tnc_setopt_sockopt_function(curl) { user, fd, _ in
                guard let user else { return CURL_SOCKOPT_ERROR }
                return Unmanaged<SocketHookCall>.fromOpaque(user).takeUnretainedValue().check(fd)
            }, "CURLOPT_SOCKOPTFUNCTION")
            try set(tnc_setopt_ptr(curl, CURLOPT_SOCKOPTDATA, Unmanaged.passUnretained(hookCall).toOpaque()), "CURLOPT_SOCKOPTDATA")
            // Hooked sockets are this request's alone: none is taken from the pool, none left in it.
            try set(tnc_setopt_long(curl, CURLOPT_FRESH_CONNECT, 1), "CURLOPT_FRESH_CONNECT")
            try set(tnc_setopt_long(curl, CURLOPT_FORBID_REUSE, 1), "CURLOPT_FORBID_REUSE")
        }

        switch request.method {
        case "GET":
            try set(tnc_setopt_long(curl, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
        case "HEAD":
            try set(tnc_setopt_long(curl, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
        default:
            if request.method != "POST" {
                try set(tnc_setopt_str(curl, CURLOPT_CUSTOMREQUEST, request.method), "CURLOPT_CUSTOMREQUEST")
            }
            if request.method == "POST" || hasBody {
                // POSTFIELDS, not COPYPOSTFIELDS: libcurl reads our buffer in place, so the one copy is
                // the one we wipe. The pointer is never NULL: with a NULL one libcurl would read the body
                // from its default read callback, which is stdin.
                try set(tnc_setopt_long(curl, CURLOPT_POST, 1), "CURLOPT_POST")
                try set(tnc_setopt_ptr(curl, CURLOPT_POSTFIELDS, body.pointer), "CURLOPT_POSTFIELDS")
                try set(tnc_setopt_off_t(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "CURLOPT_POSTFIELDSIZE_LARGE")
            }
        }

        // libcurl holds raw pointers into all of these for the duration of the transfer.
        let code = withExtendedLifetime(sink) {
            withExtendedLifetime(body) { withExtendedLifetime(headers) { withExtendedLifetime(hookCall) { curl_easy_perform(curl) } } }
        }
        var connects = 0
        // Only bookkeeping for tests: if libcurl cannot say, count nothing rather than fail the request.
        if tnc_getinfo_long(curl, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK, connects > 0 {
            connectsInLastTransfer = connects
        }
        if let verdict = hookCall?.refusal {
            // Whatever code libcurl reports for an aborted connect, the host's verdict is the reason.
            switch verdict {
            case .notCellular:
                throw TelenoridError(.lineAuthUnavailable, "\(what): the socket hook reports no cellular network")
            case .allow, .refuse:
                throw TelenoridError(.network, "\(what): the socket hook refused the connection")
            }
        }
        guard code == CURLE_OK else {
            throw error(for: code, sink: sink, what: what, settings: settings)
        }
        var status = 0
        guard tnc_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, (100...999).contains(status) else {
            throw TelenoridError(.invalidResponse, "\(what) returned no valid HTTP status")
        }
        return HTTPResponse(status: status, headers: sink.headers, body: sink.takeBody())
    }

    /// Maps a failed transfer to the core's error kinds. Messages carry the method, the URL without its
    /// query and libcurl's explanation; never a header value or a body.
    private func error(for code: CURLcode, sink: ResponseSink, what: String, settings: HTTPSettings) -> TelenoridError {
        let reason = EasyHandle.describe(code, detail: errorDetail())
        // Checked first: when a callback stops the transfer libcurl reports only a generic write error.
        switch sink.exceeded {
        case .body:
            return TelenoridError(.responseTooLarge, "\(what): response body exceeds the limit of \(settings.maxBodyBytes) bytes")
        case .headers:
            return TelenoridError(.responseTooLarge, "\(what): response headers exceed the limit of \(settings.maxHeaderBytes) bytes")
        case nil:
            break
        }
        // libcurl refuses by itself a header line over CURL_MAX_HTTP_HEADER (100 kB) before the header
        // callback sees it, and says so with CURLE_OUT_OF_MEMORY (CURLE_TOO_LARGE, 100, from 8.6.0 on).
        // Only while the header block is still arriving is that the answer's size, not this process's.
        if !sink.headersComplete && (code == CURLE_OUT_OF_MEMORY || code.rawValue == EasyHandle.curleTooLarge) {
            return TelenoridError(.responseTooLarge, "\(what): a response header line exceeds libcurl's limit: \(reason)")
        }
        switch code {
        case CURLE_FILESIZE_EXCEEDED:
            return TelenoridError(.responseTooLarge, "\(what): response body exceeds the limit of \(settings.maxBodyBytes) bytes (by its Content-Length)")
        case CURLE_OPERATION_TIMEDOUT:
            return TelenoridError(.timeout, "\(what) timed out (connect limit \(settings.connectTimeoutMilliseconds) ms, total \(settings.totalTimeoutMilliseconds) ms): \(reason)")
        case CURLE_PARTIAL_FILE:
            return TelenoridError(.network, "\(what): response truncated, the connection closed before the whole body arrived: \(reason)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return TelenoridError(.tls, "\(what): TLS failed: \(reason)").neverSent()
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TelenoridError(.network, "\(what): name not resolved: \(reason)").neverSent()
        case CURLE_COULDNT_CONNECT:
            return TelenoridError(.network, "\(what): could not connect: \(reason)").neverSent()
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return TelenoridError(.network, "\(what): connection failed: \(reason)")
        default:
            return TelenoridError(.network, "\(what) failed: \(reason)")
        }
    }

    private func errorDetail() -> String {
        // Bounded by the buffer size even if libcurl had left it unterminated.
        let bytes = UnsafeBufferPointer(start: errorBuffer, count: EasyHandle.errorBufferSize)
        return String(decoding: HTTPResponse.trimmed(bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }), as: UTF8.self)
    }

    /// curl_easy_strerror's text, plus the error buffer's more specific one when it says more.
    static func describe(_ code: CURLcode, detail: String = "") -> String {
        let summary = String(cString: curl_easy_strerror(code))
        return detail.isEmpty || detail == summary ? summary : "\(summary) (\(detail))"
    }

    /// CURLE_TOO_LARGE, which the 7.x headers this may be built against do not define.
    private static let curleTooLarge: UInt32 = 100

    /// RFC 9110 §5.6.2 tchar: what a method or header name may consist of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// A curl_slist of request header lines. Freed on every exit, and each line is wiped first: an
/// Authorization header or client credentials would otherwise stay in freed heap memory.
struct HeaderList: ~Copyable {
    private(set) var head: UnsafeMutablePointer<curl_slist>? = nil

    /// Appends "name: value", or "name;" for an empty value (libcurl's syntax for sending an empty
    /// header; "name:" would remove it instead).
    mutating func append(name: String, value: String) throws(TelenoridError) {
        var value = value  // withUTF8 needs it mutable; no copy of the bytes
        try append(name: name, appended: value.withUTF8 { appendLine(name, UnsafeRawBufferPointer($0)) })
    }

    /// "name: value" for a secret value, copied from its wiping storage straight into the wiped line.
    mutating func append(name: String, value: SecretBytes) throws(TelenoridError) {
        try append(name: name, appended: value.withUnsafeBytes { appendLine(name, $0) })
    }

    /// "name:" tells libcurl not to send a header it would add by itself.
    mutating func appendRemoval(of name: String) throws(TelenoridError) {
        try append(name: name, appended: appendLine(name, nil))
    }

    private mutating func append(name: String, appended: UnsafeMutablePointer<curl_slist>?) throws(TelenoridError) {
        guard let appended else { throw TelenoridError(.network, "out of memory building request headers") }
        head = appended
    }

    /// The list with "name: value" (or "name;" for an empty value, "name:" for a nil one) appended, or nil
    /// when libcurl is out of memory. The line is built in a buffer wiped before it is freed.
    private func appendLine(_ name: String, _ value: UnsafeRawBufferPointer?) -> UnsafeMutablePointer<curl_slist>? {
        let separator = value == nil ? ":" : value!.isEmpty ? ";" : ": "
        let count = name.utf8.count + separator.utf8.count + (value?.count ?? 0) + 1
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer {
            Crypto.wipe(line, count)
            line.deallocate()
        }
        var offset = 0
        for byte in name.utf8 { line[offset] = byte; offset += 1 }
        for byte in separator.utf8 { line[offset] = byte; offset += 1 }
        for byte in value ?? UnsafeRawBufferPointer(start: nil, count: 0) { line[offset] = byte; offset += 1 }
        line[offset] = 0
        // libcurl copies the line into the new node.
        return line.withMemoryRebound(to: CChar.self, capacity: count) { curl_slist_append(head, $0) }
    }

    deinit {
        var node = head
        while let current = node {
            if let data = current.pointee.data { Crypto.wipe(data, strlen(data)) }
            node = current.pointee.next
        }
        curl_slist_free_all(head)
    }
}

/// The request body as libcurl reads it: one buffer, wiped and freed when the transfer is over.
struct SecretBuffer: ~Copyable {
    let pointer: UnsafeMutableRawPointer
    let count: Int
    private let capacity: Int

    init(copying bytes: SecretBytes?) {
        count = bytes?.count ?? 0
        // At least one byte, so the pointer handed to CURLOPT_POSTFIELDS is valid even for an empty body.
        capacity = Swift.max(count, 1)
        pointer = .allocate(byteCount: capacity, alignment: 1)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        bytes?.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
    }

    deinit {
        Crypto.wipe(pointer, capacity)
        pointer.deallocate()
    }
}

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
            if !name.isEmpty, name.allSatisfy(EasyHandle.isTokenByte) {
                let value = HTTPResponse.trimmed(line[(colon + 1)...])
                headers.append((name: HTTPResponse.asciiLowercased(String(decoding: name, as: UTF8.self)),
                                value: String(decoding: value, as: UTF8.self)))
            }
        }
        return length
    }
}
