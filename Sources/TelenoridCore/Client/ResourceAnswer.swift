/// What a host does with a resource server's answer to a request made with a holder's request headers
/// (`ClientAuthState.requestHeaders`, `ClientCredentials.requestHeaders`).
public enum ResourceVerdict: Sendable, Equatable {
    /// The answer stands: use it.
    case accept
    /// Send the request once more, with headers the holder makes now: the token was refused (the holder then
    /// gets a new one first), or the server asked for a DPoP nonce it gave (now remembered).
    case retry
}

extension OIDCClient {
    /// Reads a resource server's answer to a request sent to `url` with `authorizationSent` (the
    /// `Authorization` value a holder's request headers gave): its status, its `WWW-Authenticate` header (all of
    /// them, comma-joined as RFC 9110 §5.3 allows) and its `DPoP-Nonce` header. A `DPoP-Nonce` on any answer is
    /// the server's nonce for its next proofs (RFC 9449 §9, §8.2), kept as the request headers keep one.
    /// A 401 asking for a nonce it gave (`error="use_dpop_nonce"`, §9) is `.retry`; a 401 refusing the
    /// token (`error="invalid_token"`, RFC 6750 §3.1, or no error at all: the request carried a token, so it
    /// is the token being refused) is `.retry`, and when the token sent is `held`, the one the holder holds
    /// now, `rejected` reports it, so the next headers carry a new one. Anything else, such as a step-up's
    /// `insufficient_user_authentication` (RFC 9470), is `.accept`. A host retries once: a second 401 for the
    /// retry is the answer.
    func resourceAnswered(
        url: String, status: Int, wwwAuthenticate: String?, dpopNonce: String?, authorizationSent: SecretBytes,
        held: SecretBytes?, rejected: (SecretBytes) -> Void
    ) -> ResourceVerdict {
        let nonce = dpopNonce.flatMap(DPoPNonces.parseHeader)
        if let nonce { dpopNonces.remember(nonce, for: url) }
        guard status == 401 else { return .accept }
        let errors = AuthenticationChallenge.parse(wwwAuthenticate ?? "").compactMap { $0.parameter("error") }
        if errors.contains("use_dpop_nonce") { return nonce == nil ? .accept : .retry }
        guard errors.isEmpty || errors.contains("invalid_token") else { return .accept }
        // "Bearer <token>" or "DPoP <token>" (RFC 6750 §2.1, RFC 9449 §7.1): the token follows the space. It is
        // compared where it lies (a slice shares the sent value's wiped storage), and the held token, not a
        // copy of the sent one, is what the holder is told of: its own check under its lock then leaves a
        // token that another thread replaced meanwhile alone.
        let sent = authorizationSent.bytes
        guard let space = sent.firstIndex(of: 0x20) else { return .accept }
        if let held, Crypto.constantTimeEquals(held.bytes, sent[(space + 1)...]) { rejected(held) }
        return .retry
    }
}
