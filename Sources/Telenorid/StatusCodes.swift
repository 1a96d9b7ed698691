import CTelenorid
import TelenoridCore

// The status code each error kind is reported with (include/telenorid.h's telenorid_status, append-only),
// and back.

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
    }
}

/// The kind a status code reports, for rules the core keeps per kind; nil for OK and unknown codes.
func errorKind(_ status: telenorid_status) -> TelenoridError.Kind? {
    TelenoridError.Kind.allCases.first { statusCode($0) == status }
}
