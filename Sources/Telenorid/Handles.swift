import TelenoridCore

// Handles are retained Swift objects passed as opaque pointers. Every handle class derives from
// `Handle`, so a pointer of the wrong kind (a configuration passed where a PKCE pair belongs) is caught
// by a checked cast instead of being misread.

class Handle {}

func retainedHandle(_ object: Handle) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

/// Borrows the object behind a handle for the duration of a call.
func borrow<T: Handle>(_ pointer: OpaquePointer?, as type: T.Type, _ what: String) throws(TelenoridError) -> T {
    guard let pointer else { throw TelenoridError(.invalidArgument, "\(what) is NULL") }
    guard let object = Unmanaged<Handle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue() as? T else {
        throw TelenoridError(.invalidArgument, "\(what) is a handle of another kind")
    }
    return object
}

/// Releases the reference handed out at creation. NULL is a no-op.
func release(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    Unmanaged<Handle>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

final class ConfigBuilderHandle: Handle {
    var settings = ClientConfiguration.Settings()
}

final class ConfigHandle: Handle {
    let configuration: ClientConfiguration
    init(_ configuration: ClientConfiguration) { self.configuration = configuration }
}

final class PKCEHandle: Handle {
    let pkce: PKCE
    init(_ pkce: PKCE) { self.pkce = pkce }
}

final class AuthRequestHandle: Handle {
    let request: SharedAuthorizationRequest
    init(_ request: SharedAuthorizationRequest) { self.request = request }
}

final class PendingAuthHandle: Handle {
    let pending: PendingAuthorization
    init(_ pending: PendingAuthorization) { self.pending = pending }
}

final class CallbackHandle: Handle {
    let callback: AuthorizationCallback
    init(_ callback: AuthorizationCallback) { self.callback = callback }
}

final class AppCallbackHandle: Handle {
    let callback: AppToAppCallback
    init(_ callback: AppToAppCallback) { self.callback = callback }
}

final class ClientHandle: Handle {
    let client: OIDCClient
    init(_ client: OIDCClient) { self.client = client }
}

final class AuthStateHandle: Handle {
    let session: Session
    var state: AuthState { session.state }
    init(_ state: AuthState, client: OIDCClient) { session = Session(state: state, client: client) }
}

final class LineAuthHandle: Handle {
    let authenticator: LineAuthenticator
    init(_ authenticator: LineAuthenticator) { self.authenticator = authenticator }
}

final class LoopbackHandle: Handle {
    let listener: LoopbackListener
    init(_ listener: LoopbackListener) { self.listener = listener }
}
