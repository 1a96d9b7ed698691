/// The one error type of the core. The export layer maps `kind` to a C status code; the core itself
/// knows nothing of C.
public struct TelenoridError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
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
    }

    public var kind: Kind
    public var message: String
    /// OAuth's `error`, `error_description` and `error_uri`, when the provider sent them.
    public var oauthError: String?
    public var oauthErrorDescription: String?
    public var oauthErrorURI: String?
    /// The HTTP status of the response the error came from, when there was one.
    public var httpStatus: Int?

    public init(_ kind: Kind, _ message: String, oauthError: String? = nil, oauthErrorDescription: String? = nil,
                oauthErrorURI: String? = nil, httpStatus: Int? = nil) {
        self.kind = kind
        self.message = message
        self.oauthError = oauthError
        self.oauthErrorDescription = oauthErrorDescription
        self.oauthErrorURI = oauthErrorURI
        self.httpStatus = httpStatus
    }

    /// A failure that may pass on its own: the network, or a server error (HTTP 5xx, 429). The caller may
    /// try again later; nothing about the request or the authorization was judged wrong.
    public var isTransient: Bool {
        switch kind {
        case .timeout, .network, .tls: return true
        case .httpStatus: return httpStatus.map { $0 >= 500 || $0 == 429 } ?? false
        default: return false
        }
    }
}
