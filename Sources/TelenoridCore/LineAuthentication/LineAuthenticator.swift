/// A line authentication session: the id Aloha issued and when it stops being valid. The id signs the
/// user in as the line's subscriber, so it is kept as a secret, wiped when the session is dropped.
public struct LineAuthSession: Sendable {
    private let id: SecretBytes
    /// Seconds since the epoch, by the authenticator's clock.
    public let expiresAt: Int64

    init(uuid: String, expiresAt: Int64) {
        id = SecretBytes(Array(uuid.utf8))
        self.expiresAt = expiresAt
    }

    public var uuid: String { id.string }
}

/// Runs the Aloha exchange and keeps the latest session until it expires.
///
/// Thread-safe: `run` blocks for the whole exchange and may be called from any thread, also while
/// other threads run or read; each run is a whole exchange of its own, and the last one to succeed is
/// the session kept. A host starts one in the background ahead of sign-in and calls `token()` when the
/// user signs in, which reuses a still-valid session or runs the exchange again there and then.
public final class LineAuthenticator: Sendable {
    public let policy: AlohaPolicy
    private let transport: CurlTransport
    private let clock: Clock
    private let hook = Locked<SocketHook?>(nil)
    private let current = Locked<LineAuthSession?>(nil)

    public init(configuration: ClientConfiguration, clock: @escaping Clock = SystemClock.now) throws(TelenoridError) {
        guard let url = configuration.settings[.alohaURL] else {
            throw TelenoridError(
                .lineAuthUnavailable, "no aloha_url is configured, so line authentication is not available")
        }
        policy = try AlohaPolicy(alohaURL: url)
        transport = try CurlTransport(settings: configuration.http)
        self.clock = clock
    }

    public func setSocketHook(_ newHook: SocketHook?) { hook.withLock { $0 = newHook } }

    /// The kept session if it is still valid now, else nil.
    public var validSession: LineAuthSession? {
        let now = clock()
        return current.withLock { session in
            guard let session, session.expiresAt > now else { return nil }
            return session
        }
    }

    /// Seconds the kept session is still valid for; 0 when there is none.
    public var validFor: Int64 {
        let now = clock()
        return current.withLock { session in
            guard let session, session.expiresAt > now else { return 0 }
            return session.expiresAt - now
        }
    }

    /// The session id to send as `aloha_token`: a still-valid session, else a new exchange.
    public func token() throws(TelenoridError) -> String {
        if let session = validSession { return session.uuid }
        return try run().uuid
    }

    /// One whole exchange, as the TelenorID+ SDK guide lists it; keeps and returns the new session.
    @discardableResult
    public func run() throws(TelenoridError) -> LineAuthSession {
        let socketHook = hook.withLock { $0 }
        func get(_ url: String, plain: Bool = false) throws(TelenoridError) -> HTTPResponse {
            try transport.send(
                HTTPRequest(url: url, headers: [(name: "Accept", value: "application/json")]),
                allowPlainHTTP: plain, socketHook: socketHook)
        }
        // 1. Prepare, with a log id unique to this exchange.
        let prepare = try get(policy.prepareURL(logID: try AlohaPolicy.logID()))
        guard prepare.status == 200 else {
            throw OAuthErrorResponse.unexpectedStatus(
                prepare, "Aloha prepare answered HTTP \(prepare.status)", now: clock())
        }
        // 2-3. The inject request, over plain http: the operator's network marks it with the line.
        let inject = try get(try policy.injectURL(try AlohaMessages.injectPath(fromPrepare: prepare.body)), plain: true)
        // 4-5. Aloha answers with a redirect to https, followed once.
        guard (300...399).contains(inject.status), let location = inject.header("location") else {
            throw TelenoridError(
                .invalidResponse, "Aloha inject request answered HTTP \(inject.status), not a redirect",
                httpStatus: inject.status)
        }
        let final = try get(try policy.redirectURL(location))
        guard !(300...399).contains(final.status) else {
            throw TelenoridError(
                .invalidResponse, "Aloha redirected a second time; only one redirect is followed",
                httpStatus: final.status)
        }
        guard final.status == 200 else {
            throw OAuthErrorResponse.unexpectedStatus(
                final, "Aloha session request answered HTTP \(final.status)", now: clock())
        }
        // 6. The session id and how many seconds it is valid.
        let (uuid, seconds) = try AlohaMessages.session(from: final.body)
        let (expiresAt, overflow) = clock().addingReportingOverflow(seconds)
        guard !overflow else { throw TelenoridError(.invalidResponse, "Aloha session expiry is out of range") }
        let session = LineAuthSession(uuid: uuid, expiresAt: expiresAt)
        current.withLock { $0 = session }
        return session
    }
}
