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
/// `@unchecked Sendable`: every field is read and written under `mutex` only.
final class TransferControl: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The sockets the handle has open: its transfer's and its kept-alive connection's.
    private var sockets: [Int32] = []
    /// A cancel came for the current transfer.
    private var cancelled = false
    /// The cancel ends the transfer (rather than letting a sent request finish).
    private var abandoned = false
    /// The request may have been written: CURLOPT_PREREQFUNCTION let it go.
    private var sent = false
    private var finishOnceSent = false

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Called when the handle is checked out, under the pool's lock (so a cancel either came before and
    /// does not concern this transfer, or comes after and finds the handle busy).
    func reset() {
        locked {
            cancelled = false
            abandoned = false
            sent = false
            finishOnceSent = false
        }
    }

    /// The transfer is about to start; false when a cancel already ended it.
    func start(finishOnceSent: Bool) -> Bool {
        locked {
            self.finishOnceSent = finishOnceSent
            return !abandoned
        }
    }

    /// Any thread. Ends the transfer under way unless its request may have been sent and must finish.
    func cancel() {
        locked {
            cancelled = true
            guard !(sent && finishOnceSent) else { return }
            abandoned = true
            for fd in sockets { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// How the transfer ended as far as cancels go: abandoned by one (and whether the request may have
    /// left), or let run to its end although one came.
    func outcome() -> (abandoned: Bool, mayHaveSent: Bool, cancelledAfterSending: Bool) {
        locked { (abandoned, sent, cancelled && !abandoned) }
    }

    // The libcurl callbacks, on the transfer's thread.

    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        locked {
            guard !abandoned else { return CURL_SOCKET_BAD }
            let fd = telenorid_platform_cloexec_socket(
                address.pointee.family, address.pointee.socktype, address.pointee.protocol)
            if fd >= 0 { sockets.append(fd) }
            return fd
        }
    }

    func closeSocket(_ fd: curl_socket_t) -> Int32 {
        locked {
            if let position = sockets.firstIndex(of: fd) { sockets.remove(at: position) }
            return close(fd)
        }
    }

    func beforeRequest() -> Int32 {
        locked {
            guard !abandoned else { return CURL_PREREQFUNC_ABORT }
            sent = true
            return CURL_PREREQFUNC_OK
        }
    }

    func shouldAbort() -> Bool { locked { abandoned } }
}
