import CCurl

/// How a cancel from another thread reaches one easy handle's transfer, which runs in curl_easy_perform
/// (no multi handle of ours to wake, see `EasyHandle.transfer`).
///
/// The handle creates and closes its sockets itself (CURLOPT_OPENSOCKETFUNCTION,
/// CURLOPT_CLOSESOCKETFUNCTION), so the sockets of the transfer under way are known here; a cancel shuts
/// them down (shutdown(2), safe from any thread, unlike close: the number stays the transfer's, and the
/// poll(2) it is blocked in returns at once). A socket is registered and unregistered (and closed) under
/// the same lock the cancel shuts them down under, so a cancel can never reach a number that was closed
/// and reused in between. Phases with no socket to shut down (waiting for DNS, before the first
/// connect) end at libcurl's next progress callback (CURLOPT_XFERINFOFUNCTION), which aborts once
/// cancelled.
///
/// CURLOPT_PREREQFUNCTION runs on the transfer's thread once the connection is ready, just before the
/// request is written: under the lock it either aborts (cancelled already: nothing was sent) or records
/// that the request may now reach the server. A cancel after that of a request that `finishOnceSent`
/// leaves the transfer to finish (its answer may carry what the server spent a single-use input on),
/// so the two sides always agree on whether the request may have left.
///
final class TransferControl: Sendable {
    private struct State {
        /// The sockets the handle has open: its transfer's and its kept-alive connection's.
        var sockets: [Int32] = []
        /// A cancel came for the current transfer.
        var cancelled = false
        /// The cancel ends the transfer (rather than letting a sent request finish).
        var abandoned = false
        /// The request may have been written: CURLOPT_PREREQFUNCTION let it go.
        var sent = false
        var finishOnceSent = false
    }
    private let state = Locked(State())

    /// Called when the handle is checked out, under the pool's lock (so a cancel either came before and
    /// does not concern this transfer, or comes after and finds the handle busy). The sockets stay: they
    /// are the kept-alive connection's.
    func reset() {
        state.withLock { state in
            state.cancelled = false
            state.abandoned = false
            state.sent = false
            state.finishOnceSent = false
        }
    }

    /// The transfer is about to start; false when a cancel already ended it.
    func start(finishOnceSent: Bool) -> Bool {
        state.withLock { state in
            state.finishOnceSent = finishOnceSent
            return !state.abandoned
        }
    }

    /// Any thread. Ends the transfer under way unless its request may have been sent and must finish.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            guard !(state.sent && state.finishOnceSent) else { return }
            state.abandoned = true
            for fd in state.sockets { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// How the transfer ended as far as cancels go: abandoned by one (and whether the request may have
    /// left), or let run to its end although one came.
    func outcome() -> (abandoned: Bool, mayHaveSent: Bool, cancelledAfterSending: Bool) {
        state.withLock { state in (state.abandoned, state.sent, state.cancelled && !state.abandoned) }
    }

    // The libcurl callbacks, on the transfer's thread.

    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        state.withLock { state in
            guard !state.abandoned else { return CURL_SOCKET_BAD }
            let fd = telenorid_platform_cloexec_socket(
                address.pointee.family, address.pointee.socktype, address.pointee.protocol)
            if fd >= 0 { state.sockets.append(fd) }
            return fd
        }
    }

    func closeSocket(_ fd: curl_socket_t) -> Int32 {
        state.withLock { state in
            if let position = state.sockets.firstIndex(of: fd) { state.sockets.remove(at: position) }
            return close(fd)
        }
    }

    func beforeRequest() -> Int32 {
        state.withLock { state in
            guard !state.abandoned else { return CURL_PREREQFUNC_ABORT }
            state.sent = true
            return CURL_PREREQFUNC_OK
        }
    }

    func shouldAbort() -> Bool { state.withLock { $0.abandoned } }
}
