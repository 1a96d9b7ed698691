import CCurl

/// A libcurl share object holding the DNS cache and the TLS session cache of one transport, so a
/// handle that has not talked to a host yet can skip the lookup and resume a TLS session another
/// handle negotiated.
///
/// The connection cache is deliberately NOT shared: libcurl documents sharing connections
/// (CURL_LOCK_DATA_CONNECT) between concurrently running threads as unsafe (a known bug in the
/// 7.x/8.x line). Keep-alive connections live in each pooled easy handle instead.
///
/// libcurl calls the lock callbacks from whichever thread runs a transfer; each kind of shared data gets
/// its own pthread mutex, as CURLSHOPT_LOCKFUNC requires. `@unchecked Sendable`: the pointers are set
/// once in init and libcurl serialises all access to the shared data through those mutexes.
final class CurlShare: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let locks: UnsafeMutablePointer<pthread_mutex_t>

    /// One mutex per curl_lock_data value, CURL_LOCK_DATA_NONE included, so the callbacks can index by
    /// the raw value after a bounds check.
    private static let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue)

    init() throws(TelenoridError) {
        let count = CurlShare.lockCount
        let locks = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
        locks.initialize(repeating: pthread_mutex_t(), count: count)
        var initialised = 0
        func release() {
            for index in 0..<initialised { pthread_mutex_destroy(locks + index) }
            locks.deinitialize(count: count)
            locks.deallocate()
        }
        while initialised < count {
            guard pthread_mutex_init(locks + initialised, nil) == 0 else {
                release()
                throw TelenoridError(.network, "could not create the locks of the HTTP connection cache")
            }
            initialised += 1
        }
        guard let share = curl_share_init() else {
            release()
            throw TelenoridError(.network, "libcurl could not create a share handle")
        }
        // Literal closures without captures, so Swift can hand them to C as plain function pointers.
        let results: [CURLSHcode] = [
            tnc_share_setopt_lockfunc(share) { _, data, _, user in
                guard let user, let index = CurlShare.lockIndex(data) else { return }
                // A default mutex only fails to lock on misuse (EINVAL/EDEADLK), which the one-lock-per-kind
                // scheme rules out; there is nothing a void callback could report anyway.
                _ = pthread_mutex_lock(user.assumingMemoryBound(to: pthread_mutex_t.self) + index)
            },
            tnc_share_setopt_unlockfunc(share) { _, data, user in
                guard let user, let index = CurlShare.lockIndex(data) else { return }
                _ = pthread_mutex_unlock(user.assumingMemoryBound(to: pthread_mutex_t.self) + index)
            },
            tnc_share_setopt_userdata(share, UnsafeMutableRawPointer(locks)),
            tnc_share_setopt_data(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS),
            tnc_share_setopt_data(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION)
        ]
        if let failure = results.first(where: { $0 != CURLSHE_OK }) {
            let reason = String(cString: curl_share_strerror(failure))
            if curl_share_cleanup(share) == CURLSHE_OK { release() }
            throw TelenoridError(.network, "libcurl refused to set up its shared cache: \(reason)")
        }
        self.handle = share
        self.locks = locks
    }

    /// Runs after every easy handle using the share is gone: each EasyHandle holds a strong reference.
    deinit {
        // CURLSHE_IN_USE would mean an easy handle still points at the share; leaking the mutexes then is
        // better than destroying locks libcurl may still take.
        guard curl_share_cleanup(handle) == CURLSHE_OK else { return }
        for index in 0..<CurlShare.lockCount { pthread_mutex_destroy(locks + index) }
        locks.deinitialize(count: CurlShare.lockCount)
        locks.deallocate()
    }

    private static func lockIndex(_ data: curl_lock_data) -> Int? {
        let index = Int(data.rawValue)
        return index >= 0 && index < lockCount ? index : nil
    }
}
