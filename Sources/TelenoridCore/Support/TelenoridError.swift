/// The one error type of the core. The export layer maps `kind` to a C status code; the core itself
/// knows nothing of C.
public struct TelenoridError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable, CaseIterable {
        case invalidArgument
        case malformed
        case configuration
        case insecure
        case unsupported
        case parameterConflict
        case random
        case stateMismatch
        case redirectMismatch
        case issuerMismatch
        case authorizationError
        case consumed
        case version
        /// The server did not answer within the connect or total timeout.
        case timeout
        /// No connection: refused, reset, unreachable, name not resolved.
        case network
        /// The TLS handshake or certificate verification failed.
        case tls
        /// An HTTP status the call does not accept, without an OAuth error the client could act on.
        case httpStatus
        /// A response body or header block over its cap.
        case responseTooLarge
        /// A response that is not what the protocol says: not JSON, wrong types, missing members.
        case invalidResponse
        /// A token (ID token, signed userinfo) failed validation: signature, issuer, audience, time...
        case tokenInvalid
        /// The provider refused the refresh token (`invalid_grant`, ...): the user is signed out.
        case authorizationLost
        /// The auth state holds no usable authorization.
        case notSignedIn
        /// Line authentication cannot work here: the host's socket hook said the device is not on a
        /// cellular network (or no Aloha URL is configured), so the user may be asked to turn Wi-Fi off.
        case lineAuthUnavailable
        /// The provider refused the client itself (`invalid_client`, `unauthorized_client`): a rotated or
        /// mistyped secret, a revoked key. The user's grant is not in question, so nothing is signed out.
        case clientRejected
        /// The server, or something in front of it, could not answer now: HTTP 5xx or 429, or a redirect
        /// where an OAuth answer was expected. Whatever OAuth `error` such a response holds, it is no
        /// verdict on the request or the grant (gateways and caches say anything).
        case temporarilyUnavailable
        /// The pushed authorization request endpoint (RFC 9126 §2.3) refused the request with an OAuth error:
        /// told apart from an error redirect at the callback, since the user never saw the provider.
        case pushRefused
        /// The provider's metadata lacks what the configuration needs (an endpoint the request must use).
        case providerUnsupported
        /// The host cancelled the call from another thread (`OIDCClient.cancel`, `LoopbackListener.cancel`).
        /// Nothing changed; whether the request reached the server is unknown unless `requestNotSent`.
        case cancelled
        /// The device code (RFC 8628 §3.5) or backchannel request (CIBA Core §11) expired before the user
        /// approved: `expired_token`, or the deadline the client keeps from `expires_in`. Start again.
        case expired
        /// The host's store failed (an operation returned an error, its lock was not had in time) or
        /// returned what is not an auth state: nothing changed.
        case storeFailed
        /// A refresh was in flight when the process making it stopped (its marker is in the store) and the
        /// provider has now refused the stored refresh token: it probably rotated it for that refresh, whose
        /// answer was never stored. Signed out.
        case rotationPossiblyLost

        /// The kind's name, which telenorid_status_str gives for its status and the log uses (the core is
        /// built without the reflection metadata that would let it print a case's name).
        public var name: StaticString {
            switch self {
            case .invalidArgument: "invalid argument"
            case .malformed: "malformed input"
            case .configuration: "configuration error"
            case .insecure: "insecure URL"
            case .unsupported: "unsupported"
            case .parameterConflict: "parameter conflict"
            case .random: "random generator failure"
            case .stateMismatch: "state mismatch"
            case .redirectMismatch: "redirect URI mismatch"
            case .issuerMismatch: "issuer mismatch"
            case .authorizationError: "authorization error"
            case .consumed: "already consumed"
            case .version: "unsupported format version"
            case .timeout: "timeout"
            case .network: "network error"
            case .tls: "TLS error"
            case .httpStatus: "unexpected HTTP status"
            case .responseTooLarge: "response too large"
            case .invalidResponse: "invalid response"
            case .tokenInvalid: "token invalid"
            case .authorizationLost: "authorization lost"
            case .notSignedIn: "not signed in"
            case .lineAuthUnavailable: "line authentication unavailable"
            case .clientRejected: "client rejected"
            case .temporarilyUnavailable: "temporarily unavailable"
            case .pushRefused: "pushed request refused"
            case .providerUnsupported: "provider lacks a capability"
            case .cancelled: "cancelled"
            case .expired: "expired"
            case .storeFailed: "store failed"
            case .rotationPossiblyLost: "rotation possibly lost"
            }
        }
    }

    public var kind: Kind
    /// Everything but the kind, behind one reference, so the error is two words: typed throws return it in
    /// registers, where the fields themselves would be copied through memory at every throw and catch.
    private var details: Details

    /// The details, shared by copies of the error until one of them changes (`unique()`).
    private final class Details: @unchecked Sendable {
        var message: String
        var oauthError: String?
        var oauthErrorDescription: String?
        var oauthErrorURI: String?
        var httpStatus: Int?
        var retryAfterSeconds: Int64?
        var requestNotSent = false

        init(
            _ message: String, _ oauthError: String?, _ oauthErrorDescription: String?, _ oauthErrorURI: String?,
            _ httpStatus: Int?
        ) {
            self.message = message
            self.oauthError = oauthError
            self.oauthErrorDescription = oauthErrorDescription
            self.oauthErrorURI = oauthErrorURI
            self.httpStatus = httpStatus
        }

        func copy() -> Details {
            let copy = Details(message, oauthError, oauthErrorDescription, oauthErrorURI, httpStatus)
            copy.retryAfterSeconds = retryAfterSeconds
            copy.requestNotSent = requestNotSent
            return copy
        }
    }

    /// The details for a change: copied first when another error shares them (the fields are only ever
    /// written through this, so a shared `Details` is never written and the class is Sendable as a value is).
    private mutating func unique() -> Details {
        if !isKnownUniquelyReferenced(&details) { details = details.copy() }
        return details
    }

    public var message: String {
        get { details.message }
        set { unique().message = newValue }
    }
    /// OAuth's `error`, `error_description` and `error_uri`, when the provider sent them.
    public var oauthError: String? {
        get { details.oauthError }
        set { unique().oauthError = newValue }
    }
    public var oauthErrorDescription: String? {
        get { details.oauthErrorDescription }
        set { unique().oauthErrorDescription = newValue }
    }
    public var oauthErrorURI: String? {
        get { details.oauthErrorURI }
        set { unique().oauthErrorURI = newValue }
    }
    /// The HTTP status of the response the error came from, when there was one.
    public var httpStatus: Int? {
        get { details.httpStatus }
        set { unique().httpStatus = newValue }
    }
    /// Seconds to wait before trying again, from a 429 or 503 answer's `Retry-After` (RFC 9110 §10.2.3).
    public var retryAfterSeconds: Int64? {
        get { details.retryAfterSeconds }
        set { unique().retryAfterSeconds = newValue }
    }
    /// True when the request never left this machine (no connection could be opened, the name did not
    /// resolve): the server cannot have acted on it, so a single-use input (a code) may be sent again.
    public var requestNotSent: Bool {
        get { details.requestNotSent }
        set { unique().requestNotSent = newValue }
    }

    public init(
        _ kind: Kind, _ message: String, oauthError: String? = nil, oauthErrorDescription: String? = nil,
        oauthErrorURI: String? = nil, httpStatus: Int? = nil
    ) {
        self.kind = kind
        details = Details(message, oauthError, oauthErrorDescription, oauthErrorURI, httpStatus)
    }

    public static func == (lhs: TelenoridError, rhs: TelenoridError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.oauthError == rhs.oauthError
            && lhs.oauthErrorDescription == rhs.oauthErrorDescription && lhs.oauthErrorURI == rhs.oauthErrorURI
            && lhs.httpStatus == rhs.httpStatus && lhs.retryAfterSeconds == rhs.retryAfterSeconds
            && lhs.requestNotSent == rhs.requestNotSent
    }

    /// The same error, marked as one whose request never reached the server (no name, no connection, no
    /// TLS session: no HTTP request was written).
    func neverSent() -> TelenoridError {
        var copy = self
        copy.requestNotSent = true
        return copy
    }

    /// A failure that may pass on its own. The one rule every host and binding asks
    /// (`telenorid_status_is_transient`), so it depends on the kind alone.
    public var isTransient: Bool { kind.isTransient }
}

extension TelenoridError.Kind {
    /// The network, TLS (a captive portal, a clock that is off) or a server that could not answer now:
    /// the caller may try again later; nothing about the request or the authorization was judged wrong.
    public var isTransient: Bool {
        switch self {
        case .timeout, .network, .tls, .temporarilyUnavailable: return true
        default: return false
        }
    }
}
