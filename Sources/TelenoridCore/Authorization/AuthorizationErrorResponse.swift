/// An authorization error response (RFC 6749 §4.1.2.1) on a redirect, whether the browser, the provider's
/// app or an IdP app brought it back: `error`, with `error_description` and `error_uri` when given.
enum AuthorizationErrorResponse {
    /// Throws the error `parameters` carry, if they carry one; `source` says who answered.
    static func check(_ parameters: FormParameters, from source: String) throws(TelenoridError) {
        guard let error = parameters["error"] else { return }
        throw TelenoridError(
            .authorizationError, "\(source) refused the authorization: \(DisplayText.escaping(error))",
            oauthError: error, oauthErrorDescription: parameters["error_description"],
            oauthErrorURI: parameters["error_uri"])
    }
}
