import CTelenorid

/// NUL-terminated strings that live as long as the library: the version and the status names. They are
/// static string literals, whose storage is immortal, so the pointers handed out never dangle.
enum StaticCStrings {
    // Must equal TELENORID_VERSION_STRING; the C tests compare the two.
    static var version: UnsafePointer<CChar> { pointer("0.1.0") }
    static var noError: UnsafePointer<CChar> { pointer("no error") }

    /// Indexed by status code; append-only like the codes themselves.
    private static let statusNames: [StaticString] = [
        "ok",
        "invalid argument",
        "malformed input",
        "configuration error",
        "insecure URL",
        "unsupported",
        "parameter conflict",
        "random generator failure",
        "state mismatch",
        "redirect URI mismatch",
        "issuer mismatch",
        "authorization error",
        "already consumed",
        "unsupported format version",
        "timeout",
        "network error",
        "TLS error",
        "unexpected HTTP status",
        "response too large",
        "invalid response",
        "token invalid",
        "authorization lost",
        "not signed in",
        "line authentication unavailable",
        "client rejected",
        "temporarily unavailable",
    ]

    static func status(_ status: telenorid_status) -> UnsafePointer<CChar> {
        guard status >= 0, Int(status) < statusNames.count else { return pointer("unknown status") }
        return pointer(statusNames[Int(status)])
    }

    private static func pointer(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
