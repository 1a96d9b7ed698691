
/// The connections one wait serves side by side, so that none can hold up the one carrying the redirect:
/// a browser opens speculative connections it never sends on, and any local process can open hundreds
/// that send nothing or a byte at a time. Each has its own deadline for its request head; at most `limit`
/// are open, and past that a new connection pushes out the oldest idle one instead of being left in the
/// listen queue, where a flood would keep the browser's out.
final class LoopbackConnections {
    /// Far below any descriptor limit, and more than a browser ever opens to one origin.
    static let limit = 64
    /// At most this many accepted per turn, so a connection accepted in one turn is read in the next
    /// (reads come first) before a steady flood could push it out again.
    static let acceptsPerTurn = limit / 2

    struct Connection {
        let fd: Int32
        let deadline: Int64
        var head: [UInt8] = []
    }

    enum Received { case waiting, closed, tooLarge, head([UInt8]) }

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

    /// Accepts what the listen queue holds, each with a deadline of `deadline`. False when the process is
    /// out of descriptors with none of ours to give back: the caller then stops polling the listening
    /// socket for a moment rather than spin on it.
    func accept(from socket: Int32, deadline: Int64) -> Bool {
        for _ in 0..<LoopbackConnections.acceptsPerTurn {
            let fd = LibC.accept(socket)  // accept4 is not in Swift's Glibc module
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if open.count >= LoopbackConnections.limit { drop(at: oldestIdle()) }
                open.append(Connection(fd: fd, deadline: deadline))
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EMFILE, ENFILE:
                guard !open.isEmpty else { return false }
                drop(at: oldestIdle())
            default: return true  // EAGAIN: the queue is empty
            }
        }
        return true
    }

    /// The oldest connection that has sent nothing yet, else the oldest: one that has begun its request is
    /// more likely the browser's.
    private func oldestIdle() -> Int {
        open.firstIndex { $0.head.isEmpty } ?? 0
    }

    /// Reads what connection `index` has sent; its head once the blank line has arrived.
    func receive(at index: Int, maxBytes: Int) -> Received {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(open[index].fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .waiting }
        guard count > 0 else { return .closed }
        open[index].head.append(contentsOf: chunk.prefix(count))
        if let end = LoopbackRequest.endOfHead(open[index].head) { return .head(Array(open[index].head.prefix(end))) }
        return open[index].head.count >= maxBytes ? .tooLarge : .waiting
    }

    /// Sends a short page and leaves the connection for the caller to close. The socket doesn't block: a
    /// peer that reads nothing gets what fits in its buffer (the whole page, in practice) and no more.
    func respond(at index: Int, status: String, body: String) {
        let page = "<!doctype html><meta charset=\"utf-8\"><title>\(body)</title><p>\(body)</p>\n"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n" + page
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(open[index].fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }
}
