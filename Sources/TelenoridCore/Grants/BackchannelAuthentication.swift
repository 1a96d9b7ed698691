/// OpenID Client-Initiated Backchannel Authentication (CIBA Core 1.0), poll and ping modes: the client
/// asks the provider to authenticate a user it names with a hint (§7.1); the provider reaches the user on
/// their own device (the authentication device) while the client waits, polling the token endpoint
/// (§7.3) or, in ping mode, until the provider calls the client's notification endpoint (§10.2).
extension OIDCClient {
    /// Sends the backchannel authentication request (§7.1) made from `request`'s scope (the
    /// configuration's when it sets none; it must include `openid`), `acr_values`, exactly one of
    /// `login_hint`, `login_hint_token`, `id_token_hint`, and `binding_message`, `user_code`,
    /// `requested_expiry`, resources (RFC 8707), `authorization_details` (RFC 9396) and extra parameters
    /// when set; the browser's parameters (prompt, max_age, claims, PKCE...) mean nothing here and are
    /// not sent. In ping mode a fresh `client_notification_token` goes with it. The client authenticates
    /// as it does at the token endpoint; with `sign_authorization_requests` the parameters go as a signed
    /// request (§7.1.1).
    public func startBackchannelAuthentication(_ request: AuthorizationRequest) throws(TelenoridError)
        -> BackchannelAuthentication
    {
        try checkOwned(request)
        let hints = [AuthorizationRequest.Parameter.loginHint, .loginHintToken, .idTokenHint].filter {
            request.values[$0] != nil
        }
        guard hints.count == 1 else {
            throw TelenoridError(
                .invalidArgument,
                "a backchannel authentication request names the user with exactly one of login_hint, "
                    + "login_hint_token and id_token_hint (CIBA Core §7.1), and this one has \(hints.count)")
        }
        let scope = request.values[.scope] ?? configuration.scope
        guard scope.split(separator: " ").contains("openid") else {
            throw TelenoridError(
                .invalidArgument, "a backchannel authentication request's scope must include openid (CIBA Core §7.1)")
        }
        let notificationToken: SecretBytes?
        switch configuration.backchannelTokenDeliveryMode {
        case .poll: notificationToken = nil
        // §7.1: a bearer token the provider presents when it pings; 256 bits cannot be guessed.
        case .ping: notificationToken = SecretBytes(Array(try Crypto.withRandomBytes(32) { Base64URL.encode($0) }.utf8))
        }
        var parameters = FormParameters()
        try parameters.append("scope", scope)
        if let notificationToken { try parameters.appendSecret("client_notification_token", notificationToken) }
        for parameter in [
            AuthorizationRequest.Parameter.acrValues, .loginHint, .loginHintToken, .idTokenHint,
            .bindingMessage, .requestedExpiry
        ] {
            if let value = request.values[parameter] { try parameters.append(parameter.name, value) }
        }
        if let userCode = request.userCode { try parameters.appendSecret("user_code", userCode) }
        try appendRequested(request, to: &parameters)

        let url = try endpoint(.backchannelAuthenticationEndpoint)
        var body = parameters
        if configuration.signAuthorizationRequests {
            // §7.1.1: every parameter inside the signed request, the client's authentication beside it.
            body = FormParameters()
            try body.append("request", try requestObject(parameters, try? discover()))
        }
        // The sign-in's DPoP key is made now, so a key the provider would refuse fails before the user is asked;
        // it proves the token requests (RFC 9449 §5). The request itself carries no proof: none is defined for it.
        let signer = try newSignInSigner()
        let response = try transport.send(try authenticatedRequest(url: url, parameters: body))
        let now = clock()
        return try BackchannelAuthentication(
            client: self, response: try BackchannelAuthenticationResponse(response, now: now), now: now,
            notificationToken: notificationToken, signer: signer, resources: request.resources)
    }
}

/// The provider's acknowledgement of a backchannel authentication request (CIBA Core §7.3), checked: the
/// `auth_req_id` goes back in every token request and a ping's body, and the lifetimes drive a wait that
/// blocks a host thread, so nothing absent, absurd or hostile is taken.
public struct BackchannelAuthenticationResponse: Sendable, Equatable {
    public let authReqID: String
    public let expiresIn: Int64
    /// Seconds between polls; nil when the provider gave none (§7.3: 5 then).
    public let interval: Int64?

    /// The longest `auth_req_id` taken. The spec asks for 128 bits of entropy and no more; providers use
    /// a UUID or a random string.
    static let maxIDLength = 1024
    /// The largest acknowledgement body read: three members, a few hundred bytes.
    static let maxBodyBytes = 16 * 1024

    static let what = "backchannel authentication"

    /// The HTTP answer: 200 with the acknowledgement, else the provider's error (§13): `invalid_client`
    /// and `unauthorized_client` refuse the client (`.clientRejected`); `access_denied`,
    /// `invalid_request`, `invalid_scope`, `expired_login_hint_token`, `unknown_user_id`,
    /// `missing_user_code`, `invalid_user_code`, `invalid_binding_message` and others refuse the request
    /// (`.authorizationError`), the error and its description kept.
    init(_ response: HTTPResponse, now: Int64) throws(TelenoridError) {
        guard response.status == 200 else {
            throw OAuthErrorResponse.error(from: response, during: Self.what, now: now)
        }
        try self.init(json: response.body, httpStatus: response.status)
    }

    init(json body: [UInt8], httpStatus: Int = 200) throws(TelenoridError) {
        func fail(_ message: String) -> TelenoridError {
            TelenoridError(.invalidResponse, "\(Self.what): \(message)", httpStatus: httpStatus)
        }
        guard body.count <= Self.maxBodyBytes else { throw fail("the response is over \(Self.maxBodyBytes) bytes") }
        let parsed: JSONValue
        do { parsed = try JSON.parse(body, limits: JSONLimits(maxDepth: 8, maxBytes: Self.maxBodyBytes)) } catch {
            throw fail("the response is not JSON: \(error.message)")
        }
        guard let object = parsed.objectValue else { throw fail("the response is not a JSON object") }
        guard let id = object["auth_req_id"]?.stringValue, !id.isEmpty, id.utf8.count <= Self.maxIDLength,
            id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw fail("auth_req_id must be a string of 1 to \(Self.maxIDLength) printable ASCII characters")
        }
        func seconds(_ member: String, zeroAllowed: Bool) throws(TelenoridError) -> Int64? {
            try TokenPolling.checkedSeconds(
                object, member, zeroAllowed: zeroAllowed, during: Self.what, httpStatus: httpStatus)
        }
        guard let expiresIn = try seconds("expires_in", zeroAllowed: false) else {
            throw fail("the response has no expires_in (CIBA Core §7.3)")
        }
        authReqID = id
        self.expiresIn = expiresIn
        interval = try seconds("interval", zeroAllowed: true)
    }
}

/// A backchannel authentication under way: what the provider acknowledged (§7.3), the ping mode's
/// notification token, and the wait for the result, which ends in an auth state as a code exchange does.
/// Any thread; one wait at a time.
public final class BackchannelAuthentication: Sendable {
    public let client: OIDCClient
    public let authReqID: String
    /// When the client gives up, in its clock's seconds: `expires_in` after the acknowledgement, at most
    /// `TokenPolling.maximumLifetime`.
    public var expiresAt: Int64 { polling.expiresAt }
    /// Seconds between polls now: the provider's `interval` (5 when it gave none), grown by each `slow_down`.
    public var interval: Int64 { polling.interval }
    /// The bearer token the provider must present when it pings (§10.2); nil in poll mode.
    private let notificationToken: SecretBytes?
    /// Ends the wait's sleep when a valid ping arrives; nil in poll mode.
    private let waker: SleepWaker?
    private let polling: PolledGrant

    /// CIBA Core §10.1.
    static let grantType = "urn:openid:params:grant-type:ciba"

    init(
        client: OIDCClient, response: BackchannelAuthenticationResponse, now: Int64,
        notificationToken: SecretBytes?, signer: DPoPSigner?, resources: [String]
    ) throws(TelenoridError) {
        self.client = client
        authReqID = response.authReqID
        self.notificationToken = notificationToken
        waker = notificationToken == nil ? nil : SleepWaker(for: client)
        var grant = FormParameters()
        try grant.append("grant_type", Self.grantType)
        try grant.append("auth_req_id", response.authReqID)
        polling = PolledGrant(
            client: client, grant: grant,
            schedule: TokenPolling.Schedule(interval: response.interval, expiresIn: response.expiresIn, now: now),
            signer: signer, resources: resources, what: "backchannel authentication",
            request: "backchannel token request")
    }

    /// Asks the token endpoint (§10.1) for the result every interval, or at once after a valid ping
    /// (`handlePing`; the provider pings only on success, so the interval goes on as the fallback that sees
    /// a refusal or expiry), until the user approves, then gives the signed-in auth state, its ID token
    /// validated as a code exchange's is, without a nonce (§7.1 has none); a token response without one is
    /// `.invalidResponse` (§10.1.1 always returns one). `.authorizationError` with `access_denied` when the
    /// user refused, `.expired` when the request expired, `.cancelled` by the client's `cancel`. A failed
    /// wait may be started again; after a successful one, `.consumed`, as also while another thread waits.
    public func wait() throws(TelenoridError) -> AuthState {
        try polling.wait(waker: waker, idTokenRequired: true)
    }

    /// The largest ping body read: a JSON object with one short member.
    static let maxPingBodyBytes = 4096

    /// Checks a ping (§10.2) as the host's notification endpoint received it: `authorization`, the value of
    /// its Authorization header, must be `Bearer` and this request's `client_notification_token` (compared
    /// in constant time), and `body` a JSON object whose `auth_req_id` is this request's. Then the wait
    /// stops sleeping and asks the token endpoint at once. A request in poll mode has nothing to ping
    /// (`.configuration`); a header that is not a bearer token or names another token, or another
    /// `auth_req_id`, is `.stateMismatch`; a body that is not such JSON, `.malformed`. A refused ping
    /// changes nothing.
    public func handlePing(authorization: String, body: [UInt8]) throws(TelenoridError) {
        guard let expected = notificationToken else {
            throw TelenoridError(
                .configuration, "this backchannel authentication was started in poll mode: nothing pings it")
        }
        // RFC 6750 §2.1: the scheme is case-insensitive, one space, then the token.
        let header = Array(authorization.utf8)
        let scheme = Array("bearer ".utf8)
        guard header.count > scheme.count, ASCII.lowercased(header[..<scheme.count]) == "bearer ",
            expected.withUnsafeBytes({ Crypto.constantTimeEquals(header[scheme.count...], $0) })
        else {
            throw TelenoridError(
                .stateMismatch, "the ping's bearer token is not this request's client_notification_token")
        }
        guard body.count <= Self.maxPingBodyBytes,
            let object = (try? JSON.parse(body, limits: JSONLimits(maxDepth: 4, maxBytes: Self.maxPingBodyBytes)))?
                .objectValue,
            let id = object["auth_req_id"]?.stringValue
        else {
            throw TelenoridError(
                .malformed, "the ping's body is not a JSON object with an auth_req_id (CIBA Core §10.2)")
        }
        guard id == authReqID else {
            throw TelenoridError(.stateMismatch, "the ping names another auth_req_id than this request's")
        }
        waker?.wake()
    }
}
