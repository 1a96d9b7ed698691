import Synchronization

/// The redirect that ends the browser part of sign-in (RFC 6749 §4.1.2), checked against the request it
/// answers. Only a value of this type carries a code onward, so the state check can't be skipped; and
/// its code goes to the token endpoint once.
public final class AuthorizationCallback: Sendable {
    public let code: String
    public let pending: PendingAuthorization
    private let form: Form
    private let exchanged = Atomic<Bool>(false)

    /// The parameters as they came: already read, or still encoded in the redirect. Most callbacks are
    /// only ever asked for their code, so a redirect's other parameters are decoded when someone asks.
    private enum Form: Sendable {
        case read(FormParameters)
        /// A redirect and where its response parameters are, in UTF-8 offsets.
        case encoded(String, Range<Int>)
    }

    init(code: String, parameters: FormParameters, pending: PendingAuthorization) {
        self.code = code
        form = .read(parameters)
        self.pending = pending
    }

    /// A callback whose `redirect` passed `CallbackScan`, with its response parameters at `component`:
    /// only `acceptPlainCallback`, below, makes one.
    fileprivate init(code: String, redirect: String, component: Range<Int>, pending: PendingAuthorization) {
        self.code = code
        form = .encoded(redirect, component)
        self.pending = pending
    }

    /// Every parameter of the response, decoded on each read. A scanned redirect's are CallbackScan's
    /// reading, which can't fail; fuzz/targets/fuzz_callback_scan.swift holds it equal to the full parse.
    public var parameters: FormParameters {
        switch form {
        case .read(let parameters):
            return parameters
        case .encoded(let redirect, let component):
            var redirect = redirect  // withUTF8 needs it mutable; a native string's bytes are not copied
            return redirect.withUTF8 { CallbackScan.parameters($0, in: component) }
        }
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
        if let callback = acceptPlainCallback(redirect) { return callback }
        return try parseCallback(redirect)
    }

    /// The full check: the whole redirect parsed, every parameter decoded, each failure reported.
    func parseCallback(_ redirect: String) throws(TelenoridError) -> AuthorizationCallback {
        let uri = try URI(parsing: redirect)
        guard uri.hasSameOriginAndPath(as: self.redirect.uri) else {
            throw TelenoridError(
                .redirectMismatch,
                "the callback arrived at \(uri.address), not at the configured "
                    + "redirect_uri \(self.redirect.uri.address)")
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
            throw TelenoridError(
                .issuerMismatch, "FAPI 2.0 Security Profile §5.3.3.2 item 5: the callback carries no iss (RFC 9207)")
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

    /// The callback for `redirect` when `CallbackScan` can read it and every check below passes, else nil:
    /// then `handleCallback` runs `parseCallback`, which reports whatever is wrong. The checks are those of
    /// `parseCallback`, made on the values in place; only the code becomes a string.
    func acceptPlainCallback(_ redirect: String) -> AuthorizationCallback? {
        var text = redirect  // withUTF8 needs it mutable; a native string's bytes are not copied
        var redirectURI = self.redirect.string
        let found: (code: String, component: Range<Int>)? = text.withUTF8 { bytes in
            redirectURI.withUTF8 { prefix in
                guard let scan = CallbackScan(bytes, redirectURI: prefix, inFragment: responseMode == "fragment"),
                    let state = scan.state,
                    !scan.isEncoded(state),
                    Crypto.constantTimeEquals(scan.slice(state), self.state.utf8)
                else { return nil }
                if let iss = scan.iss {
                    guard let issuer = configuration.settings[.issuer], scan.decodes(iss, to: issuer) else {
                        return nil
                    }
                } else if configuration.securityProfile == .fapi2 {
                    return nil
                }
                // checkTail lets no %00 through, so a code here holds no NUL.
                guard scan.error == nil, let code = scan.code, !code.isEmpty else { return nil }
                return (scan.decoded(code), scan.component)
            }
        }
        guard let found, consume() else { return nil }
        return AuthorizationCallback(code: found.code, redirect: text, component: found.component, pending: self)
    }
}
