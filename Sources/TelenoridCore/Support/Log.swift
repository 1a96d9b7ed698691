import Synchronization

/// The library's log: a few events at the rooms' chokepoints (each HTTP exchange, discovery, the key set,
/// token grants and refreshes, sign-outs, DPoP nonce retries, the loopback redirect), handed to the one
/// process-wide sink the host sets.
///
/// A message is built at its call from values that are not secret: methods, URLs without their query or
/// fragment, HTTP status codes, error kinds and OAuth error codes, counts and durations. Never a token, code,
/// verifier, client secret, key, assertion, proof, a redirect URL's query, a request or response body.
/// Event names are literals, so no value can reach the host through one.
///
/// Without a sink, or below its level, a call costs one atomic load: the message is an autoclosure, built
/// only when it will be delivered. Deliveries are one at a time, under the sink's lock, so a sink sees
/// events in the order they happened and never runs again once `setSink` has replaced it and returned.
/// That also means a sink must not log itself (it would wait for its own lock).
public enum Log {
    /// Python's logging levels, so hosts map them as they are.
    public enum Level: Int32, Sendable, CaseIterable {
        case debug = 10
        case info = 20
        case warning = 30
        case error = 40
    }

    /// Called with a level, an event name ("http.request") and a message of non-secret values.
    public typealias Sink = @Sendable (_ level: Level, _ event: StaticString, _ message: String) -> Void

    /// The lowest level delivered; `Int32.max` when there is no sink. Written only under `sink`'s lock.
    private static let threshold = Atomic<Int32>(Int32.max)
    private static let sink = Locked<Sink?>(nil)

    /// Sets the sink for events at `minimumLevel` and above (any number: 0 takes everything); nil removes
    /// it. When this returns, no delivery to the sink it replaced is under way or will start.
    public static func setSink(_ newSink: Sink?, minimumLevel: Int32) {
        sink.withLock { current in
            current = newSink
            threshold.store(newSink == nil ? Int32.max : minimumLevel, ordering: .relaxed)
        }
    }

    /// Whether an event at `level` would be delivered now: lets a call site skip work a message needs
    /// (reading a clock) when nobody listens.
    @inline(__always)
    public static func isEnabled(_ level: Level) -> Bool {
        level.rawValue >= threshold.load(ordering: .relaxed)
    }

    public static func debug(_ event: StaticString, _ message: @autoclosure () -> String) {
        if isEnabled(.debug) { deliver(.debug, event, message) }
    }

    public static func info(_ event: StaticString, _ message: @autoclosure () -> String) {
        if isEnabled(.info) { deliver(.info, event, message) }
    }

    public static func warning(_ event: StaticString, _ message: @autoclosure () -> String) {
        if isEnabled(.warning) { deliver(.warning, event, message) }
    }

    /// A monotonic clock in milliseconds, for the durations messages report. Not ContinuousClock, which
    /// would link Swift's concurrency runtime into the library for it.
    public static func milliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec / 1_000_000)
    }

    /// An error's kind, and its HTTP status and OAuth error code when it has them: what a log line may say
    /// of a failure. Not the message, which may quote a provider's free text.
    public static func describe(_ error: TelenoridError) -> String {
        var text = "\(error.kind.name)"
        if let status = error.httpStatus { text += " (HTTP \(status))" }
        if let code = error.oauthError, code.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { text += " \(code)" }
        return text
    }

    /// Out of line: the call sites keep only the atomic load and the branch.
    @inline(never)
    private static func deliver(_ level: Level, _ event: StaticString, _ message: () -> String) {
        sink.withLock { current in
            // Checked again under the lock: the sink may have changed since the load.
            guard let current, level.rawValue >= threshold.load(ordering: .relaxed) else { return }
            current(level, event, message())
        }
    }
}
