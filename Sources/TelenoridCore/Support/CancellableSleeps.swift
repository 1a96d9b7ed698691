/// Sleeps that cost no CPU and end early: every sleep under way when `cancel` runs ends with `.cancelled`
/// (one set per client, so the client's cancel reaches them as it reaches its transfers), and a sleep given
/// a `SleepWaker` ends when that is rung. Time passes on the monotonic clock, so a wall-clock step neither
/// ends a sleep early nor stretches it. `passingTime`, for tests, replaces the sleep by moving a test clock.
public final class CancellableSleeps: @unchecked Sendable {
    // Allocated, not stored inline: pthread objects must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var cancels: UInt64 = 0  // guarded by mutex
    private let passingTime: (@Sendable (Int64) -> Void)?

    public init(passingTime: (@Sendable (_ seconds: Int64) -> Void)? = nil) {
        self.passingTime = passingTime
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// How many times `cancel` ran: a wait takes it when it starts and ends when it moves.
    var generation: UInt64 { locked { cancels } }

    /// Ends every sleep under way now; waits that start later run normally.
    func cancel() {
        locked {
            cancels &+= 1
            pthread_cond_broadcast(condition)
        }
    }

    func checkCancelled(since generation: UInt64, during what: String) throws(TelenoridError) {
        guard self.generation == generation else { throw TelenoridError(.cancelled, "\(what) was cancelled") }
    }

    /// Rings `waker` under the lock the sleeps wait on, so a sleep that checked it cannot miss the ring.
    fileprivate func ring(_ waker: SleepWaker) {
        locked {
            waker.rung = true
            pthread_cond_broadcast(condition)
        }
    }

    /// Takes back a ring that no sleep took, so it ends no later sleep.
    fileprivate func unring(_ waker: SleepWaker) {
        locked { waker.rung = false }
    }

    /// Sleeps `seconds`, less when `waker` rings (taking the ring); `.cancelled` when `cancel` ran since
    /// `generation` was taken. Returns whether the ring ended it.
    @discardableResult
    func sleep(seconds: Int64, since generation: UInt64, waker: SleepWaker?, during what: String)
        throws(TelenoridError) -> Bool
    {
        if let passingTime {
            try checkCancelled(since: generation, during: what)
            let rung = locked { () -> Bool in
                defer { waker?.rung = false }
                return waker?.rung == true
            }
            if !rung { passingTime(seconds) }
            return rung
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += Int(clamping: max(seconds, 0))
        let (cancelled, rung) = locked { () -> (Bool, Bool) in
            while cancels == generation {
                if let waker, waker.rung {
                    waker.rung = false
                    return (false, true)
                }
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                    return (cancels != generation, false)
                }
            }
            return (true, false)
        }
        if cancelled { throw TelenoridError(.cancelled, "\(what) was cancelled") }
        return rung
    }
}

/// Ends one wait's sleeps early, from any thread. A ring while no sleep is under way ends the next one at
/// once; rings are not counted, so several before a sleep end only that one.
public final class SleepWaker: @unchecked Sendable {
    private let waits: CancellableSleeps
    fileprivate var rung = false  // guarded by waits' mutex

    /// A waker for sleeps in `waits`.
    init(_ waits: CancellableSleeps) {
        self.waits = waits
    }

    public func wake() { waits.ring(self) }

    /// Forgets a ring no sleep took (one that came while the wait would not be woken).
    func discardRing() { waits.unring(self) }
}
