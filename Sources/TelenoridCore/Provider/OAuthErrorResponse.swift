/// Turns an HTTP answer that is not the success a call expected into the core's error, keeping the
/// provider's `error`, `error_description`, `error_uri` (RFC 6749 §5.2), the HTTP status and any
/// `Retry-After`. The status decides before the body does: an OAuth error is a verdict only on a 4xx.
enum OAuthErrorResponse {
    static func error(from response: HTTPResponse, during what: String, now: Int64) -> TelenoridError {
        let object = try? JSON.parse(response.body, limits: JSONLimits(maxDepth: 8)).objectValue
        let code = object?["error"]?.stringValue
        let description = object?["error_description"]?.stringValue
        let kind: TelenoridError.Kind
        if isNoVerdict(response.status) {
            kind = .temporarilyUnavailable
        } else if let code {
            kind =
                (400..<500).contains(response.status) && clientErrors.contains(code)
                ? .clientRejected : .authorizationError
        } else {
            // Empty, HTML or otherwise not an OAuth error: the status is all there is to go on.
            kind = response.status >= 300 ? .httpStatus : .invalidResponse
        }
        // The provider's words are quoted in the message escaped; the error's fields keep them as sent.
        let detail =
            code.map { " \(DisplayText.escaping($0))\(description.map { " (\(DisplayText.escaping($0)))" } ?? "")" }
            ?? " without an OAuth error"
        var error = TelenoridError(
            kind, "\(what): HTTP \(response.status)\(detail)", oauthError: code,
            oauthErrorDescription: description, oauthErrorURI: object?["error_uri"]?.stringValue,
            httpStatus: response.status)
        error.retryAfterSeconds = retryAfter(response, now: now)
        return error
    }

    /// For answers that carry no OAuth error by design (discovery, key sets): 5xx and 429 may pass, any
    /// other status is the server's considered answer.
    static func unexpectedStatus(_ response: HTTPResponse, _ message: String, now: Int64) -> TelenoridError {
        let passing = response.status >= 500 || response.status == 429
        var error = TelenoridError(
            passing ? .temporarilyUnavailable : .httpStatus, message, httpStatus: response.status)
        error.retryAfterSeconds = retryAfter(response, now: now)
        return error
    }

    /// RFC 6749 §5.2's errors about the client rather than the grant.
    private static let clientErrors: Set<String> = ["invalid_client", "unauthorized_client"]

    /// 5xx and 429 are the server's trouble, and a 3xx where an OAuth endpoint must answer directly is
    /// something in front of it (a captive portal, a misrouted gateway): none of them judges the request.
    private static func isNoVerdict(_ status: Int) -> Bool {
        status >= 500 || status == 429 || (300..<400).contains(status)
    }

    private static func retryAfter(_ response: HTTPResponse, now: Int64) -> Int64? {
        guard response.status == 429 || response.status == 503, let value = response.header("retry-after") else {
            return nil
        }
        return RetryAfter.seconds(value, now: now)
    }

    /// A successful answer's JSON object, or the error that says why it isn't one. The string members named
    /// in `secretMembers` (a token response's tokens) come back in wiping storage instead of in the object
    /// (see `JSON.parse(_:secretMembers:limits:)`).
    static func jsonObject(
        from response: HTTPResponse, during what: String, now: Int64, secretMembers: Set<String> = [],
        successStatuses: [Int] = [200]
    ) throws(TelenoridError) -> (object: JSONObject, secrets: [String: SecretBytes]) {
        guard successStatuses.contains(response.status) else { throw error(from: response, during: what, now: now) }
        let parsed: (JSONValue, [String: SecretBytes])
        do { parsed = try JSON.parse(response.body, secretMembers: secretMembers) } catch {
            throw TelenoridError(
                .invalidResponse, "\(what): the response is not JSON: \(error.message)", httpStatus: response.status)
        }
        guard let object = parsed.0.objectValue else {
            throw TelenoridError(
                .invalidResponse, "\(what): the response is not a JSON object", httpStatus: response.status)
        }
        return (object, parsed.1)
    }
}
