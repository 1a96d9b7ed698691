/// Pushed authorization requests (RFC 9126): the request goes to the provider over the back channel, with
/// the client's authentication, and the browser carries only `client_id` and the `request_uri` the provider
/// gave for it, so nothing in the request can be read or changed on the way.
extension OIDCClient {
    /// The request ready for the browser. Pushed when the configuration asks for it
    /// (`push_authorization_requests`) or the provider requires it (`require_pushed_authorization_requests`,
    /// RFC 9126 §5); otherwise its URL carries the whole request, as `AuthorizationRequest.build()` makes it.
    /// Endpoints the configuration leaves out come from discovery.
    public func buildAuthorization(_ request: AuthorizationRequest) throws(TelenoridError) -> PendingAuthorization {
        guard request.configuration.clientID == configuration.clientID,
              request.configuration.settings[.issuer] == configuration.settings[.issuer] else {
            throw TelenoridError(.invalidArgument, "the request was made for another client's configuration")
        }
        let (state, nonce) = try AuthorizationRequest.drawStateAndNonce()
        let pkce = try PKCE()
        let parameters = request.parameters(state: state, nonce: nonce, pkce: pkce)
        let authorizationEndpoint = try endpoint(.authorizationEndpoint)
        var front = parameters
        if try mustPush() {
            front = FormParameters(capacity: 2)
            front.appendUnique("client_id", configuration.clientID)
            front.appendUnique("request_uri", try push(parameters))
        }
        return request.pending(url: AuthorizationRequest.url(at: authorizationEndpoint, front), state: state, nonce: nonce, pkce: pkce)
    }

    /// Asked for by the host, or required by a provider whose metadata the client has or can fetch. A
    /// client configured without discovery, whose provider has none, pushes only when asked: a provider
    /// that requires pushing refuses the other kind itself.
    private func mustPush() throws(TelenoridError) -> Bool {
        if configuration.pushAuthorizationRequests { return true }
        if configuration.settings[.authorizationEndpoint] != nil {
            return (try? discover())?.requirePushedAuthorizationRequests ?? false
        }
        return try discover().requirePushedAuthorizationRequests
    }

    /// Pushes the request and returns its `request_uri` (RFC 9126 §2.2).
    func push(_ parameters: FormParameters) throws(TelenoridError) -> String {
        let url: String
        do { url = try endpoint(.pushedAuthorizationRequestEndpoint) } catch {
            guard error.kind == .configuration else { throw error }
            throw TelenoridError(.configuration, "authorization requests must be pushed (RFC 9126), but the provider has "
                                 + "no pushed_authorization_request_endpoint and none is configured")
        }
        // A public client or client_secret_post sends client_id with its authentication; the other methods
        // leave it to the request's own.
        var body = parameters
        switch configuration.clientAuthMethod {
        case .none, .clientSecretPost: body = parameters.keeping { $0 != "client_id" }
        case .clientSecretBasic, .clientSecretJWT, .privateKeyJWT: break
        }
        let response = try transport.send(try authenticatedRequest(url: url, parameters: body))
        let what = "pushed authorization request"
        // 201 Created is the RFC's answer; some providers say 200.
        let (object, _) = try OAuthErrorResponse.jsonObject(from: response, during: what, now: clock(), successStatuses: [201, 200])
        return try Self.requestURI(from: object, httpStatus: response.status)
    }

    /// `request_uri` and `expires_in` (RFC 9126 §2.2) checked: the URI goes into the browser's URL, so
    /// it must be there, be text, and not be absurdly long; a non-positive lifetime is already expired.
    static func requestURI(from object: JSONObject, httpStatus: Int) throws(TelenoridError) -> String {
        guard let requestURI = object["request_uri"]?.stringValue, !requestURI.isEmpty, requestURI.utf8.count <= 2048,
              !requestURI.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw TelenoridError(.invalidResponse, "the pushed authorization response has no usable request_uri", httpStatus: httpStatus)
        }
        guard let lifetime = object["expires_in"]?.int64Value, lifetime > 0 else {
            throw TelenoridError(.invalidResponse, "the pushed authorization response has no positive expires_in", httpStatus: httpStatus)
        }
        return requestURI
    }
}
