extension OIDCClient {
    /// A form POST to a token-endpoint-like URL carrying the client's authentication (OIDC Core §9).
    func authenticatedRequest(url: String, parameters: FormParameters) throws(TelenoridError) -> HTTPRequest {
        var form = parameters
        var headers: [(name: String, value: String)] = []
        let clientID = configuration.clientID
        switch configuration.clientAuthMethod {
        case .none:
            try form.append("client_id", clientID)
        case .clientSecretBasic(let secret):
            // RFC 6749 §2.3.1: each part form-encoded before joining, so a ":" in the id survives.
            let credentials = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(secret)
            headers.append(("Authorization", "Basic " + Base64URL.encodeStandard(Array(credentials.utf8))))
        case .clientSecretPost(let secret):
            try form.append("client_id", clientID)
            try form.append("client_secret", secret)
        case .clientSecretJWT(let secret):
            try appendAssertion(to: &form, signing: .hmac(Array(secret.utf8)))
        case .privateKeyJWT(let text):
            try appendAssertion(to: &form, signing: .privateKey(try PrivateKey(text: text)))
        }
        return HTTPRequest.form(url: url, parameters: form, headers: headers)
    }

    enum AssertionKey {
        case hmac([UInt8])
        case privateKey(PrivateKey)
    }

    /// RFC 7523 §2.2 client assertion. Its audience (§3) is the issuer, or, when the configuration asks,
    /// the token endpoint URL, also for assertions sent to the revocation endpoint: §3 names the token
    /// endpoint as what identifies the server.
    private func appendAssertion(to form: inout FormParameters, signing key: AssertionKey) throws(TelenoridError) {
        let now = clock()
        let audience: String
        switch configuration.clientAssertionAudience {
        case .issuer: audience = configuration.settings[.issuer] ?? ""
        case .tokenEndpoint: audience = try endpoint(.tokenEndpoint)
        }
        var claims = JSONObject()
        claims.set("iss", .string(configuration.clientID))
        claims.set("sub", .string(configuration.clientID))
        claims.set("aud", .string(audience))
        claims.set("jti", .string(try Crypto.withRandomBytes(16) { Base64URL.encode($0) }))
        claims.set("iat", .number(JSONNumber(now)))
        claims.set("exp", .number(JSONNumber(now &+ 60)))
        let payload = Array(JSON.serialize(.object(claims)).utf8)
        let assertion: String
        switch key {
        case .hmac(let secret): assertion = try JWS.sign(payload: payload, algorithm: "HS256", hmacSecret: secret)
        case .privateKey(let key): assertion = try JWS.sign(payload: payload, key: key)
        }
        try form.append("client_id", configuration.clientID)
        try form.append("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        try form.append("client_assertion", assertion)
    }
}
