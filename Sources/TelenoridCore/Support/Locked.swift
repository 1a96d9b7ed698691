/// A value behind a pthread mutex: the library's one lock type (atomics aside).
///
/// Why not the standard library's `Mutex`: on Linux it is futexes and atomics inside a module that
/// ThreadSanitizer does not instrument, so TSan cannot see the ordering it provides, and every token handed
/// from the refreshing thread to a waiting one was reported as a race (intermittently, as threads happened
/// to line up). `pthread_mutex_lock` is intercepted by TSan, so the whole test suite under TSan checks the
/// real ordering. The cost is the same uncontended: one atomic each way.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Allocated, not stored inline: a pthread mutex must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value  // guarded by mutex

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
