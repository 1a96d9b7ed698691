/// DPoP (RFC 9449) on every request the client makes: a proof per request, the servers' nonces, and the
/// check that a token answered to a proof is bound to it.
extension OIDCClient {
    /// The signer for a new sign-in's tokens: the host's own (`setDPoPSigner`), else a new key of the
    /// configured `dpop_signing_alg` (one key per sign-in, so two users of one app share nothing), else none.
    func newSignInSigner() throws(TelenoridError) -> DPoPSigner? {
        if configuration.securityProfile == .fapi2 {
            try FAPI2Profile.checkSenderConstraint(
                hasDPoP: dpopHostKeySigner != nil || !configuration.dpopAlgorithms.isEmpty)
        }
        if let hostKeySigner = dpopHostKeySigner {
            let advertised = try availableMetadata()?.dpopSigningAlgorithms ?? []
            guard advertised.isEmpty || advertised.contains(hostKeySigner.algorithm) else {
                throw TelenoridError(
                    .configuration,
                    "the provider takes DPoP proofs (RFC 9449 §5.1) signed with "
                        + "\(advertised.joined(separator: " ")), not with the DPoP signer's \(hostKeySigner.algorithm)")
            }
            return .hostKeySigner(hostKeySigner)
        }
        guard !configuration.dpopAlgorithms.isEmpty else { return nil }
        return .key(try DPoPKey.generate(algorithm: try negotiatedDPoPAlgorithm()))
    }

    /// The host's most preferred DPoP algorithm that the provider's `dpop_signing_alg_values_supported`
    /// (RFC 9449 §5.1) lists; the most preferred when it lists none or the client can't discover it.
    func negotiatedDPoPAlgorithm() throws(TelenoridError) -> String {
        let preferred = configuration.dpopAlgorithms
        let advertised = try availableMetadata()?.dpopSigningAlgorithms ?? []
        guard !advertised.isEmpty else { return preferred[0] }
        guard let chosen = preferred.first(where: advertised.contains) else {
            throw TelenoridError(
                .configuration,
                """
                the provider takes DPoP proofs (RFC 9449 §5.1) signed with \(advertised.joined(separator: " ")), \
                and dpop_signing_alg lists \(preferred.joined(separator: " "))
                """
            )
        }
        return chosen
    }

    /// Sends the request `make` makes, with a proof by `signer` when there is one (`accessToken` is the
    /// token the request presents, for `ath`). A server that asks for a nonce (RFC 9449 §8 at the
    /// authorization server, §9 at a resource) gets the request once more with a fresh proof carrying the
    /// nonce it gave, and made afresh: a client assertion is single-use too (RFC 7523 §3 `jti`). Asking
    /// again after that is an error, not a loop. Every `DPoP-Nonce` a server sends is kept for its next request.
    func send(
        proofBy signer: DPoPSigner?, accessToken: SecretBytes? = nil,
        _ make: () throws(TelenoridError) -> HTTPRequest
    ) throws(TelenoridError) -> HTTPResponse {
        guard let signer else { return try transport.send(try make()) }
        var retried = false
        while true {
            let request = try make()
            var proven = request
            proven.headers.append(
                (
                    name: "DPoP",
                    value: try DPoPProof.make(
                        signer: signer, method: request.method, url: request.url, accessToken: accessToken,
                        nonce: dpopNonces.nonce(for: request.url), now: clock())
                ))
            let response = try transport.send(proven)
            let nonce = response.header("dpop-nonce").flatMap(DPoPNonces.parseHeader)
            if let nonce { dpopNonces.remember(nonce, for: request.url) }
            guard Self.asksForNonce(response) else { return response }
            // Cancelled while the first request was out: it was refused, so nothing was spent on it and the
            // cancel stops the second.
            guard !response.cancelledAfterSending else {
                throw TelenoridError(.cancelled, "the request was cancelled before its DPoP nonce retry").neverSent()
            }
            guard !retried, nonce != nil else {
                throw TelenoridError(
                    .authorizationError,
                    "\(request.url) asked for a DPoP nonce "
                        + (retried ? "again after the retry with the one it gave" : "without giving one")
                        + (response.status == 401 ? " (RFC 9449 §9)" : " (RFC 9449 §8)"),
                    oauthError: "use_dpop_nonce", httpStatus: response.status)
            }
            retried = true
            Log.info("dpop.nonce_retry", "\(DPoPNonces.origin(of: request.url) ?? "a server") asked for a DPoP nonce")
        }
    }

    private static func asksForNonce(_ response: HTTPResponse) -> Bool {
        guard response.status == 400 || response.status == 401 else { return false }
        let oauthError =
            response.status == 400
            ? (try? JSON.parse(response.body, limits: JSONLimits(maxDepth: 8)))?.objectValue?["error"]?.stringValue
            : nil
        return DPoPNonces.asksForNonce(
            status: response.status, oauthError: oauthError,
            wwwAuthenticate: response.header("www-authenticate"))
    }

    /// RFC 9449 §5: a server that took the proof answers `token_type` DPoP, but may issue a Bearer token
    /// instead; the host asked for bound tokens, so that is refused unless it allowed the downgrade. A
    /// DPoP token without a proof could never be used: refused too.
    func checkTokenType(_ tokenType: String, proofSent: Bool, during what: String) throws(TelenoridError) {
        let bound = ASCII.equalsIgnoringCase(tokenType.utf8, "dpop".utf8)
        if proofSent && !bound && !configuration.allowBearerDowngrade {
            throw TelenoridError(
                .invalidResponse,
                "\(what): the provider answered a DPoP proof with token_type \(DisplayText.escaping(tokenType)), "
                    + "not DPoP (RFC 9449 §5); allow_bearer_downgrade accepts that")
        }
        if !proofSent && bound {
            throw TelenoridError(
                .invalidResponse, "\(what): token_type DPoP needs a DPoP key (RFC 9449), and none is configured")
        }
    }
}

extension TokenSet {
    /// RFC 9449 §5: `token_type` DPoP (case-insensitive, RFC 6749 §5.1).
    public var isDPoPBound: Bool { ASCII.equalsIgnoringCase(tokenType.utf8, "dpop".utf8) }

    /// The Authorization header value presenting the access token: `DPoP <token>` for a bound token
    /// (RFC 9449 §7.1), `Bearer <token>` otherwise (RFC 6750 §2.1); in wiping storage.
    public var authorization: SecretBytes {
        HTTPRequest.tokenAuthorization(scheme: isDPoPBound ? "DPoP" : "Bearer", accessToken)
    }

    /// The signer whose proofs go with the access token: only a bound token needs one at a resource.
    var resourceSigner: DPoPSigner? { isDPoPBound ? dpopSigner : nil }
}

extension OIDCClient {
    // MARK: Signers for saved bindings (SavedDPoPBinding)

    /// The host's signer for an auth state's saved binding (`TokenRefresher`).
    public func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner {
        try dpopHostKeySigner(forThumbprint: thumbprint, "the auth state")
    }

    /// The host's signer for a saved binding to its key: it must be set, and be that key (RFC 7638 thumbprint).
    func dpopHostKeySigner(forThumbprint thumbprint: String, _ what: String) throws(TelenoridError) -> DPoPSigner {
        guard let signer = dpopHostKeySigner, signer.thumbprint == thumbprint else {
            throw TelenoridError(
                .configuration,
                "\(what) is bound to a DPoP key the host holds (thumbprint \(thumbprint)); "
                    + "set that signer on the client first")
        }
        return .hostKeySigner(signer)
    }
}
