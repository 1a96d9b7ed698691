import CCurl

/// A host's say over the sockets of a request, before each connects: line authentication must run on
/// the cellular network, and on Android only the app can bind a socket to it
/// (`android_setsocknetwork`, `Network.bindSocket`).
public struct SocketHook: Sendable {
    public enum Verdict: Sendable, Equatable {
        case allow
        /// Do not connect this socket.
        case refuse
        /// Do not connect: the device is not on a cellular network, so line authentication can't work.
        case notCellular
    }

    let decide: @Sendable (Int32) -> Verdict

    public init(_ decide: @escaping @Sendable (Int32) -> Verdict) { self.decide = decide }
}

/// One transfer's use of a hook: remembers a refusal so the transfer's error can say why, since libcurl
/// reports only that a callback aborted. Used by the one thread running the transfer.
final class SocketHookCall {
    let hook: SocketHook
    private(set) var refusal: SocketHook.Verdict?

    init(_ hook: SocketHook) { self.hook = hook }

    func check(_ fd: curl_socket_t) -> Int32 {
        let verdict = hook.decide(Int32(truncatingIfNeeded: fd))
        guard verdict == .allow else {
            if refusal == nil { refusal = verdict }
            return Int32(CURL_SOCKOPT_ERROR)
        }
        return Int32(CURL_SOCKOPT_OK)
    }
}
