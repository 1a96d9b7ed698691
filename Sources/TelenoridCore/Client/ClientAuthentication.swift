extension OIDCClient {
    /// A form POST to a token-endpoint-like URL carrying the client's authentication (OIDC Core §9).
    func authenticatedRequest(url: String, parameters: FormParameters) throws(TelenoridError) -> HTTPRequest {
        var form = parameters
        var authorization: SecretBytes?
        let clientID = configuration.clientID
        switch configuration.clientAuthMethod {
        case .none:
            try form.append("client_id", clientID)
        case .clientSecretBasic(let secret):
            authorization = Self.basicCredentials(clientID: clientID, secret: secret)
        case .clientSecretPost(let secret):
            try form.append("client_id", clientID)
            try form.appendSecret("client_secret", secret)
        case .clientSecretJWT(let secret):
            // `bytes` shares the secret's storage (the configuration keeps it alive): no copy to wipe.
            try appendAssertion(to: &form, signing: .hmac(secret.bytes), sentTo: url)
        case .privateKeyJWT:
            try appendAssertion(
                to: &form, signing: .clientKey(try clientKey(for: "token_endpoint_auth_method private_key_jwt")),
                sentTo: url)
        }
        return HTTPRequest.form(url: url, parameters: form, authorization: authorization)
    }

    /// `Basic base64(id:secret)` (RFC 7617 §2), each part form-encoded before joining so a ":" in the id
    /// survives (RFC 6749 §2.3.1). Assembled in wiping storage: the joined credentials in a temporary
    /// buffer wiped after use, the header value in SecretBytes, so no String ever holds the secret.
    static func basicCredentials(clientID: String, secret: SecretBytes) -> SecretBytes {
        var clientID = clientID
        return clientID.withUTF8 { id in
            secret.withUnsafeBytes { secretBytes in
                // Percent-encoding at most triples each byte.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: (id.count + 1 + secretBytes.count) * 3) {
                    joined in
                    defer { Crypto.wipe(joined.baseAddress, joined.count) }
                    var length = 0
                    PercentEncoding.write(id, to: joined, at: &length)
                    joined[length] = UInt8(ascii: ":")
                    length += 1
                    PercentEncoding.write(secretBytes.assumingMemoryBound(to: UInt8.self), to: joined, at: &length)
                    let credentials = UnsafeRawBufferPointer(
                        rebasing: UnsafeMutableRawBufferPointer(joined)[0..<length])
                    let scheme = "Basic ".utf8
                    return SecretBytes(count: scheme.count + Base64URL.standardLength(length)) { out in
                        var position = 0
                        for byte in scheme { out[position] = byte; position += 1 }
                        _ = Base64URL.encodeStandard(
                            credentials, into: UnsafeMutableBufferPointer(rebasing: out[position...]))
                    }
                }
            }
        }
    }

    enum AssertionKey {
        case hmac([UInt8])
        case clientKey(ClientKey)
    }

    /// RFC 7523 §2.2 client assertion: the client speaks for itself (`sub` is its id).
    private func appendAssertion(to form: inout FormParameters, signing key: AssertionKey, sentTo url: String)
        throws(TelenoridError)
    {
        let assertion = try signedAssertion(subject: configuration.clientID, signing: key, sentTo: url)
        try form.append("client_id", configuration.clientID)
        try form.append("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        try form.append("client_assertion", assertion)
    }

    /// A JWT the client issues (RFC 7523 §3): `iss` its id, `sub` `subject`, a random single-use `jti`, and
    /// an `exp` a minute away. Its audience (§3) is the issuer, or, when the configuration asks, the token
    /// endpoint URL (also for assertions sent to the revocation endpoint: §3 names the token endpoint as what
    /// identifies the server), or the URL it is sent to (`url`).
    func signedAssertion(subject: String, signing key: AssertionKey, sentTo url: String) throws(TelenoridError)
        -> String
    {
        let now = clock()
        let audience: String
        switch configuration.clientAssertionAudience {
        case .issuer: audience = configuration.settings[.issuer] ?? ""
        case .tokenEndpoint: audience = try endpoint(.tokenEndpoint)
        case .endpoint: audience = url
        }
        var claims = JSONObject()
        claims.set("iss", .string(configuration.clientID))
        claims.set("sub", .string(subject))
        claims.set("aud", .string(audience))
        claims.set("jti", .string(try Crypto.withRandomBytes(16) { Base64URL.encode($0) }))
        claims.set("iat", .number(JSONNumber(now)))
        claims.set("exp", .number(JSONNumber(now &+ 60)))
        let payload = Array(JSON.serialize(.object(claims)).utf8)
        switch key {
        case .hmac(let secret): return try JWS.sign(payload: payload, algorithm: "HS256", hmacSecret: secret)
        case .clientKey(let key):
            let input = JWS.signingInput(algorithm: key.algorithm, keyID: key.keyID, payload: payload)
            return input + "." + Base64URL.encode(try key.signature(over: input))
        }
    }
}
