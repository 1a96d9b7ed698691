/// An authorization request that threads may share: each change and each build happens whole, in some
/// order, so a host that sets parameters from one thread and builds from another never sees a torn request.
/// `AuthorizationRequest` is the value; this is the one place its lock lives.
public final class SharedAuthorizationRequest: Sendable {
    private let request: Locked<AuthorizationRequest>

    public init(configuration: ClientConfiguration) {
        request = Locked(AuthorizationRequest(configuration: configuration))
    }

    public func set(_ parameter: AuthorizationRequest.Parameter, _ value: String?) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.set(parameter, value)
        }
    }

    public func setUserCode(_ code: SecretBytes?) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.setUserCode(code)
        }
    }

    public func addParameter(_ name: String, _ value: String) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.addParameter(name, value)
        }
    }

    public func addClaim(_ claim: ClaimsRequest.Claim, to target: ClaimsRequest.Target) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.addClaim(claim, to: target)
        }
    }

    public func setAppToApp(callbackURI: String) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.setAppToApp(callbackURI: callbackURI)
        }
    }

    public func addResource(_ uri: String) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.addResource(uri)
        }
    }

    /// RFC 9396 `authorization_details` from the host's JSON text; nil clears them.
    public func setAuthorizationDetails(json: String?) throws(TelenoridError) {
        let details = try json.map { (text: String) throws(TelenoridError) in try AuthorizationDetails(json: text) }
        request.withLock { $0.setAuthorizationDetails(details) }
    }

    /// RFC 9396 `authorization_details` for the code exchange (§6.1) from the host's JSON text; nil clears them.
    public func setTokenAuthorizationDetails(json: String?) throws(TelenoridError) {
        let details = try json.map { (text: String) throws(TelenoridError) in try AuthorizationDetails(json: text) }
        request.withLock { $0.setTokenAuthorizationDetails(details) }
    }

    /// Applies a resource's step-up challenge (RFC 9470) from its `WWW-Authenticate` value; false, with the
    /// request unchanged, when the value is not one.
    public func applyStepUp(wwwAuthenticate: String) throws(TelenoridError) -> Bool {
        guard let challenge = try StepUpChallenge.parse(wwwAuthenticate: wwwAuthenticate) else { return false }
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.applyStepUp(challenge)
        }
        return true
    }

    public func setPKCEMethod(_ method: PKCE.Method) throws(TelenoridError) {
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try request.setPKCEMethod(method)
        }
    }

    /// The request as it is now. Building happens on this copy, outside the lock: drawing randomness,
    /// encoding and (for a pushed request) the network take longer than a change.
    public var current: AuthorizationRequest { request.withLock { $0 } }

    public func build() throws(TelenoridError) -> PendingAuthorization {
        try current.build()
    }

    /// Sets `aloha_token` to the line authenticator's session, refusing a request that already has one.
    /// The exchange may take seconds, so the request is not locked meanwhile: it is checked before (not
    /// to run an exchange for nothing) and again after (another thread may have set one in between).
    public func applyLineAuthentication(_ authenticator: LineAuthenticator) throws(TelenoridError) {
        func refuseIfSet(_ request: AuthorizationRequest) throws(TelenoridError) {
            guard request.values[.alohaToken] == nil else {
                throw TelenoridError(.parameterConflict, "the request already has an aloha_token")
            }
        }
        try refuseIfSet(current)
        let token = try authenticator.token()
        try request.withLock { (request: inout AuthorizationRequest) throws(TelenoridError) in
            try refuseIfSet(request)
            try request.set(.alohaToken, token)
        }
    }
}
