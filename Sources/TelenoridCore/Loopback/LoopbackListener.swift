import Synchronization

/// The loopback redirect of RFC 8252 §7.3, for desktop and command-line hosts: a socket on 127.0.0.1 that
/// the system browser is redirected to at the end of sign-in.
///
/// It answers exactly one request — a GET for its path, with its own Host — with a short page, and hands
/// that request's URL to the host, which checks it with `PendingAuthorization.handleCallback` like any
/// other redirect. Everything else (other paths and methods, another or no Host, malformed or oversized
/// requests, a browser's favicon request, and with `expectState` a callback without that state) gets an
/// error page and the wait goes on, so a stray request can neither end nor stall it: connections are
/// served side by side, each with its own short deadline (see `LoopbackConnections`). Only 127.0.0.1 is
/// bound, never a public interface.
public final class LoopbackListener: Sendable {
    /// The largest request head read; a redirect carrying a code and state is far smaller.
    public static let maxRequestBytes = 16 * 1024
    /// How long one connection may take to send its request head before it is dropped.
    public static let connectionTimeoutMilliseconds: Int32 = 5000
    /// How long the listening socket is left alone after the process ran out of descriptors.
    static let acceptPauseMilliseconds: Int64 = 100

    public let port: UInt16
    public let path: String
    /// `http://127.0.0.1:<port><path>`: register it (any port, if the provider follows RFC 8252 §7.3) and
    /// configure it as the redirect URI.
    public let redirectURI: String
    private let socket: Int32
    /// Set by the first wait; a listener serves one sign-in.
    private let used = Atomic<Bool>(false)
    /// The pending request's state, from `expectState`; nil accepts any.
    private let expectedState = Locked<String?>(nil)
    /// A pipe whose read end is in every wait's poll set: `cancel` writes a byte to end the wait at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// How many times `cancel` ran: a wait ends when it moved since the wait began.
    private let cancels = Atomic<UInt64>(0)

    /// Listens on 127.0.0.1:`port` (0: a free port the system picks) for `path` (starting with "/").
    public init(port: UInt16 = 0, path: String = "/callback") throws(TelenoridError) {
        guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= 1024,
            path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        else {
            throw TelenoridError(
                .invalidArgument, "the loopback path must start with / and hold printable ASCII without ? or #")
        }
        let fd = LibC.socket(AF_INET, LibC.nonBlockingStreamSocket, 0)
        guard fd >= 0 else { throw TelenoridError(.network, "can't create a socket: \(LoopbackListener.errnoText())") }
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            let reason = LoopbackListener.errnoText()
            close(fd)
            throw TelenoridError(.network, "can't create the listener's wakeup pipe: \(reason)")
        }
        for end in wake {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // The longest queue the system allows: connections made between a host's waits wait there, and
        // a full queue would leave the browser's to retry its SYN a second or more later.
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let reason = LoopbackListener.errnoText()
            close(fd)
            close(wake[0])
            close(wake[1])
            throw TelenoridError(.network, "can't listen on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            close(wake[0])
            close(wake[1])
            throw TelenoridError(.network, "can't read the listening port: \(LoopbackListener.errnoText())")
        }
        socket = fd
        wakeRead = wake[0]
        wakeWrite = wake[1]
        self.port = UInt16(bigEndian: actual.sin_port)
        self.path = path
        redirectURI = "http://127.0.0.1:\(self.port)\(path)"
    }

    deinit {
        close(socket)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Ends the wait under way now with `.cancelled`, from any thread; the listener can wait again. A wait
    /// that starts after it returns runs normally.
    public func cancel() {
        cancels.add(1, ordering: .releasing)
        var byte: UInt8 = 1
        // A full pipe already holds a wakeup, which is all a wait needs.
        _ = write(wakeWrite, &byte, 1)
    }

    /// Only a callback whose query carries exactly `state` (that of the pending request) ends the wait;
    /// nil accepts any. Applies to requests that arrive after it returns, also during a wait. A response
    /// in the fragment (`response_mode=fragment`) never reaches the listener with its state, so set it
    /// only for query responses.
    public func expectState(_ state: String?) throws(TelenoridError) {
        guard state?.isEmpty != true else {
            throw TelenoridError(.invalidArgument, "the expected state must not be empty")
        }
        expectedState.withLock { $0 = state }
    }

    /// Waits up to `timeoutMilliseconds` for the browser's redirect and returns its full URL. Fails with
    /// `.timeout` when none came (the listener can wait again: a host waits in slices to stay cancellable),
    /// `.consumed` once it has handed out its redirect, or while another wait is in progress, `.cancelled`
    /// when `cancel` ran during it (the listener can wait again).
    public func waitForRedirect(timeoutMilliseconds: Int32) throws(TelenoridError) -> String {
        guard timeoutMilliseconds > 0 else { throw TelenoridError(.invalidArgument, "the timeout must be positive") }
        guard !used.exchange(true, ordering: .acquiringAndReleasing) else {
            throw TelenoridError(
                .consumed, "this loopback listener has already received its redirect, or is being waited on")
        }
        let cancelsAtStart = cancels.load(ordering: .acquiring)
        let deadline = LoopbackListener.nowMilliseconds() &+ Int64(timeoutMilliseconds)
        let connections = LoopbackConnections()
        var acceptPausedUntil: Int64 = 0
        while true {
            let now = LoopbackListener.nowMilliseconds()
            guard now < deadline else {
                used.store(false, ordering: .releasing)  // nothing was handed out: another wait may follow
                throw TelenoridError(.timeout, "no redirect reached \(redirectURI) within \(timeoutMilliseconds) ms")
            }
            connections.dropExpired(now: now)
            let accepting = now >= acceptPausedUntil
            var entries = [pollfd(fd: socket, events: accepting ? Int16(POLLIN) : 0, revents: 0)]
            entries += connections.open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            entries.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            let nearest = connections.open.reduce(accepting ? deadline : min(deadline, acceptPausedUntil)) {
                min($0, $1.deadline)
            }
            let ready = entries.withUnsafeMutableBufferPointer {
                LibC.poll($0.baseAddress, nfds_t($0.count), Int32(clamping: nearest &- now))
            }
            guard cancels.load(ordering: .acquiring) == cancelsAtStart else {
                used.store(false, ordering: .releasing)  // nothing was handed out: another wait may follow
                throw TelenoridError(.cancelled, "the wait for a redirect to \(redirectURI) was cancelled")
            }
            guard ready > 0 else { continue }  // a timeout (handled above) or EINTR
            // A cancel meant for an earlier wait (or made between waits): taken out so it does not wake this one again.
            if entries[entries.count - 1].revents != 0 { drainWakeups() }
            // Reads before accepts: a connection accepted last turn is served before a flood can push it out.
            var finished: [Int] = []
            for (index, entry) in entries.enumerated().dropFirst().dropLast() where entry.revents != 0 {
                switch serve(connections, at: index - 1) {
                case .open: continue
                case .finished: finished.append(index - 1)
                case .redirect(let url): return url
                }
            }
            for position in finished.reversed() { connections.drop(at: position) }
            guard entries[0].revents != 0 else { continue }
            let connectionDeadline = min(
                deadline, LoopbackListener.nowMilliseconds() &+ Int64(LoopbackListener.connectionTimeoutMilliseconds))
            accepting: for _ in 0..<LoopbackConnections.acceptsPerTurn {
                switch connections.accept(
                    from: socket, deadline: connectionDeadline, now: LoopbackListener.nowMilliseconds())
                {
                case .accepted:
                    // Read before judged: only then is the room made, among the others.
                    let position = connections.open.count - 1
                    switch serve(connections, at: position) {
                    case .open: connections.makeRoom()
                    case .finished: connections.drop(at: position)
                    case .redirect(let url): return url
                    }
                case .retry: continue
                case .empty: break accepting
                case .outOfDescriptors:
                    acceptPausedUntil = LoopbackListener.nowMilliseconds() &+ LoopbackListener.acceptPauseMilliseconds
                    break accepting
                }
            }
        }
    }

    /// `finished`: answered, or closed by its peer; either way the caller drops it.
    private enum Served { case open, finished, redirect(String) }

    /// Reads what connection `position` has sent and, once its request head is complete (or too large),
    /// answers it: the redirect with the page that ends sign-in, anything else with an error page.
    private func serve(_ connections: LoopbackConnections, at position: Int) -> Served {
        switch connections.receive(
            at: position, maxBytes: LoopbackListener.maxRequestBytes, now: LoopbackListener.nowMilliseconds())
        {
        case .waiting:
            return .open
        case .closed:
            return .finished
        case .head(let head):
            let state = expectedState.withLock { $0 }
            switch LoopbackRequest.outcome(ofHead: head, path: path, port: port, state: state) {
            case .redirect(let target):
                Log.info("loopback.received", "the redirect to \(path)")
                connections.respond(
                    at: position, status: "200 OK",
                    body: "Sign-in is complete. You can close this window and return to the application.")
                return .redirect("http://127.0.0.1:\(port)" + target)
            case .notFound:
                connections.respond(at: position, status: "404 Not Found", body: "Not found.")
            case .badRequest:
                connections.respond(at: position, status: "400 Bad Request", body: "Bad request.")
            }
        case .tooLarge:
            connections.respond(at: position, status: "400 Bad Request", body: "Bad request.")
        }
        return .finished
    }

    // MARK: Sockets

    private func drainWakeups() {
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    private static func nowMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
