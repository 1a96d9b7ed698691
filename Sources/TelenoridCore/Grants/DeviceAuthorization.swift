/// The device authorization response (RFC 8628 §3.2), checked before anything of it reaches the user: the
/// user code and the verification URI are shown (or turned into a QR code), so a missing, oversized or
/// insecure one is refused with `.invalidResponse` rather than passed on.
public struct DeviceAuthorizationResponse: Sendable {
    /// Secret: it alone lets its holder collect the tokens once the user approved (RFC 8628 §5.2).
    public let deviceCode: SecretBytes
    /// What the user types at the verification URI. Kept out of every message: with the device code's
    /// request in flight it is what an onlooker would need to approve in the user's place.
    public let userCode: String
    public let verificationURI: String
    public let verificationURIComplete: String?
    /// Seconds, 1 to `TokenPolling.implausibleSeconds`.
    public let expiresIn: Int64
    /// Seconds, 0 to `TokenPolling.implausibleSeconds`; nil when the provider gave none (5 s then).
    public let interval: Int64?

    /// Longer user codes are no codes a person types (RFC 8628 §6.1 suggests 8 characters).
    public static let maxUserCodeBytes = 64
    /// A URL a browser or QR code can carry; as the pushed request URI's cap (RFC 9126).
    public static let maxURIBytes = 2048
    /// Codes the client sends back; a larger one is no token a provider hands out.
    public static let maxDeviceCodeBytes = 4096

    static let what = "device authorization"

    /// The answer of a device authorization endpoint: 200 with the JSON object of §3.2, else the
    /// provider's OAuth error (§3.2: as RFC 6749 §5.2), mapped as token-endpoint errors are.
    public init(_ response: HTTPResponse, now: Int64) throws(TelenoridError) {
        let what = Self.what
        let status = response.status
        let (object, secrets) = try OAuthErrorResponse.jsonObject(
            from: response, during: what, now: now, secretMembers: ["device_code"])
        func refuse(_ message: String) -> TelenoridError {
            TelenoridError(.invalidResponse, "\(what): \(message) (RFC 8628 §3.2)", httpStatus: status)
        }
        guard let deviceCode = secrets["device_code"], deviceCode.count > 0,
            deviceCode.count <= Self.maxDeviceCodeBytes
        else {
            throw refuse("the response has no usable device_code")
        }
        guard let userCode = object["user_code"]?.stringValue, !userCode.isEmpty,
            userCode.utf8.count <= Self.maxUserCodeBytes, !Self.hasControlCharacters(userCode)
        else {
            throw refuse("the response has no user_code of printable text up to \(Self.maxUserCodeBytes) bytes")
        }
        guard let verificationURI = try Self.uri(object, "verification_uri", refuse) else {
            throw refuse("the response has no verification_uri")
        }
        let complete = try Self.uri(object, "verification_uri_complete", refuse)
        guard
            let expiresIn = try TokenPolling.checkedSeconds(
                object, "expires_in", zeroAllowed: false, during: what, httpStatus: status)
        else {
            throw refuse("the response has no expires_in")
        }
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = complete
        self.expiresIn = expiresIn
        self.interval = try TokenPolling.checkedSeconds(
            object, "interval", zeroAllowed: true, during: what, httpStatus: status)
    }

    /// A URI the user is sent to: https, or http to a loopback host (a provider under test on this machine).
    /// Anything else would have the user type their code where it can be read or changed on the way.
    private static func uri(
        _ object: JSONObject, _ member: String, _ refuse: (String) -> TelenoridError
    ) throws(TelenoridError) -> String? {
        guard let value = object[member] else { return nil }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= maxURIBytes,
            !hasControlCharacters(text)
        else {
            throw refuse("\(member) is not a URI of up to \(maxURIBytes) bytes")
        }
        guard let uri = try? URI(parsing: text), uri.isSecureEndpoint else {
            throw refuse("\(member) must be an https URI (or http on a loopback host)")
        }
        return text
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

/// A device authorization grant under way (RFC 8628): the code and URI to show the user, and the wait
/// for their approval on another device, which ends in an auth state as a code exchange does. Any
/// thread; one wait at a time.
public final class DeviceAuthorization: Sendable {
    public let client: OIDCClient
    public let userCode: String
    public let verificationURI: String
    public let verificationURIComplete: String?
    /// When the client gives up, in its clock's seconds: `expires_in` from the response's receipt, at
    /// most `TokenPolling.maximumLifetime`.
    public var expiresAt: Int64 { polling.expiresAt }
    /// The seconds between polls now: the provider's `interval` (5 when it gave none), grown by each
    /// `slow_down`.
    public var interval: Int64 { polling.interval }
    private let polling: PolledGrant

    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    init(
        client: OIDCClient, response: DeviceAuthorizationResponse, signer: DPoPSigner?, resources: [String],
        now: Int64
    ) throws(TelenoridError) {
        self.client = client
        userCode = response.userCode
        verificationURI = response.verificationURI
        verificationURIComplete = response.verificationURIComplete
        var grant = FormParameters()
        try grant.append("grant_type", Self.grantType)
        try grant.appendSecret("device_code", response.deviceCode)
        try client.appendClientIDForBasic(to: &grant)
        polling = PolledGrant(
            client: client, grant: grant,
            schedule: TokenPolling.Schedule(interval: response.interval, expiresIn: response.expiresIn, now: now),
            signer: signer, resources: resources, what: "device authorization", request: "device access token request")
    }

    /// Polls the token endpoint (RFC 8628 §3.4) until the user approves, then gives the signed-in auth
    /// state, its ID token (when one came) validated as a code exchange's is, without a nonce (§3.4 has
    /// none). `.authorizationError` with `access_denied` when the user refused, `.expired` when the code
    /// expired, `.cancelled` by the client's `cancel`. A failed wait may be started again (at the interval
    /// the provider last asked for); after a successful one, `.consumed`, as also while another thread waits.
    public func wait() throws(TelenoridError) -> AuthState {
        try polling.wait(waker: nil, idTokenRequired: false)
    }
}

extension OIDCClient {
    /// Starts a device authorization grant (RFC 8628 §3.1): POSTs to the device authorization endpoint
    /// (configured, else discovered, §4) with the client's authentication, `scope` (the request's, else the
    /// configuration's), `resource` (RFC 8707), `authorization_details` (RFC 9396) and the request's extra
    /// parameters; its other parameters (prompt, max_age, claims...) belong to a browser's authorization
    /// request and are not sent. `nil`: the configuration's scope alone. Under DPoP the key is made here
    /// and proves the token request (RFC 9449 §5); the device authorization request carries no proof, as
    /// RFC 9449 defines none for it.
    public func startDeviceAuthorization(_ request: AuthorizationRequest?) throws(TelenoridError)
        -> DeviceAuthorization
    {
        if let request { try checkOwned(request) }
        let url: String
        do { url = try endpoint(.deviceAuthorizationEndpoint) } catch {
            guard error.kind == .configuration else { throw error }
            throw TelenoridError(
                .providerUnsupported,
                "the provider's metadata has no device_authorization_endpoint (RFC 8628 §4) and none is configured")
        }
        let scope = request?.values[.scope] ?? configuration.scope
        let resources = request?.resources ?? []
        var form = FormParameters()
        try appendClientIDForBasic(to: &form)
        if !scope.isEmpty { try form.append("scope", scope) }
        try appendRequested(request, to: &form)
        let signer = try newSignInSigner()
        let response = try transport.send(try authenticatedRequest(url: url, parameters: form))
        let now = clock()
        return try DeviceAuthorization(
            client: self, response: try DeviceAuthorizationResponse(response, now: now), signer: signer,
            resources: resources, now: now)
    }

    /// RFC 8628 §3.1 and §3.4 ask for `client_id` from clients that do not authenticate; every method but
    /// client_secret_basic sends it with its authentication already. Basic carries it in a header only,
    /// yet django-oauth-toolkit reads the device grant's client from the body whatever the header says, and
    /// a `client_id` beside the header names the same client (RFC 6749 §2.3.1 forbids a second
    /// authentication method, not the identifier): so it always goes in the body.
    func appendClientIDForBasic(to form: inout FormParameters) throws(TelenoridError) {
        if case .clientSecretBasic = configuration.clientAuthMethod {
            try form.append("client_id", configuration.clientID)
        }
    }
}
