import Glibc
import Synchronization

/// The loopback redirect of RFC 8252 §7.3, for desktop and command-line hosts: a socket on 127.0.0.1 that
/// the system browser is redirected to at the end of sign-in.
///
/// It answers exactly one request — a GET for its path — with a short page, and hands that request's URL
/// to the host, which checks it with `PendingAuthorization.handleCallback` like any other redirect.
/// Everything else (other paths, other methods, malformed or oversized requests, a browser's favicon
/// request) gets an error page and the wait goes on, so a stray request can neither end nor stall it:
/// connections are served side by side, each with its own short deadline. Only 127.0.0.1 is bound, never a public interface.
public final class LoopbackListener: Sendable {
    /// The largest request head read; a redirect carrying a code and state is far smaller.
    public static let maxRequestBytes = 16 * 1024
    /// How long one connection may take to send its request head before it is dropped.
    public static let connectionTimeoutMilliseconds: Int32 = 5000

    public let port: UInt16
    public let path: String
    /// `http://127.0.0.1:<port><path>`: register it (any port, if the provider follows RFC 8252 §7.3) and
    /// configure it as the redirect URI.
    public let redirectURI: String
    private let socket: Int32
    /// Set by the first wait; a listener serves one sign-in.
    private let used = Atomic<Bool>(false)

    /// Listens on 127.0.0.1:`port` (0: a free port the system picks) for `path` (starting with "/").
    public init(port: UInt16 = 0, path: String = "/callback") throws(TelenoridError) {
        guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count <= 1024,
              path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }) else {
            throw TelenoridError(.invalidArgument, "the loopback path must start with / and hold printable ASCII without ? or #")
        }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TelenoridError(.network, "can't create a socket: \(LoopbackListener.errnoText())") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = LoopbackListener.errnoText()
            close(fd)
            throw TelenoridError(.network, "can't listen on 127.0.0.1:\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw TelenoridError(.network, "can't read the listening port: \(LoopbackListener.errnoText())")
        }
        socket = fd
        self.port = UInt16(bigEndian: actual.sin_port)
        self.path = path
        redirectURI = "http://127.0.0.1:\(self.port)\(path)"
    }

    deinit { close(socket) }

    /// Waits up to `timeoutMilliseconds` for the browser's redirect and returns its full URL. Fails with
    /// `.timeout` when none came (the listener can wait again: a host waits in slices to stay cancellable),
    /// `.consumed` once it has handed out its redirect, or while another wait is in progress.
    public func waitForRedirect(timeoutMilliseconds: Int32) throws(TelenoridError) -> String {
        guard timeoutMilliseconds > 0 else { throw TelenoridError(.invalidArgument, "the timeout must be positive") }
        guard !used.exchange(true, ordering: .acquiringAndReleasing) else {
            throw TelenoridError(.consumed, "this loopback listener has already received its redirect, or is being waited on")
        }
        let deadline = LoopbackListener.nowMilliseconds() &+ Int64(timeoutMilliseconds)
        // Connections are served side by side: a browser may open a speculative connection it never
        // sends on, and that must not hold up the one that carries the redirect.
        var connections: [Connection] = []
        defer { for connection in connections { close(connection.fd) } }
        while true {
            let now = LoopbackListener.nowMilliseconds()
            guard now < deadline else {
                used.store(false, ordering: .releasing)  // nothing was handed out: another wait may follow
                throw TelenoridError(.timeout, "no redirect reached \(redirectURI) within \(timeoutMilliseconds) ms")
            }
            // Drop connections past their own deadline, unanswered.
            connections.removeAll { connection in
                guard connection.deadline <= now else { return false }
                close(connection.fd)
                return true
            }
            var entries = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            entries += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let nearest = connections.reduce(deadline) { min($0, $1.deadline) }
            let ready = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), Int32(clamping: nearest &- now)) }
            guard ready > 0 else { continue }  // a timeout (handled above) or EINTR
            var finished: [Int] = []
            for (index, entry) in entries.enumerated().dropFirst() where entry.revents != 0 {
                let position = index - 1
                switch LoopbackListener.receive(into: &connections[position]) {
                case .waiting: continue
                case .closed: break
                case .head(let head):
                    switch LoopbackRequest.target(ofHead: head, path: path) {
                    case .redirect(let target):
                        LoopbackListener.respond(connections[position].fd, status: "200 OK",
                                                 body: "Sign-in is complete. You can close this window and return to the application.")
                        return "http://127.0.0.1:\(port)" + target
                    case .notFound:
                        LoopbackListener.respond(connections[position].fd, status: "404 Not Found", body: "Not found.")
                    case .malformed:
                        LoopbackListener.respond(connections[position].fd, status: "400 Bad Request", body: "Bad request.")
                    }
                case .tooLarge:
                    LoopbackListener.respond(connections[position].fd, status: "400 Bad Request", body: "Bad request.")
                }
                finished.append(position)
            }
            for position in finished.reversed() {
                close(connections[position].fd)
                connections.remove(at: position)
            }
            if entries[0].revents != 0, connections.count < LoopbackListener.maxConnections {
                let fd = accept(socket, nil, nil)
                if fd >= 0 {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    connections.append(Connection(fd: fd, deadline: min(deadline, LoopbackListener.nowMilliseconds()
                        &+ Int64(LoopbackListener.connectionTimeoutMilliseconds))))
                }
            }
        }
    }

    /// At most this many connections are open at once; more wait in the listen queue.
    static let maxConnections = 16

    private struct Connection {
        let fd: Int32
        let deadline: Int64
        var head: [UInt8] = []
    }

    private enum Received { case waiting, closed, tooLarge, head([UInt8]) }

    /// Reads what a ready connection has sent; the head once its blank line has arrived.
    private static func receive(into connection: inout Connection) -> Received {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return .closed }
        connection.head.append(contentsOf: chunk.prefix(count))
        if let end = LoopbackRequest.endOfHead(connection.head) { return .head(Array(connection.head.prefix(end))) }
        return connection.head.count >= maxRequestBytes ? .tooLarge : .waiting
    }

    // MARK: Sockets

    private static func nowMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }

    private static func respond(_ fd: Int32, status: String, body: String) {
        let page = "<!doctype html><meta charset=\"utf-8\"><title>\(body)</title><p>\(body)</p>\n"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n" + page
        var bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { send(fd, $0.baseAddress.map { $0 + sent }, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// Reading the one line of an HTTP request the listener cares about.
enum LoopbackRequest {
    enum Outcome: Equatable { case redirect(target: String), notFound, malformed }

    /// The index just past the request head's blank line, if it has arrived.
    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return index + 1 }  // bare LF LF
            if bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D { return index + 1 }
        }
        return nil
    }

    /// `GET <path>[?query] HTTP/1.x` gives the target; a GET elsewhere is not found; anything else is
    /// malformed. The target must be printable ASCII (browsers percent-encode the rest).
    static func target(ofHead head: [UInt8], path: String) -> Outcome {
        let line = head.prefix { $0 != 0x0D && $0 != 0x0A }
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/1.".utf8)) else { return .malformed }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .malformed }
        guard parts[0].elementsEqual("GET".utf8) else { return .notFound }
        let targetPath = target.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard targetPath.elementsEqual(path.utf8) else { return .notFound }
        return .redirect(target: String(decoding: target, as: UTF8.self))
    }
}
