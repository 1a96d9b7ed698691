/// The settings a client is configured with. Immutable once built.
///
/// A class, not a struct: every pending authorization, client and auth state holds the configuration it
/// was made for, and a struct of this size (three parsed URIs and some thirty fields) would be copied
/// into each of them, about 700 bytes and as many retains per copy, where a reference costs one.
public final class ClientConfiguration: Sendable, Equatable {
    public enum Setting: CaseIterable, Sendable {
        case issuer, clientID, redirectURI, scope, authorizationEndpoint, tokenEndpoint, userinfoEndpoint
        case revocationEndpoint, endSessionEndpoint, jwksURI, environment, allowPlainPKCE
        case clientSecret, clientAuthMethod, clientPrivateKey, caFile, caPath, proxy
        case connectTimeoutMilliseconds, timeoutMilliseconds, maxResponseBytes
        case clockToleranceSeconds, clockOffsetSeconds, trustedAudiences, idTokenAlgorithms, refreshMarginSeconds
        /// The Aloha line authentication service (TelenorID+ SDK guide); appended last, like its C key.
        case alohaURL
        case jwksMaxAgeSeconds, clientAssertionAudience
        /// Pushed authorization requests (RFC 9126): where, and whether to use them when the provider does not require them.
        case pushedAuthorizationRequestEndpoint, pushAuthorizationRequests
        /// Sender-constrained tokens (RFC 9449), signed request objects (RFC 9101) and the FAPI 2.0 Security Profile.
        case dpopSigningAlgorithm, dpopBindAuthorizationCode, allowBearerDowngrade, signAuthorizationRequests,
            securityProfile
        /// The `kid` the provider registered the client's key under (RFC 7515 §4.1.4).
        case clientKeyID
        /// The device authorization endpoint (RFC 8628 §3.1, §4).
        case deviceAuthorizationEndpoint
        /// OpenID CIBA Core 1.0: where backchannel authentication requests go (§5) and how the client
        /// learns the result (§5: "poll" or "ping").
        case backchannelAuthenticationEndpoint, backchannelTokenDeliveryMode
        /// Where a resource server asks about a token (RFC 7662 §2).
        case introspectionEndpoint

        /// The member name in a JSON configuration document.
        public var jsonName: String {
            switch self {
            case .issuer: "issuer"
            case .clientID: "client_id"
            case .redirectURI: "redirect_uri"
            case .scope: "scope"
            case .authorizationEndpoint: "authorization_endpoint"
            case .tokenEndpoint: "token_endpoint"
            case .userinfoEndpoint: "userinfo_endpoint"
            case .revocationEndpoint: "revocation_endpoint"
            case .endSessionEndpoint: "end_session_endpoint"
            case .jwksURI: "jwks_uri"
            case .environment: "environment"
            case .allowPlainPKCE: "allow_plain_pkce"
            case .clientSecret: "client_secret"
            case .clientAuthMethod: "token_endpoint_auth_method"
            case .clientPrivateKey: "client_private_key"
            case .caFile: "ca_file"
            case .caPath: "ca_path"
            case .proxy: "proxy"
            case .connectTimeoutMilliseconds: "connect_timeout_ms"
            case .timeoutMilliseconds: "timeout_ms"
            case .maxResponseBytes: "max_response_bytes"
            case .clockToleranceSeconds: "clock_tolerance_s"
            case .clockOffsetSeconds: "clock_offset_s"
            case .trustedAudiences: "trusted_audiences"
            case .idTokenAlgorithms: "id_token_signing_algs"
            case .refreshMarginSeconds: "refresh_margin_s"
            case .alohaURL: "aloha_url"
            case .jwksMaxAgeSeconds: "jwks_max_age_s"
            case .clientAssertionAudience: "client_assertion_audience"
            case .pushedAuthorizationRequestEndpoint: "pushed_authorization_request_endpoint"
            case .pushAuthorizationRequests: "push_authorization_requests"
            case .dpopSigningAlgorithm: "dpop_signing_alg"
            case .dpopBindAuthorizationCode: "dpop_bind_authorization_code"
            case .allowBearerDowngrade: "allow_bearer_downgrade"
            case .signAuthorizationRequests: "sign_authorization_requests"
            case .securityProfile: "security_profile"
            case .clientKeyID: "client_key_id"
            case .deviceAuthorizationEndpoint: "device_authorization_endpoint"
            case .backchannelAuthenticationEndpoint: "backchannel_authentication_endpoint"
            case .backchannelTokenDeliveryMode: "backchannel_token_delivery_mode"
            case .introspectionEndpoint: "introspection_endpoint"
            }
        }

        /// The client secret and the client's private key: held in wiping storage (`Settings.clientSecret`,
        /// `Settings.clientPrivateKey`), read from JSON and from C straight into it.
        public var isSecret: Bool { self == .clientSecret || self == .clientPrivateKey }

        var isEndpoint: Bool {
            switch self {
            case .issuer, .authorizationEndpoint, .tokenEndpoint, .userinfoEndpoint, .revocationEndpoint,
                .endSessionEndpoint, .jwksURI, .alohaURL, .pushedAuthorizationRequestEndpoint,
                .deviceAuthorizationEndpoint, .backchannelAuthenticationEndpoint, .introspectionEndpoint:
                true
            default: false
            }
        }
    }

    /// The unchecked values, as a builder collects them.
    public struct Settings: Sendable, Equatable {
        /// Every setting but the secret ones.
        public var values: [Setting: String] = [:]
        /// The settings that are `isSecret`, in wiping storage: Strings in `values` would stay in freed
        /// memory after the configuration is gone.
        public var clientSecret: SecretBytes?
        public var clientPrivateKey: SecretBytes?
        public init() {}

        /// A secret setting's value (nil for any other setting).
        public subscript(secret setting: Setting) -> SecretBytes? {
            get {
                switch setting {
                case .clientSecret: clientSecret
                case .clientPrivateKey: clientPrivateKey
                default: nil
                }
            }
            set {
                switch setting {
                case .clientSecret: clientSecret = newValue
                case .clientPrivateKey: clientPrivateKey = newValue
                default: break
                }
            }
        }

        /// Every setting, the secret ones too, for hosts that hold them as Strings anyway; the library
        /// itself reads and writes the secret ones as `SecretBytes`, since each String made here is a
        /// copy nobody wipes.
        public subscript(setting: Setting) -> String? {
            get { setting.isSecret ? self[secret: setting]?.string : values[setting] }
            set {
                if setting.isSecret {
                    self[secret: setting] = newValue.map { SecretBytes(Array($0.utf8)) }
                } else {
                    values[setting] = newValue
                }
            }
        }

        public static func == (lhs: Settings, rhs: Settings) -> Bool {
            lhs.values == rhs.values && same(lhs.clientSecret, rhs.clientSecret)
                && same(lhs.clientPrivateKey, rhs.clientPrivateKey)
        }

        static func same(_ lhs: SecretBytes?, _ rhs: SecretBytes?) -> Bool {
            guard let lhs, let rhs else { return lhs == nil && rhs == nil }
            return lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { Crypto.constantTimeEquals(left, $0) } }
        }
    }

    public let settings: Settings
    public let issuer: URI
    public let clientID: String
    /// The redirect URI, kept exactly as configured: providers compare redirect URIs byte for byte (Vipps Login
    /// app-to-app warns that a trailing `/` breaks the exchange).
    public struct Redirect: Sendable {
        public let string: String
        public let uri: URI
    }
    /// Optional: only the flows that send the user's browser back to the client need one (RFC 6749 §3.1.2);
    /// verifying an ID token, the device authorization grant (RFC 8628) and CIBA do not.
    public let redirect: Redirect?
    public let scope: String
    public let authorizationEndpoint: URI?
    public let allowPlainPKCE: Bool
    /// Push every authorization request (RFC 9126), also to a provider that does not require it.
    public let pushAuthorizationRequests: Bool
    public let clientAuthMethod: ClientAuthMethod
    /// `client_private_key`, when the client signs with it (private_key_jwt, signed requests): parsed once
    /// when the configuration is built so that a bad key fails there, not at the first token request, and
    /// no request parses it again.
    public let clientPrivateKey: PrivateKey?
    /// The algorithms of the DPoP keys (RFC 9449) sign-ins make, in the host's order of preference (each one
    /// of `DPoPKey.algorithms`): a sign-in uses the first that the provider's `dpop_signing_alg_values_supported`
    /// lists, or the first when it lists none. Empty: no DPoP, unless the host hands the client a signer.
    public let dpopAlgorithms: [String]
    /// Send `dpop_jkt` (RFC 9449 §10) with the authorization request, binding the code to the DPoP key.
    public let dpopBindAuthorizationCode: Bool
    /// Accept a `Bearer` token from a token request that carried a DPoP proof (RFC 9449 §5 lets a server
    /// do that); by default such a downgrade is refused, since the host asked for bound tokens.
    public let allowBearerDowngrade: Bool
    /// Send the authorization request as a request object signed with the client's key (RFC 9101).
    public let signAuthorizationRequests: Bool
    /// A security profile whose rules the client follows and enforces, when one is set.
    public let securityProfile: SecurityProfile?
    public enum SecurityProfile: String, Sendable {
        /// The FAPI 2.0 Security Profile (final).
        case fapi2
    }
    /// How a backchannel authentication's result reaches the client (OpenID CIBA Core 1.0 §5); push
    /// mode, which delivers the tokens themselves to the client, is not one the library offers.
    public let backchannelTokenDeliveryMode: BackchannelTokenDeliveryMode
    public enum BackchannelTokenDeliveryMode: String, Sendable {
        /// The client polls the token endpoint (§7.3).
        case poll
        /// The provider calls the client's notification endpoint when the result is ready (§10.2), and the
        /// client then asks the token endpoint.
        case ping
    }
    public let http: HTTPSettings
    /// Leeway for `exp`, `iat` and `nbf` (OIDC Core §3.1.3.7 allows "a few minutes" of skew).
    public let clockToleranceSeconds: Int64
    /// Added to the local clock, for devices whose clock is known to be off.
    public let clockOffsetSeconds: Int64
    /// Audiences besides the client id an ID token may name (OIDC Core §3.1.3.7 step 3).
    public let trustedAudiences: Set<String>
    /// The signing algorithms the host allows for ID tokens and signed userinfo, when it set them (`none`
    /// can never be among them); without, `acceptedAlgorithms(advertised:)` derives them.
    public let idTokenAlgorithms: Set<String>?
    /// A token that expires within this many seconds is refreshed before it is handed out.
    public let refreshMarginSeconds: Int64
    /// A cached key set older than this is fetched again before it verifies anything, so a key the
    /// provider withdrew stops verifying. 300 s by default, as oauth4webapi does.
    public let jwksMaxAgeSeconds: Int64
    public let clientAssertionAudience: ClientAssertionAudience
    /// What the provider's metadata demands of authorization requests, recorded by the client that filled
    /// in this configuration from discovery (`OIDCClient.effectiveConfiguration`): only pushed requests
    /// (RFC 9126 §5), only signed ones (RFC 9101 §10.5). Not settings: the host does not choose them.
    public let providerRequiresPush: Bool
    public let providerRequiresSignedRequests: Bool

    /// Whether an authorization request must be pushed or signed, which only a client can do (it holds the
    /// provider's endpoints and the client's keys): by the host's settings, its security profile (FAPI 2.0
    /// Security Profile §5.3.2.2 asks for pushed requests) or what the provider requires.
    public var authorizationRequestsNeedClient: Bool {
        pushAuthorizationRequests || signAuthorizationRequests || securityProfile == .fapi2
            || providerRequiresPush || providerRequiresSignedRequests
    }

    /// The `aud` of a client_secret_jwt or private_key_jwt assertion. RFC 7523 §3 allows any value that
    /// identifies the authorization server, the token endpoint URL among them. The issuer is the default:
    /// it names the server itself, not a URL a discovery document supplied. Some servers (glewlwyd 2.7.5)
    /// refuse it and take only the URL of the endpoint the assertion goes to (`endpoint`).
    public enum ClientAssertionAudience: String, Sendable {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case endpoint
    }

    /// The redirect URI, for the flows that need one.
    public func requiredRedirect() throws(TelenoridError) -> Redirect {
        guard let redirect else {
            throw TelenoridError(
                .configuration,
                "redirect_uri is not configured: the authorization code flow needs one (RFC 6749 §3.1.2)")
        }
        return redirect
    }

    private static func redirectURI(_ text: String) throws(TelenoridError) -> URI {
        let uri: URI
        do { uri = try URI(parsing: text) } catch {
            throw TelenoridError(.configuration, "redirect_uri is not a valid URI: \(error.message)")
        }
        guard uri.fragment == nil else {
            throw TelenoridError(.configuration, "redirect_uri must not have a fragment (RFC 6749 §3.1.2)")
        }
        if uri.scheme == "http" && !uri.isLoopback {
            throw TelenoridError(
                .insecure, "redirect_uri over plain http is allowed only on a loopback host (RFC 8252 §8.3)")
        }
        return uri
    }

    public init(
        _ settings: Settings, providerRequiresPush: Bool = false,
        providerRequiresSignedRequests: Bool = false
    ) throws(TelenoridError) {
        self.settings = settings
        self.providerRequiresPush = providerRequiresPush
        self.providerRequiresSignedRequests = providerRequiresSignedRequests
        for setting in Setting.allCases where setting.isEndpoint {
            guard let value = settings[setting] else { continue }
            let uri: URI
            do { uri = try URI(parsing: value) } catch {
                throw TelenoridError(.configuration, "\(setting.jsonName) is not a valid URL: \(error.message)")
            }
            guard uri.isSecureEndpoint else {
                throw TelenoridError(.insecure, "\(setting.jsonName) must be https (http only on a loopback host)")
            }
            guard uri.fragment == nil else {
                throw TelenoridError(.configuration, "\(setting.jsonName) must not have a fragment")
            }
        }
        guard let issuerText = settings[.issuer] else { throw TelenoridError(.configuration, "issuer is required") }
        issuer = try URI(parsing: issuerText)
        guard issuer.query == nil else { throw TelenoridError(.configuration, "issuer must not have a query") }
        guard let clientID = settings[.clientID], !clientID.isEmpty else {
            throw TelenoridError(.configuration, "client_id is required")
        }
        self.clientID = clientID
        redirect = try settings[.redirectURI].map { text throws(TelenoridError) in
            Redirect(string: text, uri: try Self.redirectURI(text))
        }
        let scope = settings[.scope] ?? "openid"
        guard !scope.isEmpty, scope.utf8.allSatisfy({ $0 > 0x20 || $0 == 0x20 }), scope.utf8.first != 0x20 else {
            throw TelenoridError(.configuration, "scope must be space-separated scope tokens")
        }
        self.scope = scope
        authorizationEndpoint = try settings[.authorizationEndpoint].map { text throws(TelenoridError) in
            try URI(parsing: text)
        }
        allowPlainPKCE = try Self.flag(settings, .allowPlainPKCE)
        pushAuthorizationRequests = try Self.flag(settings, .pushAuthorizationRequests)
        clientAuthMethod = try ClientAuthMethod(settings)
        dpopAlgorithms = try Self.dpopAlgorithms(settings[.dpopSigningAlgorithm])
        dpopBindAuthorizationCode = try Self.flag(settings, .dpopBindAuthorizationCode)
        allowBearerDowngrade = try Self.flag(settings, .allowBearerDowngrade)
        signAuthorizationRequests = try Self.flag(settings, .signAuthorizationRequests)
        // Only a key something signs with is read (and must be valid).
        let signs = clientAuthMethod == .privateKeyJWT || signAuthorizationRequests
        let profile: SecurityProfile?
        switch settings[.securityProfile] {
        case nil: profile = nil
        case let text?:
            guard let named = SecurityProfile(rawValue: text) else {
                throw TelenoridError(.configuration, "security_profile must be \"fapi2\"")
            }
            profile = named
        }
        securityProfile = profile
        switch settings[.backchannelTokenDeliveryMode] {
        case nil: backchannelTokenDeliveryMode = .poll
        case let text?:
            guard let mode = BackchannelTokenDeliveryMode(rawValue: text) else {
                throw TelenoridError(.configuration, "backchannel_token_delivery_mode must be \"poll\" or \"ping\"")
            }
            backchannelTokenDeliveryMode = mode
        }
        clientPrivateKey = try settings.clientPrivateKey.flatMap { text throws(TelenoridError) -> PrivateKey? in
            text.count == 0 || !signs ? nil : try Self.clientKey(text, keyID: settings[.clientKeyID], profile: profile)
        }
        var http = HTTPSettings()
        http.caFile = settings[.caFile]
        http.caPath = settings[.caPath]
        http.proxy = settings[.proxy]
        http.connectTimeoutMilliseconds =
            try Self.number(settings, .connectTimeoutMilliseconds, 1...600_000) ?? http.connectTimeoutMilliseconds
        http.totalTimeoutMilliseconds =
            try Self.number(settings, .timeoutMilliseconds, 1...3_600_000) ?? http.totalTimeoutMilliseconds
        http.maxBodyBytes = try Self.number(settings, .maxResponseBytes, 1024...(64 << 20)) ?? http.maxBodyBytes
        if securityProfile == .fapi2 { http.tls12CipherList = FAPI2Profile.tls12CipherList }
        self.http = http
        clockToleranceSeconds = Int64(try Self.number(settings, .clockToleranceSeconds, 0...3600) ?? 120)
        clockOffsetSeconds = Int64(try Self.number(settings, .clockOffsetSeconds, -86_400 * 366...86_400 * 366) ?? 0)
        refreshMarginSeconds = Int64(try Self.number(settings, .refreshMarginSeconds, 0...86_400) ?? 60)
        jwksMaxAgeSeconds = Int64(try Self.number(settings, .jwksMaxAgeSeconds, 1...86_400) ?? 300)
        switch settings[.clientAssertionAudience] {
        case nil: clientAssertionAudience = .issuer
        case let text?:
            guard let audience = ClientAssertionAudience(rawValue: text) else {
                throw TelenoridError(
                    .configuration, "client_assertion_audience must be \"issuer\", \"token_endpoint\" or \"endpoint\"")
            }
            clientAssertionAudience = audience
        }
        trustedAudiences = Set((settings[.trustedAudiences] ?? "").split(separator: " ").map(String.init))
        if let list = settings[.idTokenAlgorithms] {
            let algorithms = Set(list.split(separator: " ").map(String.init))
            guard !algorithms.isEmpty, !algorithms.contains(where: { $0.lowercased() == "none" }) else {
                throw TelenoridError(.configuration, "id_token_signing_algs must list algorithms, and never none")
            }
            if algorithms.contains(where: { $0.hasPrefix("HS") }) && settings.clientSecret == nil {
                throw TelenoridError(.configuration, "HMAC ID token algorithms need a client_secret")
            }
            idTokenAlgorithms = algorithms
        } else {
            idTokenAlgorithms = nil
        }
        if securityProfile == .fapi2 { try FAPI2Profile.check(self) }
    }

    /// Asymmetric algorithms only (RFC 7518 §3.1, RFC 8037 §3.1): HMAC-signed tokens are accepted only
    /// from a provider that advertises them, by clients that have a secret.
    /// `client_private_key` as the client signs with it: named by `client_key_id`, else by its own `kid`,
    /// else by its RFC 7638 thumbprint (the form TelenorID's example assertion's `kid` has), so the provider
    /// can pick the registered key; an RSA key that declares no algorithm signs PS256 under FAPI 2.0
    /// (Security Profile §5.4.1 item 1), RS256 otherwise.
    static func clientKey(_ text: SecretBytes, keyID: String?, profile: SecurityProfile?) throws(TelenoridError)
        -> PrivateKey
    {
        var key = try PrivateKey(text: text)
        if let keyID {
            guard !keyID.isEmpty else { throw TelenoridError(.configuration, "client_key_id is empty") }
            key = key.identified(as: keyID)
        } else if key.keyID == nil {
            key = key.identified(as: try key.thumbprint())
        }
        if profile == .fapi2, key.algorithmIsDefault, let ps256 = key.signing(with: "PS256") { key = ps256 }
        return key
    }

    /// `dpop_signing_alg`: one algorithm or several separated by spaces, each one the library makes keys of,
    /// none twice.
    static func dpopAlgorithms(_ text: String?) throws(TelenoridError) -> [String] {
        guard let text else { return [] }
        let list = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !list.isEmpty, list.allSatisfy({ DPoPKey.algorithms.contains($0) }), Set(list).count == list.count else {
            throw TelenoridError(
                .configuration,
                "dpop_signing_alg must list, by preference and once each, algorithms among "
                    + DPoPKey.algorithms.joined(separator: ", "))
        }
        return list
    }

    public static let defaultAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
        "ES256", "ES384", "ES512", "EdDSA"
    ]
    static let hmacAlgorithms: Set<String> = ["HS256", "HS384", "HS512"]

    /// The algorithms a JWS from the provider may be signed with, given what its metadata advertises for
    /// that kind of token (OIDC Discovery §3: `id_token_signing_alg_values_supported`,
    /// `userinfo_signing_alg_values_supported`). The host's list when it set one. Otherwise the default,
    /// plus HMAC for a client with a secret (keyed with that secret only), narrowed to the advertisement;
    /// a provider that advertises nothing gets the default. `none` is in neither. Under the FAPI 2.0
    /// Security Profile only PS256, ES256 and EdDSA remain (§5.4.1 item 1).
    public func acceptedAlgorithms(advertised: [String]) -> Set<String> {
        let accepted: Set<String>
        if let idTokenAlgorithms {
            accepted = idTokenAlgorithms
        } else if advertised.isEmpty {
            accepted = Self.defaultAlgorithms
        } else {
            let candidates =
                settings.clientSecret == nil
                ? Self.defaultAlgorithms : Self.defaultAlgorithms.union(Self.hmacAlgorithms)
            accepted = candidates.intersection(advertised)
        }
        return securityProfile == .fapi2 ? accepted.intersection(FAPI2Profile.algorithms) : accepted
    }

    private static func number(_ settings: Settings, _ setting: Setting, _ range: ClosedRange<Int>)
        throws(TelenoridError) -> Int?
    {
        guard let text = settings[setting] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw TelenoridError(
                .configuration,
                "\(setting.jsonName) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A yes/no setting: "true" or "false" (a JSON document's booleans arrive as these), false when unset.
    private static func flag(_ settings: Settings, _ setting: Setting) throws(TelenoridError) -> Bool {
        switch settings[setting] {
        case nil, "false": return false
        case "true": return true
        default: throw TelenoridError(.configuration, "\(setting.jsonName) must be \"true\" or \"false\"")
        }
    }

    public static func == (lhs: ClientConfiguration, rhs: ClientConfiguration) -> Bool {
        lhs.settings == rhs.settings
    }
}

extension ClientConfiguration.Setting {
    /// Settings a JSON document may give as a number.
    var isNumeric: Bool {
        switch self {
        case .connectTimeoutMilliseconds, .timeoutMilliseconds, .maxResponseBytes, .clockToleranceSeconds,
            .clockOffsetSeconds, .refreshMarginSeconds, .jwksMaxAgeSeconds:
            true
        default: false
        }
    }

    /// Yes/no settings: "true" or "false", which a JSON document may give as booleans.
    public var isFlag: Bool {
        switch self {
        case .allowPlainPKCE, .pushAuthorizationRequests, .dpopBindAuthorizationCode, .allowBearerDowngrade,
            .signAuthorizationRequests:
            true
        default: false
        }
    }
    /// Settings a JSON document may give as an array of strings (kept space-separated).
    var isList: Bool { self == .trustedAudiences || self == .idTokenAlgorithms }
}
