import CTelenorid

/// NUL-terminated strings that live as long as the library: the version and the status names. They are
/// static string literals, whose storage is immortal, so the pointers handed out never dangle.
enum StaticCStrings {
    // Must equal TELENORID_VERSION_STRING (imported only as a String, which has no immortal pointer):
    // scripts/check_facts.py and the C tests compare the two.
    static var version: UnsafePointer<CChar> { pointer("0.5.0") }
    static var noError: UnsafePointer<CChar> { pointer("no error") }

    /// Indexed by status code; append-only like the codes themselves. Each entry names its status;
    /// scripts/check_facts.py checks them against the header, one a status, in order.
    private static let statusNames: [StaticString] = [
        "ok",  // TELENORID_OK
        "invalid argument",  // TELENORID_E_INVALID_ARGUMENT
        "malformed input",  // TELENORID_E_MALFORMED
        "configuration error",  // TELENORID_E_CONFIGURATION
        "insecure URL",  // TELENORID_E_INSECURE
        "unsupported",  // TELENORID_E_UNSUPPORTED
        "parameter conflict",  // TELENORID_E_PARAMETER_CONFLICT
        "random generator failure",  // TELENORID_E_RANDOM
        "state mismatch",  // TELENORID_E_STATE_MISMATCH
        "redirect URI mismatch",  // TELENORID_E_REDIRECT_MISMATCH
        "issuer mismatch",  // TELENORID_E_ISSUER_MISMATCH
        "authorization error",  // TELENORID_E_AUTHORIZATION_ERROR
        "already consumed",  // TELENORID_E_CONSUMED
        "unsupported format version",  // TELENORID_E_VERSION
        "timeout",  // TELENORID_E_TIMEOUT
        "network error",  // TELENORID_E_NETWORK
        "TLS error",  // TELENORID_E_TLS
        "unexpected HTTP status",  // TELENORID_E_HTTP_STATUS
        "response too large",  // TELENORID_E_RESPONSE_TOO_LARGE
        "invalid response",  // TELENORID_E_INVALID_RESPONSE
        "token invalid",  // TELENORID_E_TOKEN_INVALID
        "authorization lost",  // TELENORID_E_AUTHORIZATION_LOST
        "not signed in",  // TELENORID_E_NOT_SIGNED_IN
        "line authentication unavailable",  // TELENORID_E_LINE_AUTH_UNAVAILABLE
        "client rejected",  // TELENORID_E_CLIENT_REJECTED
        "temporarily unavailable",  // TELENORID_E_TEMPORARILY_UNAVAILABLE
        "pushed request refused",  // TELENORID_E_PUSH_REFUSED
        "provider lacks a capability",  // TELENORID_E_PROVIDER_UNSUPPORTED
        "cancelled",  // TELENORID_E_CANCELLED
        "expired"  // TELENORID_E_EXPIRED
    ]

    static func status(_ status: telenorid_status) -> UnsafePointer<CChar> {
        guard status >= 0, Int(status) < statusNames.count else { return pointer("unknown status") }
        return pointer(statusNames[Int(status)])
    }

    private static func pointer(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
