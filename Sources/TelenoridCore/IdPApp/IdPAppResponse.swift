/// What the IdP app sends back to the SP app (Salesforce Mobile SDK identity provider flow): the provider's
/// code (or its error), the login host it was obtained at, and the SP's state. Never a token or a password.
/// Besides the Salesforce Mobile SDK's fields it passes on the provider's RFC 9207 `iss`, so an SP whose
/// provider promises it can still check it.
public struct IdPAppResponse: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case code(String)
        case error(String, description: String?)
    }

    public let result: Result
    public let loginHost: String
    public let state: String
    public let issuer: String?

    static let names: Set<String> = ["code", "error", "error_description", "login_host", "state", "iss"]

    public init(result: Result, loginHost: String, state: String, issuer: String? = nil) {
        self.result = result
        self.loginHost = loginHost
        self.state = state
        self.issuer = issuer
    }

    /// The key-value pairs: the Android intent bundle, or the query on the SP's redirect URI.
    public var parameters: FormParameters {
        var out = FormParameters()
        func add(_ name: String, _ value: String?) { if let value { try? out.append(name, value) } }
        switch result {
        case .code(let code): add("code", code)
        case .error(let error, let description):
            add("error", error)
            add("error_description", description)
        }
        add("login_host", loginHost)
        add("state", state)
        add("iss", issuer)
        return out
    }

    /// The response as a URL on the SP's redirect URI (iOS custom scheme).
    public func url(redirectURI: String) throws(TelenoridError) -> String {
        let uri = try URI(parsing: redirectURI)
        guard uri.fragment == nil else {
            throw TelenoridError(.invalidArgument, "the SP's redirect URI must not have a fragment")
        }
        return parameters.encoded(after: redirectURI + (uri.query == nil ? "?" : "&"))
    }
}

extension PendingAuthorization {
    /// The SP side, iOS: the IdP app's response opened at this client's redirect URI, whose own query (if
    /// it has one) the response keeps beside its pairs.
    public func handleIdPAppResponse(url: String, allowedLoginHosts: [String]) throws(TelenoridError)
        -> AuthorizationCallback
    {
        let parameters = try FormParameters(
            redirect: url, arrivingAt: redirect.uri,
            mismatch: "the IdP app's response did not arrive at the configured redirect_uri")
        return try handleIdPAppResponse(parameters: parameters, allowedLoginHosts: allowedLoginHosts)
    }

    /// The SP side, Android: the IdP app's response bundle. `allowedLoginHosts` are the hosts this client
    /// signs in at; a code from anywhere else is refused before it could be sent to a token endpoint.
    /// An empty list means the host (and port) of the configured issuer. Unknown pairs are ignored and
    /// dropped, so the callback never carries them on (RFC 6749 §3.1).
    public func handleIdPAppResponse(
        parameters received: FormParameters,
        allowedLoginHosts: [String]
    ) throws(TelenoridError) -> AuthorizationCallback {
        try received.refuseRepeats(of: IdPAppResponse.names, in: "the IdP app's response")
        let parameters = received.keeping(IdPAppResponse.names.contains)
        try checkState(parameters["state"])
        if let iss = parameters["iss"], iss != configuration.settings[.issuer] {
            throw TelenoridError(.issuerMismatch, "the IdP app's response names another issuer (RFC 9207)")
        }
        try AuthorizationErrorResponse.check(parameters, from: "the IdP app")
        guard let loginHost = parameters["login_host"] else {
            throw TelenoridError(.malformed, "the IdP app's response lacks login_host")
        }
        var allowed = allowedLoginHosts
        if allowed.isEmpty, let host = configuration.issuer.host {
            allowed = [configuration.issuer.port.map { "\(host):\($0)" } ?? host]
        }
        // Host names compare without case (RFC 3986 §3.2.2).
        guard allowed.contains(where: { ASCII.equalsIgnoringCase($0.utf8, loginHost.utf8) }) else {
            throw TelenoridError(.issuerMismatch, "the code was issued at a login host this client does not sign in at")
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw TelenoridError(.malformed, "the IdP app's response carries neither code nor error")
        }
        guard consume() else {
            throw TelenoridError(.consumed, "this authorization request was already answered")
        }
        return AuthorizationCallback(code: code, parameters: parameters, pending: self)
    }
}
