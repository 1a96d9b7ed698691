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
}
