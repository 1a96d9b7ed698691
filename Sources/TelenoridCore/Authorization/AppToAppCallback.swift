/// What the Vipps or MobilePay app opens at the merchant's `app_callback_uri` (Vipps Login app-to-app): the request's
/// `state` and, optionally, a `resume_uri` to reopen in the same browser; or an `error`.
public struct AppToAppCallback: Sendable {
    public let resumeURI: String?
}

extension PendingAuthorization {
    /// `allowedResumeHost`: the only host a `resume_uri` may point at; nil means the host of the request's
    /// authorization URL, since the provider resumes its own login page.
    public func handleAppCallback(_ callback: String, allowedResumeHost: String?) throws(TelenoridError)
        -> AppToAppCallback
    {
        guard let appCallbackURI, let expected = try? URI(parsing: appCallbackURI) else {
            throw TelenoridError(.configuration, "this authorization request did not ask for the app-to-app flow")
        }
        let uri = try URI(parsing: callback)
        // The provider's app may add or drop the trailing slash of an empty path ("merchant-app://callback/?state=…"
        // in Vipps' documented example for "merchant-app://callback"); anything else must match.
        func normalized(_ path: String) -> String { path.isEmpty ? "/" : path }
        guard uri.scheme == expected.scheme, uri.host == expected.host, uri.port == expected.port,
            normalized(uri.path) == normalized(expected.path)
        else {
            throw TelenoridError(
                .redirectMismatch,
                "the app callback arrived at \(uri.address), not at the app_callback_uri "
                    + "\(expected.address)")
        }
        var parameters = try FormParameters(parsing: (uri.query ?? "")[...])
        // The provider's documented error callbacks read "?state=…?error=unknown_error": a state never holds
        // a "?" (ours are base64url), so what follows one is parsed as further parameters.
        if let state = parameters["state"], let question = state.firstIndex(of: "?") {
            let trailing = try FormParameters(parsing: state[state.index(after: question)...])
            var merged = FormParameters()
            for pair in parameters.pairs {
                try merged.append(pair.name, pair.name == "state" ? String(state[..<question]) : pair.value)
            }
            for pair in trailing.pairs { try merged.append(pair.name, pair.value) }
            parameters = merged
        }
        try checkState(parameters["state"])
        try AuthorizationErrorResponse.check(parameters, from: "the provider's app")
        guard let resume = parameters["resume_uri"] else { return AppToAppCallback(resumeURI: nil) }
        let resumeURI: URI
        do { resumeURI = try URI(parsing: resume) } catch {
            throw TelenoridError(.malformed, "resume_uri is not a valid URL: \(error.message)")
        }
        // The request's own URL names the provider's host even when this pending request was restored in
        // an app whose configuration was never discovered (Vipps Login app-to-app: the backend built it, the
        // app resumes).
        let requestHost = (try? URI(parsing: url))?.host
        guard
            let allowedHost = allowedResumeHost?.lowercased() ?? requestHost
                ?? configuration.authorizationEndpoint?.host
        else {
            throw TelenoridError(.configuration, "no host to accept a resume_uri from")
        }
        guard resumeURI.scheme == "https", resumeURI.userInfo == nil, resumeURI.host == allowedHost else {
            throw TelenoridError(.insecure, "resume_uri must be https on \(allowedHost)")
        }
        return AppToAppCallback(resumeURI: resume)
    }
}
