/// The token side of a grant the user approves on another device — the device authorization grant
/// (RFC 8628 §3.4) and CIBA (Core §10.1) — shared by both: the token request repeated on the provider's
/// schedule (`TokenPolling`), then the tokens checked and kept as a code exchange's are. Any thread; one
/// wait at a time.
final class PolledGrant: Sendable {
    let client: OIDCClient
    /// The grant's own members of the token request (its `grant_type` and code or request id).
    private let grant: FormParameters
    private let signer: DPoPSigner?
    private let resources: [String]
    /// What the wait is, for messages ("device authorization"); `request` names its token request.
    private let what: String
    private let request: String
    private let progress: Locked<(schedule: TokenPolling.Schedule, waiting: Bool, consumed: Bool)>

    init(
        client: OIDCClient, grant: FormParameters, schedule: TokenPolling.Schedule, signer: DPoPSigner?,
        resources: [String], what: String, request: String
    ) {
        self.client = client
        self.grant = grant
        self.signer = signer
        self.resources = resources
        self.what = what
        self.request = request
        progress = Locked((schedule, false, false))
    }

    var expiresAt: Int64 { progress.withLock { $0.schedule.expiresAt } }
    var interval: Int64 { progress.withLock { $0.schedule.interval } }

    /// Polls until the user approves, then gives the signed-in auth state, its ID token validated as a code
    /// exchange's is but without a nonce (neither grant has one); `idTokenRequired` refuses a token response
    /// without one (`.invalidResponse`). A failed wait may be started again, at the interval the provider
    /// last asked for; after a successful one, `.consumed`, as also while another thread waits.
    func wait(waker: SleepWaker?, idTokenRequired: Bool) throws(TelenoridError) -> AuthState {
        let what = what
        try progress.withLock { (progress) throws(TelenoridError) in
            guard !progress.consumed else { throw TelenoridError(.consumed, "this \(what) already ended in a sign-in") }
            guard !progress.waiting else {
                throw TelenoridError(.consumed, "another thread is waiting for this \(what)")
            }
            progress.waiting = true
        }
        var schedule = progress.withLock { $0.schedule }
        defer {
            progress.withLock {
                $0.waiting = false; $0.schedule = schedule
            }
        }
        let tokenURL = try client.endpoint(.tokenEndpoint)
        var form = grant
        form.appendRepeated("resource", resources)
        let (client, signer, request) = (client, signer, request)
        let response = try TokenPolling.wait(on: client, schedule: &schedule, waker: waker, during: what) {
            () throws(TelenoridError) in
            try client.tokenRequest(form, to: tokenURL, proofBy: signer, during: request)
        }
        // The provider issued the tokens: the grant is spent, whatever the checks below find.
        progress.withLock { $0.consumed = true }
        if let idToken = response.idToken {
            _ = try client.validateIDToken(
                idToken,
                expectations: IDTokenExpectations(
                    nonce: nil, maxAge: nil, accessToken: response.accessToken, previous: nil,
                    deviceSecret: response.deviceSecret))
        } else if idTokenRequired {
            throw TelenoridError(.invalidResponse, "the \(request) answered without an id_token")
        }
        var tokens = TokenSet(response: response, receivedAt: client.clock(), previous: nil)
        tokens.dpopSigner = signer
        tokens.resources = resources
        Log.info("token.exchanged", "\(what) ended in \(signer == nil ? "bearer" : "DPoP-bound") tokens")
        return client.authState(tokens)
    }
}

extension OIDCClient {
    /// What the grants that start without a browser carry of the host's request after their own members:
    /// its resource indicators (RFC 8707 §2), authorization details (RFC 9396 §2) and extra parameters.
    func appendRequested(_ request: AuthorizationRequest?, to form: inout FormParameters) throws(TelenoridError) {
        guard let request else { return }
        form.appendRepeated("resource", request.resources)
        if let details = request.authorizationDetails { try form.append("authorization_details", details.text) }
        for pair in request.extras.pairs { try form.append(pair.name, pair.value) }
    }
}
