import CCurl

/// One CURL easy handle. Its transfers run in curl_easy_perform, whose internal multi handle (kept by
/// libcurl with the easy handle) caches its keep-alive connections; a cancel reaches them through
/// `TransferControl`.
///
/// The handle is configured once for the transport's settings (TLS, timeouts, proxy, caps, callbacks):
/// those options never change, so setting them again per request would only cost libcurl a string copy
/// and a (wiped) free each. A request sets only its own options (URL, header list, method and body,
/// the sink) and `perform` clears them again before it returns, so nothing of one request can reach the
/// next through a pooled handle.
///
/// `@unchecked Sendable`: the pool hands a handle to one thread at a time (checked out under the pool's
/// lock), and libcurl requires exactly that of an easy handle.
final class EasyHandle: @unchecked Sendable {
    private let curl: UnsafeMutableRawPointer
    /// The transfer's sockets and its cancel state (see `TransferControl`).
    private let control = TransferControl()
    /// Held so the share outlives every handle attached to it; nil for a transport's first handle
    /// (see `CurlTransport.share`).
    private let share: CurlShare?
    private let settings: HTTPSettings
    /// libcurl's detailed message for a failed transfer (CURLOPT_ERRORBUFFER): allocated for each
    /// transfer and unset again before it is freed, so a kept handle does not hold its 256 bytes and the
    /// pointer libcurl keeps never dangles. nil between transfers.
    private(set) var errorBuffer: UnsafeMutablePointer<CChar>?
    static let errorBufferSize = Int(CURL_ERROR_SIZE)
    /// CURLOPT_BUFFERSIZE: see `configure`.
    static let receiveBufferSize = 4096
    /// CURLINFO_NUM_CONNECTS of the last transfer: new connections it had to open.
    private(set) var connectsInLastTransfer = 0
    /// The last URL this handle checked and handed to libcurl (CURLOPT_CURLU). A client sends to the same
    /// few endpoints over and over; the same text under the same permission passes the same policy, so
    /// it is neither parsed nor checked twice.
    private var target: RequestTarget?

    init(share: CurlShare?, settings: HTTPSettings) throws(TelenoridError) {
        guard let curl = curl_easy_init() else {
            throw TelenoridError(.network, "libcurl could not create a handle")
        }
        self.curl = curl
        self.share = share
        self.settings = settings
        try configure()
    }

    /// curl_easy_cleanup closes the cached connections, through `control` (CURLOPT_CLOSESOCKETFUNCTION),
    /// which is released only after it.
    deinit {
        curl_easy_cleanup(curl)
    }

    /// After `cancel` the transfer is abandoned (its connection closed) with `.cancelled`, unless the
    /// request `finishOnceSent` and may have been written already (see `TransferControl`): then the answer
    /// is awaited within the transfer's timeout and the response is marked `cancelledAfterSending`.
    func perform(
        _ request: HTTPRequest, allowPlainHTTP: Bool, socketHook: SocketHook? = nil, resolve: String? = nil
    ) throws(TelenoridError) -> HTTPResponse {
        connectsInLastTransfer = 0
        // All checks before the handle transfers anything: an insecure URL never reaches a socket.
        let target = try self.target(request.url, allowPlainHTTP: allowPlainHTTP)
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(ASCII.isTokenByte) else {
            throw TelenoridError(.invalidArgument, "HTTP method is not a valid token")
        }
        let what = "\(request.method) \(target.display)"
        // Header lines and body live in buffers that are wiped when this function returns: they may hold
        // an Authorization header, a client secret, a code, a verifier or a refresh token.
        let headers = try EasyHandle.headerLines(of: request)
        let body = SecretBuffer(copying: request.body)
        if (request.method == "GET" || request.method == "HEAD") && body.count > 0 {
            throw TelenoridError(.invalidArgument, "a \(request.method) request cannot carry a body")
        }
        let sink = ResponseSink(maxBody: settings.maxBodyBytes, maxHeaders: settings.maxHeaderBytes)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: EasyHandle.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: EasyHandle.errorBufferSize)
        self.errorBuffer = errorBuffer
        defer {
            _ = tnc_setopt_ptr(curl, CURLOPT_ERRORBUFFER, nil)
            self.errorBuffer = nil
            errorBuffer.deinitialize(count: EasyHandle.errorBufferSize)
            errorBuffer.deallocate()
        }
        try set(tnc_setopt_ptr(curl, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), "CURLOPT_ERRORBUFFER")
        let hookCall = socketHook.map(SocketHookCall.init)
        // Runs however the request ends, so the buffers freed below are never left pointed to.
        defer { clearRequest(hooked: hookCall != nil) }
        try set(tnc_setopt_slist(curl, CURLOPT_HTTPHEADER, headers.head), "CURLOPT_HTTPHEADER")
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        try set(tnc_setopt_ptr(curl, CURLOPT_WRITEDATA, sinkPointer), "CURLOPT_WRITEDATA")
        try set(tnc_setopt_ptr(curl, CURLOPT_HEADERDATA, sinkPointer), "CURLOPT_HEADERDATA")
        if let hookCall { try attach(hookCall) }
        // A CURLOPT_RESOLVE line (see `HostResolver`): read when the transfer starts, unset when it ends.
        let resolveList = try resolve.map { (line: String) throws(TelenoridError) in try ResolveList(line) }
        defer { if resolveList != nil { _ = tnc_setopt_slist(curl, CURLOPT_RESOLVE, nil) } }
        if let resolveList { try set(tnc_setopt_slist(curl, CURLOPT_RESOLVE, resolveList.head), "CURLOPT_RESOLVE") }
        try configureMethod(request.method, body: body, hasBody: request.body != nil)

        // libcurl holds raw pointers into all of these for the duration of the transfer.
        let outcome = withExtendedLifetime(sink) {
            withExtendedLifetime(body) {
                withExtendedLifetime(headers) {
                    withExtendedLifetime(hookCall) {
                        withExtendedLifetime(resolveList) {
                            transfer(finishOnceSent: request.finishOnceSent)
                        }
                    }
                }
            }
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
        let code: CURLcode
        var cancelledAfterSending = false
        switch outcome {
        case .cancelled(let sent):
            // Marked as not sent only when libcurl cannot have written any of it: a single-use input the
            // server may have seen must not be sent again.
            let error = TelenoridError(.cancelled, "\(what) was cancelled")
            throw sent ? error : error.neverSent()
        case .done(let result, let cancelled):
            code = result
            cancelledAfterSending = cancelled
        }
        guard code == CURLE_OK else {
            throw error(for: code, sink: sink, what: what, settings: settings)
        }
        var status = 0
        guard tnc_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, (100...999).contains(status) else {
            throw TelenoridError(.invalidResponse, "\(what) returned no valid HTTP status")
        }
        var response = HTTPResponse(status: status, headerBlock: sink.takeHeaderBlock(), body: sink.takeBody())
        response.cancelledAfterSending = cancelledAfterSending
        return response
    }

    /// How a transfer ended: libcurl's result (and whether a cancel came after the request may have left,
    /// for a request that finishes once sent), or abandoned by a cancel (and whether it may have left).
    private enum Outcome {
        case done(CURLcode, cancelledAfterSending: Bool)
        case cancelled(mayHaveSent: Bool)
    }

    /// Runs the transfer in curl_easy_perform. A cancel (`cancel`, any thread) shuts the transfer's
    /// sockets down, so the poll(2) it waits in returns at once and libcurl gives up on the connection;
    /// with no socket yet (DNS) the progress callback aborts it within libcurl's next turn (see
    /// `TransferControl`). libcurl closes the connection of a transfer that failed or was aborted, so a
    /// cancelled transfer leaves nothing half-read for the next one on this handle.
    ///
    /// A request that `finishOnceSent` and may have been written when the cancel comes runs on to its
    /// end (answer, error or the handle's CURLOPT_TIMEOUT_MS): its answer may carry what the server has
    /// already spent the request's single-use input on.
    private func transfer(finishOnceSent: Bool) -> Outcome {
        guard control.start(finishOnceSent: finishOnceSent) else { return .cancelled(mayHaveSent: false) }
        let result = curl_easy_perform(curl)
        let cancel = control.outcome()
        if cancel.abandoned { return .cancelled(mayHaveSent: cancel.mayHaveSent) }
        return .done(result, cancelledAfterSending: cancel.cancelledAfterSending)
    }

    /// Ends the transfer under way (see `TransferControl.cancel`). Any thread.
    func cancel() { control.cancel() }

    /// Readies the handle for a transfer: no cancel of an earlier one applies to it. Called under the
    /// transport's pool lock when the handle is checked out.
    func checkedOut() { control.reset() }

    /// The checked target for `url`: the cached one when it is the same text under the same permission,
    /// else a fresh one, which then becomes the handle's URL. The cache keeps the CURLU object alive for
    /// as long as libcurl points to it.
    private func target(_ url: String, allowPlainHTTP: Bool) throws(TelenoridError) -> RequestTarget {
        if let target, target.allowPlainHTTP == allowPlainHTTP, target.text == url { return target }
        let fresh = try RequestTarget(url, allowPlainHTTP: allowPlainHTTP)
        try set(tnc_setopt_curlu(curl, fresh.url.handle), "CURLOPT_CURLU")
        target = fresh
        return fresh
    }

    /// The request's header lines, checked: names are tokens, and no value carries CR, LF or NUL, which
    /// would let it inject headers (the value itself is never put in a message).
    ///
    /// Lines libcurl would write the same way by itself are left to it: libcurl checks every header it
    /// adds against the custom list (a dozen case-insensitive scans per request), so each line it does not
    /// need is work on every token request.
    private static func headerLines(of request: HTTPRequest) throws(TelenoridError) -> HeaderList {
        var headers = HeaderList()
        let postsBody = request.method == "POST" && request.body != nil
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(ASCII.isTokenByte) else {
                throw TelenoridError(.invalidArgument, "a request header name is not a valid token")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw TelenoridError(.invalidArgument, "request header \(name) has a line break or NUL in its value")
            }
            // CURLOPT_POSTFIELDS: "libcurl will set that Content-Type by default".
            if postsBody && value == formContentType && ASCII.equalsIgnoringCase(name.utf8, "content-type".utf8) {
                continue
            }
            try headers.append(name: name, value: value)
        }
        if let authorization = request.authorization {
            guard !authorization.withUnsafeBytes({ $0.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }) else {
                throw TelenoridError(.invalidArgument, "the Authorization header has a line break or NUL in its value")
            }
            try headers.append(name: "Authorization", value: authorization)
        }
        // "Expect: 100-continue" would cost a round trip on larger POSTs, and servers mishandle it. libcurl
        // asks for it only above a body size (1024 bytes in 7.x, 1 MiB since 8.0; CURLOPT_HTTPHEADER), so
        // smaller bodies need no line removing it.
        if (request.body?.count ?? 0) > expectThreshold { try headers.appendRemoval(of: "Expect") }
        return headers
    }

    private static let formContentType = "application/x-www-form-urlencoded"
    /// The smallest body size above which any libcurl version adds "Expect: 100-continue" to a POST.
    private static let expectThreshold = 1024

    private func set(_ code: CURLcode, _ option: StaticString) throws(TelenoridError) {
        guard code == CURLE_OK else {
            throw TelenoridError(.network, "libcurl rejected \(option): \(EasyHandle.describe(code))")
        }
    }

    /// The options every transfer of this handle has: how securely, how long, how much, and where the
    /// answer goes (the sink itself is the request's, set by `perform`).
    private func configure() throws(TelenoridError) {
        if let share { try set(tnc_setopt_share(curl, share.handle), "CURLOPT_SHARE") }
        try attach(control)
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
        if let ciphers = settings.tls12CipherList {
            try set(tnc_setopt_str(curl, CURLOPT_SSL_CIPHER_LIST, ciphers), "CURLOPT_SSL_CIPHER_LIST")
        }
        if settings.caFile == nil && settings.caPath == nil {
            try trust(SystemTrust.current)
        } else {
            if let caFile = settings.caFile { try set(tnc_setopt_str(curl, CURLOPT_CAINFO, caFile), "CURLOPT_CAINFO") }
            if let caPath = settings.caPath { try set(tnc_setopt_str(curl, CURLOPT_CAPATH, caPath), "CURLOPT_CAPATH") }
        }
        // "" disables proxies, including any named by http_proxy/https_proxy/all_proxy in the environment.
        try set(tnc_setopt_str(curl, CURLOPT_PROXY, settings.proxy ?? ""), "CURLOPT_PROXY")
        if settings.proxy == nil {
            // No proxy for any host, so nothing (an environment's no_proxy included) can bring one back.
            try set(tnc_setopt_str(curl, CURLOPT_NOPROXY, "*"), "CURLOPT_NOPROXY")
        } else {
            // Set explicitly so no_proxy from the environment cannot change the route; loopback stays
            // direct, since plain http to loopback is only acceptable because it never leaves the machine.
            try set(tnc_setopt_str(curl, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1"), "CURLOPT_NOPROXY")
        }
        try set(
            tnc_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds),
            "CURLOPT_CONNECTTIMEOUT_MS")
        try set(tnc_setopt_long(curl, CURLOPT_TIMEOUT_MS, settings.totalTimeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        // Refuses up front a body whose Content-Length is over the cap; the write callback enforces the
        // cap on bodies of unknown length (and on servers that lie about it).
        try set(
            tnc_setopt_off_t(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxBodyBytes)),
            "CURLOPT_MAXFILESIZE_LARGE")
        // libcurl 7.x allocates its receive buffer (16 kB unless told) at the start of every transfer and
        // frees it at the end, and every block it frees is wiped first (WipingAllocator). A token, JWKS or
        // userinfo response mostly fits in 4 kB, and a longer one is read in more turns of the same loop;
        // the wipe is then of 4 kB per request instead of 16 kB (callgrind, 350 refreshes: see the commit).
        try set(tnc_setopt_long(curl, CURLOPT_BUFFERSIZE, EasyHandle.receiveBufferSize), "CURLOPT_BUFFERSIZE")
        try set(tnc_setopt_str(curl, CURLOPT_USERAGENT, settings.userAgent), "CURLOPT_USERAGENT")
        // Literal closures without captures, so Swift can pass them to C as plain function pointers. With
        // no sink set (between requests) they take nothing, which aborts the transfer.
        try set(
            tnc_setopt_write_function(curl) { data, size, count, user in
                guard let user else { return 0 }
                return Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue().receiveBody(data, size, count)
            }, "CURLOPT_WRITEFUNCTION")
        try set(
            tnc_setopt_header_function(curl) { data, size, count, user in
                guard let user else { return 0 }
                return Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue().receiveHeader(data, size, count)
            }, "CURLOPT_HEADERFUNCTION")
    }

    /// The callbacks through which `control` knows the transfer's sockets and whether its request may have
    /// left, and aborts it once cancelled. Literal closures without captures, as in `configure`.
    private func attach(_ control: TransferControl) throws(TelenoridError) {
        let user = Unmanaged.passUnretained(control).toOpaque()
        try set(
            tnc_setopt_opensocket_function(curl) { user, purpose, address in
                guard let user, let address, purpose == CURLSOCKTYPE_IPCXN else { return CURL_SOCKET_BAD }
                return Unmanaged<TransferControl>.fromOpaque(user).takeUnretainedValue().openSocket(address)
            }, "CURLOPT_OPENSOCKETFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_OPENSOCKETDATA, user), "CURLOPT_OPENSOCKETDATA")
        try set(
            tnc_setopt_closesocket_function(curl) { user, fd in
                guard let user else { return close(fd) }
                return Unmanaged<TransferControl>.fromOpaque(user).takeUnretainedValue().closeSocket(fd)
            }, "CURLOPT_CLOSESOCKETFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_CLOSESOCKETDATA, user), "CURLOPT_CLOSESOCKETDATA")
        try set(
            tnc_setopt_prereq_function(curl) { user, _, _, _, _ in
                guard let user else { return CURL_PREREQFUNC_ABORT }
                return Unmanaged<TransferControl>.fromOpaque(user).takeUnretainedValue().beforeRequest()
            }, "CURLOPT_PREREQFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_PREREQDATA, user), "CURLOPT_PREREQDATA")
        try set(
            tnc_setopt_xferinfo_function(curl) { user, _, _, _, _ in
                guard let user else { return 1 }
                return Unmanaged<TransferControl>.fromOpaque(user).takeUnretainedValue().shouldAbort() ? 1 : 0
            }, "CURLOPT_XFERINFOFUNCTION")
        try set(tnc_setopt_ptr(curl, CURLOPT_XFERINFODATA, user), "CURLOPT_XFERINFODATA")
        try set(tnc_setopt_long(curl, CURLOPT_NOPROGRESS, 0), "CURLOPT_NOPROGRESS")
    }

    /// The system's trust (see `SystemTrust`), for a configuration without a CA file or path. NULL clears
    /// an option, libcurl's compiled-in path included.
    private func trust(_ trust: SystemTrust) throws(TelenoridError) {
        switch trust {
        case .libcurlDefault:
            break
        case .bundle(let path):
            try set(tnc_setopt_str(curl, CURLOPT_CAINFO, path), "CURLOPT_CAINFO")
        case .environment(let file, let directory):
            try set(tnc_setopt_str(curl, CURLOPT_CAINFO, file), "CURLOPT_CAINFO")
            try set(tnc_setopt_str(curl, CURLOPT_CAPATH, directory), "CURLOPT_CAPATH")
        }
    }

    /// Puts the request's own options back to libcurl's defaults: no header list, no sink, no body, GET,
    /// and no socket hook. Setting an option to a default cannot fail (libcurl only stores it), so the
    /// results are not checked. CURLOPT_HTTPGET goes last: CURLOPT_POSTFIELDS, even NULL, switches the
    /// method to POST.
    private func clearRequest(hooked: Bool) {
        _ = tnc_setopt_slist(curl, CURLOPT_HTTPHEADER, nil)
        _ = tnc_setopt_ptr(curl, CURLOPT_WRITEDATA, nil)
        _ = tnc_setopt_ptr(curl, CURLOPT_HEADERDATA, nil)
        _ = tnc_setopt_ptr(curl, CURLOPT_POSTFIELDS, nil)
        _ = tnc_setopt_off_t(curl, CURLOPT_POSTFIELDSIZE_LARGE, -1)
        _ = tnc_setopt_str(curl, CURLOPT_CUSTOMREQUEST, nil)
        _ = tnc_setopt_long(curl, CURLOPT_HTTPGET, 1)
        if hooked {
            _ = tnc_setopt_sockopt_function(curl, nil)
            _ = tnc_setopt_ptr(curl, CURLOPT_SOCKOPTDATA, nil)
            _ = tnc_setopt_long(curl, CURLOPT_FRESH_CONNECT, 0)
            _ = tnc_setopt_long(curl, CURLOPT_FORBID_REUSE, 0)
        }
    }

    /// The host's socket hook decides on each new socket. Hooked sockets are this request's alone: none
    /// is taken from the pool, none left in it.
    private func attach(_ hookCall: SocketHookCall) throws(TelenoridError) {
        try set(
            tnc_setopt_sockopt_function(curl) { user, fd, _ in
                guard let user else { return CURL_SOCKOPT_ERROR }
                return Unmanaged<SocketHookCall>.fromOpaque(user).takeUnretainedValue().check(fd)
            }, "CURLOPT_SOCKOPTFUNCTION")
        try set(
            tnc_setopt_ptr(curl, CURLOPT_SOCKOPTDATA, Unmanaged.passUnretained(hookCall).toOpaque()),
            "CURLOPT_SOCKOPTDATA")
        try set(tnc_setopt_long(curl, CURLOPT_FRESH_CONNECT, 1), "CURLOPT_FRESH_CONNECT")
        try set(tnc_setopt_long(curl, CURLOPT_FORBID_REUSE, 1), "CURLOPT_FORBID_REUSE")
    }

    private func configureMethod(_ method: String, body: borrowing SecretBuffer, hasBody: Bool) throws(TelenoridError) {
        switch method {
        case "GET":
            try set(tnc_setopt_long(curl, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
        case "HEAD":
            try set(tnc_setopt_long(curl, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
        default:
            if method != "POST" {
                try set(tnc_setopt_str(curl, CURLOPT_CUSTOMREQUEST, method), "CURLOPT_CUSTOMREQUEST")
            }
            if method == "POST" || hasBody {
                // POSTFIELDS, not COPYPOSTFIELDS: libcurl reads our buffer in place, so the one copy is
                // the one we wipe. The pointer is never NULL: with a NULL one libcurl would read the body
                // from its default read callback, which is stdin.
                try set(tnc_setopt_long(curl, CURLOPT_POST, 1), "CURLOPT_POST")
                try set(tnc_setopt_ptr(curl, CURLOPT_POSTFIELDS, body.pointer), "CURLOPT_POSTFIELDS")
                try set(
                    tnc_setopt_off_t(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                    "CURLOPT_POSTFIELDSIZE_LARGE")
            }
        }
    }
}
