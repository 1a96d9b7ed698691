/// Turns a token-endpoint-style error response (RFC 6749 §5.2) into the core's error, keeping the
/// provider's `error`, `error_description`, `error_uri` and the HTTP status.
enum OAuthErrorResponse {
    static func error(from response: HTTPResponse, during what: String) -> TelenoridError {
        let object = try? JSON.parse(response.body, limits: JSONLimits(maxDepth: 8)).objectValue
        guard let code = object?["error"]?.stringValue else {
            // Empty, HTML or otherwise not an OAuth error: the status is all there is to go on.
            let kind: TelenoridError.Kind = response.status >= 300 ? .httpStatus : .invalidResponse
            return TelenoridError(kind, "\(what): HTTP \(response.status) without an OAuth error", httpStatus: response.status)
        }
        let description = object?["error_description"]?.stringValue
        return TelenoridError(.authorizationError,
                              "\(what): \(code)\(description.map { " (\($0))" } ?? "")",
                              oauthError: code, oauthErrorDescription: description,
                              oauthErrorURI: object?["error_uri"]?.stringValue, httpStatus: response.status)
    }

    /// A successful answer's JSON object, or the error that says why it isn't one.
    static func jsonObject(from response: HTTPResponse, during what: String) throws(TelenoridError) -> JSONObject {
        try jsonObject(from: response, during: what, secretMembers: []).object
    }

    /// The same with the string members named in `secretMembers` (a token response's tokens) in wiping
    /// storage instead of in the object (see `JSON.parse(_:secretMembers:limits:)`).
    static func jsonObject(from response: HTTPResponse, during what: String,
                           secretMembers: Set<String>) throws(TelenoridError) -> (object: JSONObject, secrets: [String: SecretBytes]) {
        guard response.status == 200 else { throw error(from: response, during: what) }
        let parsed: (JSONValue, [String: SecretBytes])
        do { parsed = try JSON.parse(response.body, secretMembers: secretMembers) } catch {
            throw TelenoridError(.invalidResponse, "\(what): the response is not JSON: \(error.message)", httpStatus: response.status)
        }
        guard let object = parsed.0.objectValue else {
            throw TelenoridError(.invalidResponse, "\(what): the response is not a JSON object", httpStatus: response.status)
        }
        return (object, parsed.1)
    }
}
