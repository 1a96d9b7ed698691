/// What an ID token is checked against besides the client's configuration.
struct IDTokenExpectations {
    /// The nonce the authorization request sent; nil on refresh.
    var nonce: String?
    /// The request's max_age: the token must then carry an auth_time no older than that.
    var maxAge: Int64?
    /// The access token issued with it, for at_hash.
    var accessToken: SecretBytes?
    /// The claims of the first ID token, which a refreshed one must agree with (OIDC Core §12.2).
    var previous: JSONObject?
    /// The values of an `acr` the request asked for as an essential claim (as a step-up does, RFC 9470
    /// §4): the token's `acr` must then be one of them (OIDC Core §5.5.1.1), else the sign-in did not
    /// reach the level the resource demands. Empty when acr was essential without values (it must then be
    /// there); nil when no acr was asked for that way.
    var essentialACR: [String]?
    /// The device secret that came with the token (OpenID Connect Native SSO 1.0 §3.4): the token must then
    /// carry its `ds_hash`.
    var deviceSecret: SecretBytes?
}

extension OIDCClient {
    /// Validates an ID token as OIDC Core §3.1.3.7 lists, and returns its claims.
    func validateIDToken(_ token: String, expectations: IDTokenExpectations) throws(TelenoridError) -> JSONObject {
        try validateIDToken(try JWS(compact: token), expectations: expectations)
    }

    func validateIDToken(_ jws: JWS, expectations: IDTokenExpectations) throws(TelenoridError) -> JSONObject {
        let claims = try verifiedClaims(jws, allowed: try idTokenAlgorithms(), what: "ID token")
        let now = clock()
        let tolerance = configuration.clockToleranceSeconds
        func fail(_ message: String) -> TelenoridError { TelenoridError(.tokenInvalid, "ID token \(message)") }

        guard let iss = claims["iss"]?.stringValue, iss == configuration.settings[.issuer] else {
            throw fail(
                """
                was issued by \(claims["iss"]?.stringValue.map(DisplayText.escaping) ?? "nobody"), \
                not the configured issuer
                """
            )
        }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { throw fail("has no sub") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one)?: audiences = [one]
        case .array(let many)?:
            audiences = many.compactMap { $0.stringValue }
            guard audiences.count == many.count else { throw fail("has a non-string audience") }
        default: throw fail("has no aud")
        }
        guard audiences.contains(configuration.clientID) else { throw fail("is not meant for this client (aud)") }
        let strangers = audiences.filter {
            $0 != configuration.clientID && !configuration.trustedAudiences.contains($0)
        }
        guard strangers.isEmpty else {
            throw fail(
                "names audiences this client does not trust: \(DisplayText.escaping(strangers.joined(separator: ", ")))"
            )
        }
        if let azp = claims["azp"] {
            guard azp.stringValue == configuration.clientID else {
                throw fail("was authorized for another party (azp)")
            }
        } else if audiences.count > 1 {
            throw fail("has several audiences but no azp")
        }
        guard let exp = OIDCClient.seconds(claims["exp"]) else { throw fail("has no numeric exp") }
        guard exp > now &- tolerance else { throw fail("expired at \(exp); now is \(now)") }
        guard let iat = OIDCClient.seconds(claims["iat"]) else { throw fail("has no numeric iat") }
        guard iat <= now &+ tolerance else { throw fail("was issued in the future (iat \(iat), now \(now))") }
        if let nbfValue = claims["nbf"] {
            guard let nbf = OIDCClient.seconds(nbfValue) else { throw fail("has a non-numeric nbf") }
            guard nbf <= now &+ tolerance else { throw fail("is not valid before \(nbf)") }
        }
        if let expected = expectations.nonce {
            guard let nonce = claims["nonce"]?.stringValue, Crypto.constantTimeEquals(nonce.utf8, expected.utf8) else {
                throw fail("does not carry this request's nonce")
            }
        }
        if let maxAge = expectations.maxAge {
            guard let authTime = OIDCClient.seconds(claims["auth_time"]) else {
                throw fail("has no auth_time although max_age was asked")
            }
            guard authTime &+ maxAge &+ tolerance >= now else {
                throw fail("reports an authentication older than max_age")
            }
        }
        if let essentialACR = expectations.essentialACR {
            guard let acr = claims["acr"]?.stringValue else {
                throw fail(
                    """
                    has no acr although one of \(essentialACR.joined(separator: " ")) was asked for as essential \
                    (OIDC Core §5.5.1.1)
                    """
                )
            }
            // No values asked for: any acr meets the request, but it must be there.
            guard essentialACR.isEmpty || essentialACR.contains(acr) else {
                throw fail(
                    """
                    has acr \(DisplayText.escaping(acr)), not one of the essential \
                    \(essentialACR.joined(separator: " ")) asked for (OIDC Core §5.5.1.1)
                    """
                )
            }
        }
        if let atHash = claims["at_hash"]?.stringValue, let accessToken = expectations.accessToken {
            guard let digest = Crypto.digest(forJWSAlgorithm: jws.algorithm, accessToken.bytes) else {
                throw fail("at_hash can't be checked for algorithm \(DisplayText.escaping(jws.algorithm))")
            }
            let expected = Base64URL.encode(digest.prefix(digest.count / 2))
            guard Crypto.constantTimeEquals(atHash.utf8, expected.utf8) else {
                throw fail("at_hash does not match the access token")
            }
        }
        if let deviceSecret = expectations.deviceSecret {
            // Native SSO §3.4: ds_hash is made as at_hash is (OIDC Core §3.1.3.6), of the device secret: the
            // base64url of the left half of its hash by the ID token's algorithm's hash function.
            guard let dsHash = claims["ds_hash"]?.stringValue else {
                throw fail("has no ds_hash, though a device_secret came with it (Native SSO §3.4)")
            }
            guard let digest = Crypto.digest(forJWSAlgorithm: jws.algorithm, deviceSecret.bytes) else {
                throw fail("ds_hash can't be checked for algorithm \(DisplayText.escaping(jws.algorithm))")
            }
            let expected = Base64URL.encode(digest.prefix(digest.count / 2))
            guard Crypto.constantTimeEquals(dsHash.utf8, expected.utf8) else {
                throw fail("ds_hash does not match the device secret (Native SSO §3.4)")
            }
        }
        if let previous = expectations.previous {
            guard previous["iss"] == claims["iss"], previous["sub"] == claims["sub"], previous["aud"] == claims["aud"]
            else {
                throw fail(
                    "from the refresh names another issuer, subject or audience than the first (OIDC Core §12.2)")
            }
            if let nonce = claims["nonce"], nonce != previous["nonce"] {
                throw fail("from the refresh has another nonce")
            }
            if let authTime = claims["auth_time"], let first = previous["auth_time"], authTime != first {
                throw fail("from the refresh has another auth_time")
            }
        }
        return claims
    }

    /// An ID token the host holds (one saved earlier, or one a backend was handed), validated as on sign-in
    /// except for what only the sign-in knows (at_hash, max_age): signature with the provider's keys,
    /// iss, aud/azp, exp/iat/nbf and, when given, the nonce. Returns its header and claims.
    public func verifyIDToken(_ token: String, nonce: String?) throws(TelenoridError) -> (
        header: JSONObject, claims: JSONObject
    ) {
        let jws = try JWS(compact: token)
        return (jws.header, try validateIDToken(jws, expectations: IDTokenExpectations(nonce: nonce)))
    }

    /// `verifyIDToken` for hosts that take JSON text: `{"header":…,"claims":…}` with the token's own
    /// decoded header and payload. Validation only read them, and the parser accepted both as strict JSON
    /// objects of valid UTF-8, so they are handed out as they came instead of serialized again.
    public func verifyIDTokenJSON(_ token: String, nonce: String?) throws(TelenoridError) -> String {
        let jws = try JWS(compact: token)
        _ = try validateIDToken(jws, expectations: IDTokenExpectations(nonce: nonce))
        // Written straight into the string, each part with one memmove: appending to an array copied them a
        // byte at a time in the Embedded build (ByteCopy).
        let open: StaticString = #"{"header":"#, between: StaticString = #","claims":"#
        let count =
            open.utf8CodeUnitCount + jws.headerBytes.count + between.utf8CodeUnitCount + jws.payload.count + 1
        return String(unsafeUninitializedCapacity: count) { out in
            guard let base = out.baseAddress else { return 0 }
            var position = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                ByteCopy.copy(bytes, to: base + position)
                position += bytes.count
            }
            put(UnsafeBufferPointer(start: open.utf8Start, count: open.utf8CodeUnitCount))
            jws.headerBytes.withUnsafeBufferPointer(put)
            put(UnsafeBufferPointer(start: between.utf8Start, count: between.utf8CodeUnitCount))
            jws.payload.withUnsafeBufferPointer(put)
            base[position] = UInt8(ascii: "}")
            return position + 1
        }
    }

    /// The algorithms an ID token may be signed with: the host's list, else the defaults narrowed by what
    /// the provider advertises (and by the FAPI 2.0 profile). Back-Channel Logout 1.0 §2.6 holds logout
    /// tokens to the same rules.
    func idTokenAlgorithms() throws(TelenoridError) -> Set<String> {
        configuration.acceptedAlgorithms(advertised: try advertisement()?.idTokenSigningAlgorithms ?? [])
    }

    /// A signed userinfo response (OIDC Core §5.3.2): signature, and iss/aud when present.
    func verifySignedUserinfo(_ token: String) throws(TelenoridError) -> JSONObject {
        let jws = try JWS(compact: token)
        let allowed = configuration.acceptedAlgorithms(advertised: try advertisement()?.userinfoSigningAlgorithms ?? [])
        let claims = try verifiedClaims(jws, allowed: allowed, what: "signed userinfo")
        if let iss = claims["iss"], iss.stringValue != configuration.settings[.issuer] {
            throw TelenoridError(.tokenInvalid, "signed userinfo was issued by another issuer")
        }
        if let aud = claims["aud"] {
            let audiences = aud.stringValue.map { [$0] } ?? (aud.arrayValue ?? []).compactMap { $0.stringValue }
            guard audiences.contains(configuration.clientID) else {
                throw TelenoridError(.tokenInvalid, "signed userinfo is not meant for this client")
            }
        }
        return claims
    }

    /// The metadata whose advertised algorithms narrow the default allow-list: none when the host set the
    /// list; fetched when the keys come from a discovered jwks_uri anyway; else whatever discovery already
    /// brought, so a client configured with every endpoint makes no request for it.
    private func advertisement() throws(TelenoridError) -> ProviderMetadata? {
        guard configuration.idTokenAlgorithms == nil else { return nil }
        return configuration.settings[.jwksURI] == nil ? try discover() : metadata
    }

    /// Checks the algorithm against the allow-list and the signature against the provider's keys (or,
    /// for HMAC, the client secret: never a public key's bytes), then reads the payload as claims.
    func verifiedClaims(_ jws: JWS, allowed: Set<String>, what: String) throws(TelenoridError) -> JSONObject {
        guard allowed.contains(jws.algorithm) else {
            throw TelenoridError(
                .tokenInvalid, "\(what) is signed with \(jws.algorithm), which this client does not accept")
        }
        if jws.algorithm.hasPrefix("HS") {
            guard let secret = configuration.settings.clientSecret else {
                throw TelenoridError(.tokenInvalid, "\(what) is HMAC-signed but the client has no secret")
            }
            try jws.verify(hmacSecret: secret.bytes)
        } else {
            try keys.verify(jws, now: clock(), from: self)
        }
        let payload: JSONValue
        do { payload = try JSON.parse(jws.payload) } catch {
            throw TelenoridError(.tokenInvalid, "\(what)'s payload is not JSON: \(error.message)")
        }
        guard let claims = payload.objectValue else {
            throw TelenoridError(.tokenInvalid, "\(what)'s payload is not a JSON object")
        }
        return claims
    }

    /// A NumericDate (RFC 7519 §2): integral or fractional seconds, read down to whole seconds.
    static func seconds(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value else { return nil }
        return number.roundedDown(magnitudeBelow: 1e17)
    }
}

extension OIDCClient: KeySource {
    /// The key set at the configured or discovered jwks_uri.
    func fetchKeySet() throws(TelenoridError) -> JWKSet {
        let url = try endpoint(.jwksURI)
        let response = try transport.send(
            HTTPRequest(url: url, headers: [("Accept", "application/json, application/jwk-set+json")]))
        guard response.status == 200 else {
            throw OAuthErrorResponse.unexpectedStatus(
                response, "the key set at \(url) answered HTTP \(response.status)", now: clock())
        }
        return try JWKSet(json: response.body)
    }
}
