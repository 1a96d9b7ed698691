/// The configuration's key table, and the unchecked values a builder collects.
extension ClientConfiguration {
    /// A setting: one `TELENORID_CONFIG_*` key of include/telenorid.h, numbered as there (append-only, as the
    /// header's keys are). `row` is the one table of what each setting is; the JSON documents, the checks when
    /// a configuration is built, the provider's metadata, the endpoints a client fills in from discovery and the
    /// export layer's keys all read it.
    ///
    /// A new key: its `#define` in the header, its case here under the header's number, and its row in `row`.
    /// The compiler refuses a case without a row and two cases with one number; `SettingTableTests` checks
    /// the cases against the header's keys.
    public enum Setting: Int32, CaseIterable, Sendable {
        case issuer = 1, clientID = 2, redirectURI = 3, scope = 4, authorizationEndpoint = 5, tokenEndpoint = 6
        case userinfoEndpoint = 7, revocationEndpoint = 8, endSessionEndpoint = 9, jwksURI = 10, environment = 11
        case allowPlainPKCE = 12, clientSecret = 13, clientAuthMethod = 14, clientPrivateKey = 15, caFile = 16
        case caPath = 17, proxy = 18, connectTimeoutMilliseconds = 19, timeoutMilliseconds = 20
        case maxResponseBytes = 21, clockToleranceSeconds = 22, clockOffsetSeconds = 23, trustedAudiences = 24
        case idTokenAlgorithms = 25, refreshMarginSeconds = 26, alohaURL = 27, jwksMaxAgeSeconds = 28
        case clientAssertionAudience = 29, pushedAuthorizationRequestEndpoint = 30, pushAuthorizationRequests = 31
        case dpopSigningAlgorithm = 32, dpopBindAuthorizationCode = 33, allowBearerDowngrade = 34
        case signAuthorizationRequests = 35, securityProfile = 36, clientKeyID = 37, deviceAuthorizationEndpoint = 38
        case backchannelAuthenticationEndpoint = 39, backchannelTokenDeliveryMode = 40

        /// What a setting's value is, and so how it is read and checked.
        public enum Kind: Equatable, Sendable {
            /// An https URL (http only on a loopback host) without a fragment.
            case endpoint
            /// An endpoint the provider's metadata names under the same member (OIDC Discovery 1.0 §3,
            /// RFC 8414 §2): a client that was not given it fills it in from there.
            case discoveredEndpoint
            /// Text; a setting with a form (a URI, a choice of words) is checked when the configuration is built.
            case string
            /// Text held in wiping storage, never in a String (`Settings.secrets`).
            case secret
            /// Words separated by spaces; a JSON document may give them as an array of strings.
            case list
            /// "true" or "false"; a JSON document may give a boolean. Unset is false.
            case flag
            /// A whole number in the range; a JSON document may give a number.
            case number(ClosedRange<Int>)
        }

        /// The setting's row: its name (the member in a JSON configuration document, and in the provider's
        /// metadata for a discovered endpoint; the header's key name in lower case) and its kind.
        public var row: (name: String, kind: Kind) {
            switch self {
            case .issuer: ("issuer", .endpoint)
            case .clientID: ("client_id", .string)
            case .redirectURI: ("redirect_uri", .string)
            case .scope: ("scope", .string)
            case .authorizationEndpoint: ("authorization_endpoint", .discoveredEndpoint)
            case .tokenEndpoint: ("token_endpoint", .discoveredEndpoint)
            case .userinfoEndpoint: ("userinfo_endpoint", .discoveredEndpoint)
            case .revocationEndpoint: ("revocation_endpoint", .discoveredEndpoint)
            case .endSessionEndpoint: ("end_session_endpoint", .discoveredEndpoint)
            case .jwksURI: ("jwks_uri", .discoveredEndpoint)
            case .environment: ("environment", .string)
            case .allowPlainPKCE: ("allow_plain_pkce", .flag)
            case .clientSecret: ("client_secret", .secret)
            case .clientAuthMethod: ("token_endpoint_auth_method", .string)
            case .clientPrivateKey: ("client_private_key", .secret)
            case .caFile: ("ca_file", .string)
            case .caPath: ("ca_path", .string)
            case .proxy: ("proxy", .string)
            case .connectTimeoutMilliseconds: ("connect_timeout_ms", .number(1...600_000))
            case .timeoutMilliseconds: ("timeout_ms", .number(1...3_600_000))
            case .maxResponseBytes: ("max_response_bytes", .number(1024...(64 << 20)))
            case .clockToleranceSeconds: ("clock_tolerance_s", .number(0...3600))
            case .clockOffsetSeconds: ("clock_offset_s", .number(-86_400 * 366...86_400 * 366))
            case .trustedAudiences: ("trusted_audiences", .list)
            case .idTokenAlgorithms: ("id_token_signing_algs", .list)
            case .refreshMarginSeconds: ("refresh_margin_s", .number(0...86_400))
            case .alohaURL: ("aloha_url", .endpoint)
            case .jwksMaxAgeSeconds: ("jwks_max_age_s", .number(1...86_400))
            case .clientAssertionAudience: ("client_assertion_audience", .string)
            case .pushedAuthorizationRequestEndpoint: ("pushed_authorization_request_endpoint", .discoveredEndpoint)
            case .pushAuthorizationRequests: ("push_authorization_requests", .flag)
            case .dpopSigningAlgorithm: ("dpop_signing_alg", .string)
            case .dpopBindAuthorizationCode: ("dpop_bind_authorization_code", .flag)
            case .allowBearerDowngrade: ("allow_bearer_downgrade", .flag)
            case .signAuthorizationRequests: ("sign_authorization_requests", .flag)
            case .securityProfile: ("security_profile", .string)
            case .clientKeyID: ("client_key_id", .string)
            case .deviceAuthorizationEndpoint: ("device_authorization_endpoint", .discoveredEndpoint)
            case .backchannelAuthenticationEndpoint: ("backchannel_authentication_endpoint", .discoveredEndpoint)
            case .backchannelTokenDeliveryMode: ("backchannel_token_delivery_mode", .string)
            }
        }

        /// The member name in a JSON configuration document (and in the provider's metadata).
        public var name: String { row.name }
        public var kind: Kind { row.kind }

        /// The setting a JSON document's member names.
        public init?(named name: String) {
            guard let setting = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = setting
        }

        public var isSecret: Bool { kind == .secret }
        var isNumber: Bool {
            guard case .number = kind else { return false }
            return true
        }
        var isEndpoint: Bool { kind == .endpoint || kind == .discoveredEndpoint }
        /// The endpoints discovery fills in, in the table's order.
        public static let discoveredEndpoints = allCases.filter { $0.kind == .discoveredEndpoint }
    }

    /// The unchecked values, as a builder collects them.
    public struct Settings: Sendable, Equatable {
        /// Every setting but the secret ones.
        public var values: [Setting: String] = [:]
        /// The settings that are `isSecret`, in wiping storage: Strings in `values` would stay in freed
        /// memory after the configuration is gone.
        public var secrets: [Setting: SecretBytes] = [:]
        public init() {}

        /// A secret setting's value (nil for any other setting).
        public subscript(secret setting: Setting) -> SecretBytes? {
            get { setting.isSecret ? secrets[setting] : nil }
            set { if setting.isSecret { secrets[setting] = newValue } }
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
            lhs.values == rhs.values && lhs.secrets.count == rhs.secrets.count
                && lhs.secrets.allSatisfy { same($0.value, rhs.secrets[$0.key]) }
        }

        static func same(_ lhs: SecretBytes?, _ rhs: SecretBytes?) -> Bool {
            guard let lhs, let rhs else { return lhs == nil && rhs == nil }
            return lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { Crypto.constantTimeEquals(left, $0) } }
        }
    }
}
