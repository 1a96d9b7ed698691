/// The connections one wait serves side by side, so that none can hold up the one carrying the redirect:
/// a browser opens speculative connections it never sends on, and any local process can open hundreds
/// that send nothing or a byte at a time. Each has its own deadline for its request head; at most `limit`
/// are open, and past that the one idle longest (its last byte, or its accept, furthest back) is closed
/// instead of a new connection being left in the listen queue, where a flood would keep the browser's out.
/// A new connection is read as soon as it is accepted, before the choice: the browser's request is usually
/// there already, and one that is not yet has at least been idle the shortest.
final class LoopbackConnections {
    /// Far below any descriptor limit, and more than a browser ever opens to one origin.
    static let limit = 64
    /// At most this many accepted per turn, so a connection accepted before its request arrived is read
    /// again in the next turn (reads come first) before a steady flood could push it out.
    static let acceptsPerTurn = limit / 2

    struct Connection {
        let fd: Int32
        let deadline: Int64
        var head: [UInt8] = []
        /// When it was accepted or last sent a byte (monotonic milliseconds).
        var lastActive: Int64
    }

    enum Received { case waiting, closed, tooLarge, head([UInt8]) }

    enum Accepted {
        /// A new connection, at the end of `open`, maybe one over the limit until `makeRoom`.
        case accepted
        /// Nothing taken this time (an aborted connection, a signal, or a descriptor given back): try again.
        case retry
        /// The listen queue is empty.
        case empty
        /// The process is out of descriptors with none of ours to give back: the caller stops polling the
        /// listening socket for a moment rather than spin on it.
        case outOfDescriptors
    }

    /// Oldest first.
    private(set) var open: [Connection] = []

    deinit { for connection in open { close(connection.fd) } }

    /// Closes the connections whose deadline has passed, unanswered.
    func dropExpired(now: Int64) {
        open.removeAll { connection in
            guard connection.deadline <= now else { return false }
            close(connection.fd)
            return true
        }
    }

    func drop(at index: Int) {
        close(open.remove(at: index).fd)
    }

    /// Accepts one connection from the listen queue, with a deadline of `deadline`.
    func accept(from socket: Int32, deadline: Int64, now: Int64) -> Accepted {
        let fd = LibC.accept(socket)  // accept4 is not in Swift's Glibc module
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            open.append(Connection(fd: fd, deadline: deadline, lastActive: now))
            return .accepted
        }
        switch errno {
        case EINTR, ECONNABORTED: return .retry
        case EMFILE, ENFILE:
            guard let victim = longestIdle(among: open.indices) else { return .outOfDescriptors }
            drop(at: victim)
            return .retry
        default: return .empty  // EAGAIN
        }
    }

    /// Back to `limit` open connections, closing those idle longest but never the newest, which has just
    /// been accepted and read.
    func makeRoom() {
        while open.count > LoopbackConnections.limit, let victim = longestIdle(among: open.indices.dropLast()) {
            drop(at: victim)
        }
    }

    /// The least recently active connection; of equals, the oldest.
    private func longestIdle(among indices: some Sequence<Int>) -> Int? {
        indices.min { open[$0].lastActive < open[$1].lastActive }
    }

    /// Reads what connection `index` has sent; its head once the blank line has arrived.
    func receive(at index: Int, maxBytes: Int, now: Int64) -> Received {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(open[index].fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .waiting }
        guard count > 0 else { return .closed }
        open[index].lastActive = now
        open[index].head.append(contentsOf: chunk.prefix(count))
        if let end = LoopbackRequest.endOfHead(open[index].head) { return .head(Array(open[index].head.prefix(end))) }
        return open[index].head.count >= maxBytes ? .tooLarge : .waiting
    }

    /// Sends a short page and leaves the connection for the caller to close. The socket doesn't block: a
    /// peer that reads nothing gets what fits in its buffer (the whole page, in practice) and no more.
    func respond(at index: Int, status: String, body: String) {
        let page = "<!doctype html><meta charset=\"utf-8\"><title>\(body)</title><p>\(body)</p>\n"
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n" + page
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(open[index].fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }
}
