/// Pushed authorization requests (RFC 9126): the request goes to the provider over the back channel, with
/// the client's authentication, and the browser carries only `client_id` and the `request_uri` the provider
/// gave for it, so nothing in the request can be read or changed on the way.
extension OIDCClient {
    /// The request ready for the browser. Pushed when the configuration asks for it
    /// (`push_authorization_requests`), its security profile does (FAPI 2.0), or the provider requires it
    /// (`require_pushed_authorization_requests`, RFC 9126 §5); otherwise its URL carries the whole request,
    /// as `AuthorizationRequest.build()` makes it. With `sign_authorization_requests`, or when the
    /// provider's metadata says `require_signed_request_object` (RFC 9101 §10.5), the request goes as a
    /// request object signed with the client's key (RFC 9101): pushed when the provider has a pushed
    /// authorization request endpoint, else in the URL.
    /// Endpoints the configuration leaves out come from discovery.
    public func buildAuthorization(_ request: AuthorizationRequest) throws(TelenoridError) -> PendingAuthorization {
        try checkOwned(request)
        // Fetched once for the three decisions below: a provider without discovery would otherwise be asked
        // for it at each.
        let metadata = try availableMetadata()
        let (state, nonce, pkce) = try AuthorizationRequest.drawSecrets()
        let signer = try newSignInSigner()
        let parameters = try request.parameters(state: state, nonce: nonce, pkce: pkce, dpopSigner: signer)
        let authorizationEndpoint = try endpoint(.authorizationEndpoint)
        var front = parameters
        let signed = mustSign(metadata)
        if signed {
            // RFC 9101 §5.1: client_id also goes outside the object, so the provider knows whose key verifies it.
            front = FormParameters(capacity: 4)
            front.appendUnique("client_id", configuration.clientID)
            front.appendUnique("request", try requestObject(parameters, metadata))
        }
        if mustPush(signed: signed, metadata) {
            // A proof on the push binds the code to the key as dpop_jkt does (RFC 9449 §10.1); with dpop_jkt in
            // the request the binding is made and the push goes without one, so a server that wants nonces
            // in proofs but gives none at its PAR endpoint (glewlwyd 2.7.5) is not asked for one there.
            let requestURI = try push(front, proofBy: configuration.dpopBindAuthorizationCode ? nil : signer)
            front = FormParameters(capacity: 2)
            front.appendUnique("client_id", configuration.clientID)
            front.appendUnique("request_uri", requestURI)
        } else if signed {
            // OIDC Core §6.1: response_type and scope also go as query parameters, so the request is a
            // valid OAuth 2.0 one, and an OpenID Connect one, to a provider before it reads the object.
            for name in ["response_type", "scope"] {
                if let value = parameters[name] { front.appendUnique(name, value) }
            }
        }
        return try request.pending(
            url: AuthorizationRequest.url(at: authorizationEndpoint, front), state: state, nonce: nonce, pkce: pkce,
            dpopSigner: signer)
    }

    /// Refuses a request built for another client's configuration: its parameters were checked against that
    /// one's, and its scope or resources are not this client's to ask for.
    func checkOwned(_ request: AuthorizationRequest) throws(TelenoridError) {
        guard request.configuration.clientID == configuration.clientID,
            request.configuration.settings[.issuer] == configuration.settings[.issuer]
        else {
            throw TelenoridError(.invalidArgument, "the request was made for another client's configuration")
        }
    }

    /// Asked for by the host, by the FAPI 2.0 profile (FAPI 2.0 Security Profile §5.3.3.2: clients "shall
    /// use pushed authorization requests"), or required by a provider whose metadata the client has or can
    /// fetch. A client configured without discovery, whose provider has none, pushes only when asked: a
    /// provider that requires pushing refuses the other kind itself.
    /// A signed request whose provider has a push endpoint is pushed too: a request object in the URL can
    /// outgrow what browsers carry, and the provider then sees it before the user does.
    private func mustPush(signed: Bool, _ metadata: ProviderMetadata?) -> Bool {
        if configuration.pushAuthorizationRequests || configuration.securityProfile == .fapi2 { return true }
        guard let metadata else { return false }
        if metadata.requirePushedAuthorizationRequests { return true }
        return signed && metadata.requireSignedRequestObject
            && (metadata.endpoints[.pushedAuthorizationRequestEndpoint] != nil
                || configuration.settings[.pushedAuthorizationRequestEndpoint] != nil)
    }

    /// Asked for by the host, or required by a provider whose metadata the client has or can fetch
    /// (`require_signed_request_object`, RFC 9101 §10.5).
    private func mustSign(_ metadata: ProviderMetadata?) -> Bool {
        if configuration.signAuthorizationRequests { return true }
        return metadata?.requireSignedRequestObject ?? false
    }

    /// The provider's metadata, or nil for a client configured with its authorization endpoint whose
    /// provider serves no discovery document.
    func availableMetadata() throws(TelenoridError) -> ProviderMetadata? {
        if configuration.settings[.authorizationEndpoint] != nil { return try? discover() }
        return try discover()
    }

    /// The request's parameters as a request object (RFC 9101) signed with the client's key, in an
    /// algorithm the provider takes when its metadata lists them: one it does not take would be refused
    /// only after the user has been sent to the browser.
    func requestObject(_ parameters: FormParameters, _ metadata: ProviderMetadata?) throws(TelenoridError) -> String {
        var key = try clientKey(for: "sign_authorization_requests (RFC 9101)")
        if let advertised = metadata?.requestObjectSigningAlgorithms, !advertised.isEmpty,
            !advertised.contains(key.algorithm)
        {
            // An RSA key that declared no algorithm signs whichever RSA algorithm the provider lists first.
            guard case .held(let held) = key, let chosen = advertised.lazy.compactMap({ held.signing(with: $0) }).first
            else {
                throw TelenoridError(
                    .configuration,
                    "the provider takes request objects (RFC 9101) signed with "
                        + "\(advertised.joined(separator: ", ")), not with the client key's \(key.algorithm)")
            }
            key = .held(chosen)
        }
        return try RequestObject.sign(
            parameters, clientID: configuration.clientID,
            audience: configuration.settings[.issuer] ?? "", key: key, now: clock())
    }

    /// Pushes the request and returns its `request_uri` (RFC 9126 §2.2).
    func push(_ parameters: FormParameters, proofBy signer: DPoPSigner?) throws(TelenoridError) -> String {
        let url: String
        do { url = try endpoint(.pushedAuthorizationRequestEndpoint) } catch {
            guard error.kind == .configuration else { throw error }
            throw TelenoridError(
                .providerUnsupported,
                "authorization requests must be pushed (RFC 9126), but the provider's "
                    + "metadata has no pushed_authorization_request_endpoint and none is configured")
        }
        // Every method but client_secret_basic sends client_id with its authentication (the JWT methods
        // beside their assertion), so the request's own is left out for them; basic carries it in a header.
        var body = parameters
        switch configuration.clientAuthMethod {
        case .none, .clientSecretPost, .clientSecretJWT, .privateKeyJWT: body = parameters.keeping { $0 != "client_id" }
        case .clientSecretBasic: break
        }
        let response = try send(proofBy: signer) { () throws(TelenoridError) in
            try authenticatedRequest(url: url, parameters: body)
        }
        let what = "pushed authorization request"
        // 201 Created is the RFC's answer; some providers say 200.
        let object: JSONObject
        do {
            (object, _) = try OAuthErrorResponse.jsonObject(
                from: response, during: what, now: clock(), successStatuses: [201, 200])
        } catch {
            // RFC 9126 §2.3: the endpoint's OAuth error refuses this request, not an authorization the user saw.
            guard error.kind == .authorizationError else { throw error }
            var refused = error
            refused.kind = .pushRefused
            throw refused
        }
        return try Self.requestURI(
            from: object, httpStatus: response.status,
            maxLifetime: configuration.securityProfile == .fapi2 ? FAPI2Profile.maxRequestURILifetime : nil)
    }

    /// `request_uri` and `expires_in` (RFC 9126 §2.2) checked: the URI goes into the browser's URL, so
    /// it must be there, be text, and not be absurdly long; a non-positive lifetime is already expired.
    /// `maxLifetime`: the FAPI 2.0 profile's bound on `expires_in`, in seconds (exclusive).
    static func requestURI(from object: JSONObject, httpStatus: Int, maxLifetime: Int64? = nil) throws(TelenoridError)
        -> String
    {
        guard let requestURI = object["request_uri"]?.stringValue, !requestURI.isEmpty, requestURI.utf8.count <= 2048,
            !requestURI.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
        else {
            throw TelenoridError(
                .invalidResponse, "the pushed authorization response has no usable request_uri", httpStatus: httpStatus)
        }
        guard let lifetime = object["expires_in"]?.int64Value, lifetime > 0 else {
            throw TelenoridError(
                .invalidResponse, "the pushed authorization response has no positive expires_in", httpStatus: httpStatus
            )
        }
        if let maxLifetime, lifetime >= maxLifetime {
            throw TelenoridError(
                .invalidResponse,
                "FAPI 2.0 Security Profile §5.3.2.2: a request_uri lives less than "
                    + "\(maxLifetime) seconds, and the provider gave one for \(lifetime)", httpStatus: httpStatus)
        }
        return requestURI
    }
}
