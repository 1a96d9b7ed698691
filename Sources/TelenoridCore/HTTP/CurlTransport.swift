import CCurl
import Synchronization

/// HTTP through libcurl. One transport serves many threads: it keeps a small pool of easy handles, each
/// with its own connection cache, so keep-alive connections to the provider are reused.
public final class CurlTransport: HTTPTransport {
    public let settings: HTTPSettings
    private let pool = Mutex<[EasyHandle]>([])
    private static let poolLimit = 8

    /// curl_global_init once per process, before any handle: Swift runs a static initializer once,
    /// thread-safely.
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(settings: HTTPSettings) throws(TelenoridError) {
        guard CurlTransport.globalInit else { throw TelenoridError(.network, "libcurl failed to initialise") }
        self.settings = settings
    }

    deinit {
        pool.withLock { handles in handles.removeAll() }
    }

    public func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        try send(request, allowPlainHTTP: false)
    }

    /// `allowPlainHTTP` lets one call go to a non-loopback http URL; every other call must be https (or
    /// loopback http), checked before any connection is made.
    public func send(_ request: HTTPRequest, allowPlainHTTP: Bool) throws(TelenoridError) -> HTTPResponse {
        let uri: URI
        do { uri = try URI(parsing: request.url) } catch {
            throw TelenoridError(.invalidArgument, "request URL is not valid: \(error.message)")
        }
        guard uri.isSecureEndpoint || (allowPlainHTTP && uri.scheme == "http" && uri.host?.isEmpty == false) else {
            throw TelenoridError(.insecure, "refusing to send a request to \(uri.scheme)://\(uri.host ?? ""): https is required (http only on loopback)")
        }
        let easy = try checkOut()
        defer { checkIn(easy) }
        return try easy.perform(request, settings: settings)
    }

    private func checkOut() throws(TelenoridError) -> EasyHandle {
        if let reused = pool.withLock({ $0.popLast() }) { return reused }
        guard let handle = EasyHandle() else { throw TelenoridError(.network, "libcurl could not create a handle") }
        return handle
    }

    private func checkIn(_ easy: EasyHandle) {
        pool.withLock { handles in
            if handles.count < CurlTransport.poolLimit { handles.append(easy) }
        }
    }
}

/// One CURL easy handle and the connections it keeps alive. Used by one thread at a time (the pool
/// hands it out exclusively), hence @unchecked.
final class EasyHandle: @unchecked Sendable {
    private let curl: UnsafeMutableRawPointer

    init?() {
        guard let curl = curl_easy_init() else { return nil }
        self.curl = curl
    }

    deinit { curl_easy_cleanup(curl) }

    func perform(_ request: HTTPRequest, settings: HTTPSettings) throws(TelenoridError) -> HTTPResponse {
        // Reset forgets the previous request's options but keeps the connection cache.
        curl_easy_reset(curl)
        let sink = ResponseSink(maxBody: settings.maxBodyBytes, maxHeaders: settings.maxHeaderBytes)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var body = request.body ?? []
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer {
            curl_slist_free_all(headerList)
            // Request bodies carry codes, verifiers, refresh tokens and client secrets.
            body.withUnsafeMutableBytes { Crypto.wipe($0.baseAddress, $0.count) }
        }
        for (name, value) in request.headers {
            guard !name.utf8.contains(where: { $0 < 0x21 || $0 == UInt8(ascii: ":") }),
                  !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw TelenoridError(.invalidArgument, "request header \(name) is not valid")
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                throw TelenoridError(.network, "out of memory building request headers")
            }
            headerList = appended
        }
        // "Expect: 100-continue" would add a round trip to every form POST.
        if let appended = curl_slist_append(headerList, "Expect:") { headerList = appended }

        let unmanagedSink = Unmanaged.passRetained(sink)
        defer { unmanagedSink.release() }
        let result: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            body.withUnsafeMutableBufferPointer { bodyBytes in
                var code = CURLE_OK
                func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
                set(tnc_setopt_string(curl, CURLOPT_URL, request.url))
                set(tnc_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errors.baseAddress))
                set(tnc_setopt_long(curl, CURLOPT_NOSIGNAL, 1))
                set(tnc_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"))
                set(tnc_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0))
                set(tnc_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1))
                set(tnc_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2))
                if let caFile = settings.caFile { set(tnc_setopt_string(curl, CURLOPT_CAINFO, caFile)) }
                if let caPath = settings.caPath { set(tnc_setopt_string(curl, CURLOPT_CAPATH, caPath)) }
                set(tnc_setopt_string(curl, CURLOPT_PROXY, settings.proxy ?? ""))
                set(tnc_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds))
                set(tnc_setopt_long(curl, CURLOPT_TIMEOUT_MS, settings.totalTimeoutMilliseconds))
                set(tnc_setopt_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxBodyBytes)))
                set(tnc_setopt_string(curl, CURLOPT_USERAGENT, settings.userAgent))
                set(tnc_setopt_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
                set(tnc_setopt_write_callback(curl, CURLOPT_WRITEFUNCTION, ResponseSink.onBody))
                set(tnc_setopt_pointer(curl, CURLOPT_WRITEDATA, unmanagedSink.toOpaque()))
                set(tnc_setopt_write_callback(curl, CURLOPT_HEADERFUNCTION, ResponseSink.onHeader))
                set(tnc_setopt_pointer(curl, CURLOPT_HEADERDATA, unmanagedSink.toOpaque()))
                switch request.method {
                case "GET":
                    set(tnc_setopt_long(curl, CURLOPT_HTTPGET, 1))
                case "POST":
                    set(tnc_setopt_long(curl, CURLOPT_POST, 1))
                    // Points at our buffer (not COPYPOSTFIELDS) so the only copy is the one we wipe.
                    set(tnc_setopt_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(bodyBytes.baseAddress)))
                    set(tnc_setopt_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyBytes.count)))
                default:
                    set(CURLE_UNSUPPORTED_PROTOCOL)
                }
                guard code == CURLE_OK else { return code }
                return curl_easy_perform(curl)
            }
        }
        guard result == CURLE_OK else {
            throw EasyHandle.error(result, detail: String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                   sink: sink, url: request.url)
        }
        var status = 0
        _ = tnc_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: sink.headers, body: sink.body)
    }

    private static func error(_ code: CURLcode, detail: String, sink: ResponseSink, url: String) -> TelenoridError {
        let what = String(cString: curl_easy_strerror(code)) + (detail.isEmpty ? "" : " (\(detail))")
        if sink.overflowed {
            return TelenoridError(.responseTooLarge, "the response from \(url) is larger than the configured limit")
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return TelenoridError(.timeout, "\(url) did not answer in time: \(what)")
        case CURLE_FILESIZE_EXCEEDED:
            return TelenoridError(.responseTooLarge, "the response from \(url) is larger than the configured limit")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
            return TelenoridError(.tls, "TLS with \(url) failed: \(what)")
        case CURLE_PARTIAL_FILE:
            return TelenoridError(.network, "the response from \(url) was cut short: \(what)")
        default:
            return TelenoridError(.network, "request to \(url) failed: \(what)")
        }
    }
}

/// Collects a response within its caps; the C callbacks reach it through curl's user pointer.
final class ResponseSink {
    let maxBody: Int
    let maxHeaders: Int
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var headerBytes = 0
    var overflowed = false

    init(maxBody: Int, maxHeaders: Int) {
        self.maxBody = maxBody
        self.maxHeaders = maxHeaders
    }

    static let onBody: tnc_write_callback = { data, size, count, user in
        guard let data, let user else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        // Returning less than was given aborts the transfer: past the cap nothing more is read.
        guard !overflow, sink.body.count + length <= sink.maxBody else {
            sink.overflowed = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        return length
    }

    static let onHeader: tnc_write_callback = { data, size, count, user in
        guard let data, let user else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        sink.headerBytes += length
        guard !overflow, sink.headerBytes <= sink.maxHeaders else {
            sink.overflowed = true
            return 0
        }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            // A new status line (after a 100 Continue, say) starts a new header block.
            sink.headers.removeAll()
        } else if let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(line[..<colon]).lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingHTTPWhitespace()
            sink.headers.append((name, value))
        }
        return length
    }
}

extension String {
    func trimmingHTTPWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
