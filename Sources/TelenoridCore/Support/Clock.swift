/// Seconds since the Unix epoch. A function, not a global read, so tests can move time.
public typealias Clock = @Sendable () -> Int64

public enum SystemClock {
    public static let now: Clock = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
