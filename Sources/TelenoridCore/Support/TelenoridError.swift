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
    }

    public var kind: Kind
    public var message: String
    /// OAuth's `error`, `error_description` and `error_uri`, when the provider sent them.
    public var oauthError: String?
    public var oauthErrorDescription: String?
    public var oauthErrorURI: String?
    /// The HTTP status of the response the error came from, when there was one.
    public var httpStatus: Int?
    /// Seconds to wait before trying again, from a 429 or 503 answer's `Retry-After` (RFC 9110 §10.2.3).
    public var retryAfterSeconds: Int64?
    /// True when the request never left this machine (no connection could be opened, the name did not
    /// resolve): the server cannot have acted on it, so a single-use input (a code) may be sent again.
    public var requestNotSent = false

    public init(
        _ kind: Kind, _ message: String, oauthError: String? = nil, oauthErrorDescription: String? = nil,
        oauthErrorURI: String? = nil, httpStatus: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.oauthError = oauthError
        self.oauthErrorDescription = oauthErrorDescription
        self.oauthErrorURI = oauthErrorURI
        self.httpStatus = httpStatus
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
