import CCurl
import Synchronization

/// HTTP through libcurl, the transport every network call of the client goes through.
///
/// One transport is meant to be shared by many threads. It keeps a small pool of easy handles: a handle
/// is checked out for one transfer and checked back in, keeping the options of the transport's settings
/// (see `EasyHandle`), and because libcurl keeps idle keep-alive connections inside the easy handle,
/// consecutive requests to the provider reuse one connection. DNS answers and TLS sessions are shared
/// between the pooled handles through a share object (see `CurlShare` for why connections themselves
/// are not), made when a second handle is: a transport used from one thread at a time has one handle,
/// nothing to share, and no share.
///
/// Policy applied to every request, whatever the caller asks for:
/// - only https, or http to a loopback host, is sent (checked before any connection; `.insecure`), unless
///   `send(_:allowPlainHTTP:)` is used with `true`;
/// - redirects are never followed: a 3xx comes back as a response;
/// - TLS peer and host name verification are always on, TLS 1.2 at least;
/// - no proxy from the environment (see `HTTPSettings.proxy`);
/// - responses are capped (`maxBodyBytes`, `maxHeaderBytes`; `.responseTooLarge`).
public final class CurlTransport: HTTPTransport {
    public let settings: HTTPSettings
    /// Idle easy handles, most recently used last: handing out the last one first gives a single
    /// sequential caller the same handle, and so the same connection, every time. `busy` holds the handles
    /// of the transfers under way, so `cancel` can reach them. `handles` counts the handles made, and
    /// `share` is the one shared by every handle after the first (nil until a second is made).
    private let pool = Locked<(idle: [EasyHandle], busy: [EasyHandle], handles: Int, share: CurlShare?)>(
        ([], [], 0, nil))
    private let opened = Atomic<Int>(0)

    /// Idle handles kept for reuse; more may exist while more threads send at once, and the surplus is
    /// freed (closing its connections) when checked back in.
    static let poolLimit = 8
    /// CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR appeared in 7.85.0.
    private static let minimumVersion: UInt32 = 0x07_55_00

    /// curl_global_init must run once before any other libcurl call. It is thread-safe itself only
    /// since 7.84 and only on some builds, so it is guarded by Swift's once-only, thread-safe static
    /// initialisation. curl_global_cleanup is never called: the host process may use libcurl too.
    ///
    /// libcurl keeps what it sends and receives in buffers of its own (the request it assembles from
    /// the header lines and a small POST body, the download buffer, the connection's receive buffer)
    /// and frees them without wiping: with its default allocator, client secrets, codes, verifiers and
    /// tokens would stay in freed heap memory after every handle is gone. So every block libcurl frees
    /// or outgrows is wiped first. When the host initialised libcurl before us, libcurl keeps the host's
    /// allocator (curl_global_init_mem then only counts a reference) and those copies stay.
    private static let globalInit: Bool =
        curl_global_init_mem(
            tnc_global_default_flags(),
            { size in malloc(size) },
            { block in WipingAllocator.free(block) },
            { block, size in WipingAllocator.realloc(block, size) },
            { text in WipingAllocator.strdup(text) },
            { count, size in calloc(count, size) }) == CURLE_OK

    public init(settings: HTTPSettings) throws(TelenoridError) {
        guard CurlTransport.globalInit else {
            throw TelenoridError(.network, "libcurl failed to initialise")
        }
        let version = tnc_version_num()
        guard version >= CurlTransport.minimumVersion else {
            throw TelenoridError(
                .unsupported,
                "libcurl 7.85.0 or later is required, found \(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
            )
        }
        try CurlTransport.validate(settings)
        self.settings = settings
    }

    /// Frees the pooled handles (curl_easy_cleanup, closing their connections). Each handle holds a
    /// reference to the share, so the share is freed only after the last of them: curl_share_cleanup
    /// refuses a share still in use. No handle can be checked out here: `send` keeps `self` alive.
    deinit {
        pool.withLock { $0.idle.removeAll() }
    }

    /// New connections opened by this transport so far (CURLINFO_NUM_CONNECTS summed over transfers):
    /// lets tests prove keep-alive reuse.
    var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    public func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        try send(request, allowPlainHTTP: false)
    }

    /// `allowPlainHTTP: true` permits one request to an http URL on a non-loopback host. It exists for a
    /// single step of TelenorID line (header enrichment) authentication, which only works over the
    /// operator's plain-HTTP path; every other call must use `send(_:)`.
    ///
    /// `socketHook`, when given, sees every socket of this request before it connects and may refuse
    /// it; the request then opens fresh connections and leaves none behind for reuse, so no request
    /// without the hook rides on a hooked socket and vice versa.
    ///
    /// `resolve`, when given, is a CURLOPT_RESOLVE line for this request's host (`HostResolver`).
    public func send(
        _ request: HTTPRequest, allowPlainHTTP: Bool, socketHook: SocketHook? = nil, resolve: String? = nil
    ) throws(TelenoridError) -> HTTPResponse {
        let started = Log.isEnabled(.debug) ? Log.milliseconds() : nil
        do {
            let easy = try checkOut()
            defer {
                opened.add(easy.connectsInLastTransfer, ordering: .relaxed)
                checkIn(easy)
            }
            let response = try easy.perform(
                request, allowPlainHTTP: allowPlainHTTP, socketHook: socketHook, resolve: resolve)
            if let started { CurlTransport.log(request, "\(response.status)", since: started) }
            return response
        } catch {
            if let started { CurlTransport.log(request, Log.describe(error), since: started) }
            throw error
        }
    }

    /// The one log line of each exchange: method, URL without query or fragment (RequestTarget.display),
    /// the status or the error, and the time it took.
    private static func log(_ request: HTTPRequest, _ outcome: String, since started: Int64) {
        let milliseconds = Log.milliseconds() &- started
        let method = request.method.utf8.allSatisfy(ASCII.isTokenByte) ? request.method : "(an invalid method)"
        let url = (try? URI(parsing: request.url)).map(RequestTarget.display) ?? "(an invalid URL)"
        Log.debug("http.request", "\(method) \(url) \(outcome) \(milliseconds) ms")
    }

    /// Ends every transfer under way now with `.cancelled`, from any thread, at once where it waits on a
    /// socket (see `TransferControl`). Transfers checked out after it returns run normally.
    public func cancel() {
        pool.withLock { pool in
            for easy in pool.busy { easy.cancel() }
        }
    }

    /// A handle for one transfer, marked busy (and so reachable by `cancel`) under the pool's lock.
    private func checkOut() throws(TelenoridError) -> EasyHandle {
        let (reused, share): (EasyHandle?, CurlShare?) = try pool.withLock { (pool) throws(TelenoridError) in
            if let easy = pool.idle.popLast() {
                CurlTransport.shareStorage(emptied: &pool.idle, with: &pool.busy)
                pool.busy.append(easy)
                easy.checkedOut()
                return (easy, nil)
            }
            pool.handles += 1
            if pool.handles > 1 && pool.share == nil { pool.share = try CurlShare() }
            return (nil, pool.share)
        }
        if let reused { return reused }
        let fresh = try EasyHandle(share: share, settings: settings)
        pool.withLock { pool in
            pool.busy.append(fresh)
            fresh.checkedOut()
        }
        return fresh
    }

    private func checkIn(_ easy: EasyHandle) {
        let surplus: EasyHandle? = pool.withLock { pool in
            if let position = pool.busy.lastIndex(where: { $0 === easy }) { pool.busy.remove(at: position) }
            guard pool.idle.count < CurlTransport.poolLimit else {
                pool.handles -= 1
                return easy
            }
            CurlTransport.shareStorage(emptied: &pool.busy, with: &pool.idle)
            pool.idle.append(easy)
            return nil
        }
        // Freed outside the lock: curl_easy_cleanup may close connections.
        _ = surplus
    }

    /// A handle goes from one list to the other: when both are empty now, the one it left hands its storage
    /// over, so a transport used by one thread at a time keeps one array buffer between them, not one each
    /// (a client's memory), and moving the handle allocates nothing.
    private static func shareStorage(emptied source: inout [EasyHandle], with destination: inout [EasyHandle]) {
        if source.isEmpty && destination.isEmpty { swap(&source, &destination) }
    }

    private static func validate(_ settings: HTTPSettings) throws(TelenoridError) {
        guard settings.connectTimeoutMilliseconds > 0, settings.totalTimeoutMilliseconds > 0 else {
            // libcurl reads 0 as "no timeout", which a client must never have.
            throw TelenoridError(.invalidArgument, "HTTP timeouts must be positive")
        }
        guard settings.maxBodyBytes >= 0, settings.maxHeaderBytes > 0 else {
            throw TelenoridError(.invalidArgument, "HTTP response limits must be positive")
        }
        // libcurl takes C strings: an embedded NUL would silently cut a path or proxy short.
        for (name, value) in [
            ("caFile", settings.caFile), ("caPath", settings.caPath), ("proxy", settings.proxy),
            ("tls12CipherList", settings.tls12CipherList)
        ] {
            if let value, value.isEmpty || value.utf8.contains(0) {
                throw TelenoridError(.invalidArgument, "HTTP setting \(name) is empty or contains a NUL byte")
            }
        }
        guard !settings.userAgent.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw TelenoridError(.invalidArgument, "HTTP user agent contains a control character")
        }
    }
}

/// A request URL that passed the transport's security policy, parsed by libcurl into the CURLU object
/// the transfer will use. Checking our parse (URI) and then letting libcurl parse the string again could
/// disagree on odd input; handing libcurl the very object whose scheme and host were checked cannot.
/// A class so a handle can keep the last one (see `EasyHandle.target`).
final class RequestTarget {
    let text: String
    let allowPlainHTTP: Bool
    let url: CurlURL
    /// scheme://host[:port]/path for messages: never the query (it may hold a code or a token) nor user
    /// info.
    let display: String

    init(_ text: String, allowPlainHTTP: Bool) throws(TelenoridError) {
        let (uri, display, plainHTTPAllowed) = try RequestTarget.checkPolicy(text, allowPlainHTTP: allowPlainHTTP)
        let url = try CurlURL()
        guard curl_url_set(url.handle, CURLUPART_URL, text, 0) == CURLUE_OK else {
            throw TelenoridError(.invalidArgument, "libcurl cannot parse the request URL \(display)")
        }
        guard let curlScheme = url.part(CURLUPART_SCHEME), let curlHost = url.part(CURLUPART_HOST),
            ASCII.lowercased(curlScheme) == uri.scheme, !curlHost.isEmpty
        else {
            throw TelenoridError(.invalidArgument, "libcurl reads the request URL \(display) differently")
        }
        var user: UnsafeMutablePointer<CChar>? = nil
        let userResult = curl_url_get(url.handle, CURLUPART_USER, &user, 0)
        curl_free(user)
        guard userResult == CURLUE_NO_USER else {
            throw TelenoridError(.insecure, "refusing a request URL with user info (\(display))")
        }
        // Plain http was accepted because the host is loopback: libcurl must connect to loopback too.
        if uri.scheme == "http" && !plainHTTPAllowed {
            let loopback = (try? URI(parsing: "http://" + curlHost + "/"))?.isLoopback ?? false
            guard loopback else {
                throw TelenoridError(
                    .insecure, "refusing to send a request to \(display): libcurl reads its host as non-loopback")
            }
        }
        self.text = text
        self.allowPlainHTTP = allowPlainHTTP
        self.url = url
        self.display = display
    }

    /// The policy on our own parse; returns the URI, its display form and whether plain http to a
    /// non-loopback host was explicitly allowed. Also the rule for the token headers handed to a host
    /// (`ClientAuthState.requestHeaders`): a token goes nowhere the library would not send one itself.
    static func checkPolicy(_ text: String, allowPlainHTTP: Bool) throws(TelenoridError) -> (URI, String, Bool) {
        let uri: URI
        do { uri = try URI(parsing: text) } catch {
            throw TelenoridError(.invalidArgument, "request URL is not valid: \(error.message)")
        }
        let display = RequestTarget.display(uri)
        guard let host = uri.host, !host.isEmpty else {
            throw TelenoridError(.invalidArgument, "request URL \(display) has no host")
        }
        guard uri.userInfo == nil else {
            throw TelenoridError(
                .insecure, "refusing a request URL with user info (\(display)): credentials do not go in URLs")
        }
        guard uri.scheme == "https" || uri.scheme == "http" else {
            throw TelenoridError(.insecure, "refusing to send a request to \(display): only https is allowed")
        }
        let plainHTTPAllowed = allowPlainHTTP && uri.scheme == "http"
        guard uri.isSecureEndpoint || plainHTTPAllowed else {
            throw TelenoridError(
                .insecure,
                "refusing to send a request to \(display): https is required (plain http only to a loopback host)")
        }
        return (uri, display, plainHTTPAllowed)
    }

    static func display(_ uri: URI) -> String {
        var text = uri.scheme + "://"
        if let host = uri.host { text += host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host }
        if let port = uri.port { text += ":\(port)" }
        return text + uri.path
    }
}

/// Owns one libcurl URL object (CURLU).
struct CurlURL: ~Copyable {
    let handle: OpaquePointer

    init() throws(TelenoridError) {
        guard let handle = curl_url() else { throw TelenoridError(.network, "libcurl could not allocate a URL") }
        self.handle = handle
    }

    deinit { curl_url_cleanup(handle) }

    /// One component as libcurl parsed it, nil when absent.
    func part(_ which: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>? = nil
        defer { curl_free(value) }
        guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        return String(cString: value)
    }
}

/// libcurl's memory callbacks (see `CurlTransport.globalInit`): the C allocator, with every block wiped
/// before it goes back to it.
enum WipingAllocator {
    /// malloc_usable_size(3) (glibc, bionic, musl), which the Glibc module does not import: looked up once.
    private typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
    private static let usableSize: UsableSize? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size")
        .map { unsafeBitCast($0, to: UsableSize.self) }

    /// The block's size as the allocator knows it: at least what was asked for. 0 without
    /// malloc_usable_size, which leaves blocks unwiped rather than guesses their size.
    private static func usableBytes(_ block: UnsafeMutableRawPointer) -> Int { usableSize?(block) ?? 0 }

    /// explicit_bzero(3) (glibc 2.25, musl 1.1.20; bionic has none), looked up once: a memset the compiler
    /// may not drop, and on libcurl's 16 kB buffers cheaper than OPENSSL_cleanse (wide stores, not byte by byte).
    private typealias Zero = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
    private static let explicitZero: Zero? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "explicit_bzero")
        .map { unsafeBitCast($0, to: Zero.self) }

    static func free(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        if let explicitZero { explicitZero(block, usableBytes(block)) } else { Crypto.wipe(block, usableBytes(block)) }
        LibC.free(block)
    }

    /// Never in place: realloc may move the block and free the old one unwiped, so the data is moved
    /// here instead.
    static func realloc(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let block else { return malloc(size) }
        let old = usableBytes(block)
        // libcurl never asks for 0 bytes; should it, a 1-byte block keeps realloc(p, 0)'s "p is freed"
        // without the NULL that would read as out of memory.
        guard let moved = malloc(Swift.max(size, 1)) else { return nil }
        moved.copyMemory(from: block, byteCount: Swift.min(old, size))
        free(block)
        return moved
    }

    static func strdup(_ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
        guard let text else { return nil }
        let count = strlen(text) + 1
        guard let copy = malloc(count) else { return nil }
        copy.copyMemory(from: text, byteCount: count)
        return copy.assumingMemoryBound(to: CChar.self)
    }
}
