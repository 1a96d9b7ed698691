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
///
/// The exchange must travel on the mobile line, so its route is the host's alone: no proxy ever carries
/// it, whatever the configuration or the environment (a proxy would be the one seen by the operator's
/// enrichment, not the line), and with a host resolver every name is looked up on the host's chosen
/// network too, not only the sockets bound there.
public final class LineAuthenticator: Sendable {
    public let policy: AlohaPolicy
    /// Replaced with the resolver: libcurl reuses a kept-alive connection by host name, and one opened to
    /// the old resolver's address must not carry the next exchange.
    private let transport: Locked<CurlTransport>
    private let settings: HTTPSettings
    private let clock: Clock
    private let hook = Locked<SocketHook?>(nil)
    private let resolver = Locked<HostResolver?>(nil)
    private let current = Locked<LineAuthSession?>(nil)
    /// A kept session with this many seconds or fewer left counts as expired: it is sent as `aloha_token`
    /// and must still be valid when the user has finished at the provider.
    private let margin = Locked<Int64>(LineAuthenticator.defaultMarginSeconds)

    public static let defaultMarginSeconds: Int64 = 30

    public init(configuration: ClientConfiguration, clock: @escaping Clock = SystemClock.now) throws(TelenoridError) {
        guard let url = configuration.settings[.alohaURL] else {
            throw TelenoridError(
                .lineAuthUnavailable, "no aloha_url is configured, so line authentication is not available")
        }
        policy = try AlohaPolicy(alohaURL: url)
        var settings = configuration.http
        // CURLOPT_PROXY "" and CURLOPT_NOPROXY "*" (EasyHandle.configure): never a proxy, nor one from the environment.
        settings.proxy = nil
        self.settings = settings
        transport = Locked(try CurlTransport(settings: settings))
        self.clock = clock
    }

    public func setSocketHook(_ newHook: SocketHook?) { hook.withLock { $0 = newHook } }

    /// The host's name lookup for the exchange; nil leaves it to the system resolver.
    public func setResolver(_ newResolver: HostResolver?) throws(TelenoridError) {
        let fresh = try CurlTransport(settings: settings)
        resolver.withLock { $0 = newResolver }
        transport.withLock { $0 = fresh }
    }

    /// Seconds, 0 to `AlohaMessages.maxValiditySeconds`, under which a kept session counts as expired.
    public func setMargin(seconds: Int64) throws(TelenoridError) {
        guard (0...AlohaMessages.maxValiditySeconds).contains(seconds) else {
            throw TelenoridError(
                .invalidArgument, "line authentication margin must be 0 to \(AlohaMessages.maxValiditySeconds) seconds")
        }
        margin.withLock { $0 = seconds }
    }

    public var marginSeconds: Int64 { margin.withLock { $0 } }

    /// Seconds the kept session is usable for: its time left less the margin, when that is positive.
    private func usableSeconds(_ session: LineAuthSession, now: Int64) -> Int64 {
        let (left, overflow) = session.expiresAt.subtractingReportingOverflow(now)
        let margin = marginSeconds
        guard !overflow, left > margin else { return 0 }
        return left - margin
    }

    /// The kept session if it is still usable now (more than the margin left), else nil.
    public var validSession: LineAuthSession? {
        let now = clock()
        let session = current.withLock { $0 }
        guard let session, usableSeconds(session, now: now) > 0 else { return nil }
        return session
    }

    /// Seconds until the kept session counts as expired (its time left less the margin); 0 when there is none.
    public var validFor: Int64 {
        let now = clock()
        guard let session = current.withLock({ $0 }) else { return 0 }
        return usableSeconds(session, now: now)
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
        let hostResolver = resolver.withLock { $0 }
        let transport = self.transport.withLock { $0 }
        func get(_ url: String, plain: Bool = false) throws(TelenoridError) -> HTTPResponse {
            try transport.send(
                HTTPRequest(url: url, headers: [(name: "Accept", value: "application/json")]),
                allowPlainHTTP: plain, socketHook: socketHook, resolve: try resolveLine(url, hostResolver))
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

    /// The lookup of one request's host, as libcurl takes it (CURLOPT_RESOLVE): the resolver's answer, or
    /// without one the removal of an earlier answer, so each request asks the resolver of the moment.
    private func resolveLine(_ url: String, _ hostResolver: HostResolver?) throws(TelenoridError) -> String? {
        let uri: URI
        do { uri = try URI(parsing: url) } catch {
            throw TelenoridError(.invalidArgument, "request URL is not valid: \(error.message)")
        }
        guard let host = uri.host else { return nil }
        let port = uri.port ?? (uri.scheme == "https" ? 443 : 80)
        return try HostResolver.resolveLine(hostResolver, host: host, port: port)
    }
}
