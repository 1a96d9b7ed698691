import Synchronization

/// The redirect that ends the browser part of sign-in (RFC 6749 §4.1.2), checked against the request it
/// answers. Only a value of this type carries a code onward, so the state check can't be skipped; and
/// its code goes to the token endpoint once.
public final class AuthorizationCallback: Sendable {
    public let code: String
    public let parameters: FormParameters
    public let pending: PendingAuthorization
    private let exchanged = Atomic<Bool>(false)

    init(code: String, parameters: FormParameters, pending: PendingAuthorization) {
        self.code = code
        self.parameters = parameters
        self.pending = pending
    }

    public var isExchanged: Bool { exchanged.load(ordering: .acquiring) }

    /// True for the one caller that may send the code.
    public func markExchanged() -> Bool {
        exchanged.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Gives the code back after an exchange whose request never left this machine, so it may be tried
    /// again: the provider cannot have seen it.
    public func unmarkExchanged() {
        exchanged.store(false, ordering: .releasing)
    }
}

extension PendingAuthorization {
    public func handleCallback(_ redirect: String) throws(TelenoridError) -> AuthorizationCallback {
        let uri = try URI(parsing: redirect)
        guard uri.hasSameOriginAndPath(as: configuration.redirectURI) else {
            throw TelenoridError(.redirectMismatch, "the callback did not arrive at the configured redirect_uri")
        }
        let component = responseMode == "fragment" ? uri.fragment : uri.query
        let parameters = try FormParameters(parsing: (component ?? "")[...])
        try checkState(parameters["state"])
        if let iss = parameters["iss"], iss != configuration.settings[.issuer] {
            throw TelenoridError(.issuerMismatch, "the callback's iss is not the configured issuer (RFC 9207)")
        }
        // RFC 9207 §2.4 lets a client accept a response without iss from a server that does not send it;
        // the FAPI 2.0 Security Profile requires the server to send it (§5.3.1.2) and the client to check
        // it (§5.3.3.2 item 5), so a missing iss may be a mix-up attack's response.
        if configuration.securityProfile == .fapi2 && parameters["iss"] == nil {
            throw TelenoridError(.issuerMismatch, "FAPI 2.0 Security Profile §5.3.3.2 item 5: the callback carries no iss (RFC 9207)")
        }
        try AuthorizationErrorResponse.check(parameters, from: "the provider")
        guard let code = parameters["code"], !code.isEmpty else {
            throw TelenoridError(.malformed, "the callback carries neither code nor error")
        }
        // A "%00" in the code would be cut short on its way through C: refused before the request is used up.
        guard !code.utf8.contains(0) else {
            throw TelenoridError(.malformed, "the callback's code holds a NUL character")
        }
        guard consume() else {
            throw TelenoridError(.consumed, "this authorization request was already answered")
        }
        return AuthorizationCallback(code: code, parameters: parameters, pending: self)
    }
}
