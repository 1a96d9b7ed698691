import CTelenorid
import TelenoridCore

// The machinery every export uses: run the body, turn a thrown error into a status code and the
// thread's last error, and never let anything trap on the way.

/// Runs an export's body. The body checks every input before it writes any output, so a thrown error
/// leaves the caller's outputs and handles as they were.
func exportCall(_ body: () throws(TelenoridError) -> Void) -> telenorid_status {
    do {
        try HostCallbackDepth.refuseInside()
        try body()
        return TELENORID_OK
    } catch {
        return failure(error)
    }
}

/// A failed export's status, with the error kept as the thread's last error. Out of line, as is
/// `HostCallbackDepth.refuseInside`: `exportCall` is specialized for every export's body, and each copy
/// would otherwise carry its own copy of both (README's "Size" has what that costs).
@inline(never)
private func failure(_ error: TelenoridError) -> telenorid_status {
    LastError.record(error)
    return statusCode(error.kind)
}

// MARK: Calls into host code

/// How many calls into host code (a signer, a socket hook) the calling thread is inside. Such a call runs
/// in the middle of a library call that may hold the client's, the auth state's or the state file's lock;
/// an export called from inside it would wait for that lock, held by the thread itself, for ever. So every
/// export that returns a status refuses to run there (`exportCall`), and only the functions without one
/// (`telenorid_status_str`, `telenorid_version`, `telenorid_string_free`, the error accessors) answer.
enum HostCallbackDepth {
    // The depth is the thread-specific value itself, as a pointer-sized integer: nothing to allocate or free.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    private static var current: Int {
        guard let key else { return 0 }
        return Int(bitPattern: pthread_getspecific(key))
    }

    private static func set(_ depth: Int) {
        guard let key else { return }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth))
    }

    /// Runs `call`, a call of the host's function, counted as one level deeper for the thread.
    static func around<Result>(_ call: () -> Result) -> Result {
        let depth = current
        set(depth + 1)
        defer { set(depth) }
        return call()
    }

    @inline(never)
    static func refuseInside() throws(TelenoridError) {
        guard current == 0 else {
            throw TelenoridError(
                .invalidArgument,
                "called from inside a host callback (a signer or a socket hook), "
                    + "which may call only the library's functions that return no status")
        }
    }
}

func statusCode(_ kind: TelenoridError.Kind) -> telenorid_status {
    switch kind {
    case .invalidArgument: TELENORID_E_INVALID_ARGUMENT
    case .malformed: TELENORID_E_MALFORMED
    case .configuration: TELENORID_E_CONFIGURATION
    case .insecure: TELENORID_E_INSECURE
    case .unsupported: TELENORID_E_UNSUPPORTED
    case .parameterConflict: TELENORID_E_PARAMETER_CONFLICT
    case .random: TELENORID_E_RANDOM
    case .stateMismatch: TELENORID_E_STATE_MISMATCH
    case .redirectMismatch: TELENORID_E_REDIRECT_MISMATCH
    case .issuerMismatch: TELENORID_E_ISSUER_MISMATCH
    case .authorizationError: TELENORID_E_AUTHORIZATION_ERROR
    case .consumed: TELENORID_E_CONSUMED
    case .version: TELENORID_E_VERSION
    case .timeout: TELENORID_E_TIMEOUT
    case .network: TELENORID_E_NETWORK
    case .tls: TELENORID_E_TLS
    case .httpStatus: TELENORID_E_HTTP_STATUS
    case .responseTooLarge: TELENORID_E_RESPONSE_TOO_LARGE
    case .invalidResponse: TELENORID_E_INVALID_RESPONSE
    case .tokenInvalid: TELENORID_E_TOKEN_INVALID
    case .authorizationLost: TELENORID_E_AUTHORIZATION_LOST
    case .notSignedIn: TELENORID_E_NOT_SIGNED_IN
    case .lineAuthUnavailable: TELENORID_E_LINE_AUTH_UNAVAILABLE
    case .clientRejected: TELENORID_E_CLIENT_REJECTED
    case .temporarilyUnavailable: TELENORID_E_TEMPORARILY_UNAVAILABLE
    case .pushRefused: TELENORID_E_PUSH_REFUSED
    case .providerUnsupported: TELENORID_E_PROVIDER_UNSUPPORTED
    case .cancelled: TELENORID_E_CANCELLED
    case .expired: TELENORID_E_EXPIRED
    }
}

/// The kind a status code reports, for rules the core keeps per kind; nil for OK and unknown codes.
func errorKind(_ status: telenorid_status) -> TelenoridError.Kind? {
    TelenoridError.Kind.allCases.first { statusCode($0) == status }
}
