/// The configuration's key table, and the unchecked values a builder collects.
extension ClientConfiguration {
    /// A setting: one `TELENORID_CONFIG_*` key of include/telenorid.h. `row` is the one table of what each
    /// setting is (the header's number, the name, the kind); the JSON documents, the checks when a configuration
    /// is built, the provider's metadata, the endpoints a client fills in from discovery and the export layer's
    /// keys all read it.
    ///
    /// A new key: its `#define` in the header, its case here and its row in `row`. The compiler refuses a case
    /// without a row; `SettingTableTests` checks every row's number and name against the header's keys.
    public enum Setting: CaseIterable, Sendable {
        case issuer, clientID, redirectURI, scope, authorizationEndpoint, tokenEndpoint, userinfoEndpoint
        case revocationEndpoint, endSessionEndpoint, jwksURI, environment, allowPlainPKCE, clientSecret
        case clientAuthMethod, clientPrivateKey, caFile, caPath, proxy, connectTimeoutMilliseconds
        case timeoutMilliseconds, maxResponseBytes, clockToleranceSeconds, clockOffsetSeconds, trustedAudiences
        case idTokenAlgorithms, refreshMarginSeconds, alohaURL, jwksMaxAgeSeconds, clientAssertionAudience
        case pushedAuthorizationRequestEndpoint, pushAuthorizationRequests, dpopSigningAlgorithm
        case dpopBindAuthorizationCode, allowBearerDowngrade, signAuthorizationRequests, securityProfile
        case clientKeyID, deviceAuthorizationEndpoint, backchannelAuthenticationEndpoint
        case backchannelTokenDeliveryMode, introspectionEndpoint

        /// What a setting's value is, and so how it is read and checked.
        public enum Kind: Equatable, Sendable {
            /// An https URL (http only on a loopback host) without a fragment.
            case endpoint
            /// An endpoint the provider's metadata names under the same member (OIDC Discovery 1.0 §3,
            /// RFC 8414 §2): a client that was not given it fills it in from there.
            case discoveredEndpoint
            /// Text; a setting with a form (a URI, a choice of words) is checked when the configuration is built.
            case string
            /// Text held in wiping storage, never in a String: a field of `Settings` of its own (the client
            /// secret, the client's private key; `subscript(secret:)` names them).
            case secret
            /// Words separated by spaces; a JSON document may give them as an array of strings.
            case list
            /// "true" or "false"; a JSON document may give a boolean. Unset is false.
            case flag
            /// A whole number in the range; a JSON document may give a number.
            case number(ClosedRange<Int>)
        }

        /// The setting's row: the number of its key in the header, its name (the member in a JSON configuration
        /// document, and in the provider's metadata for a discovered endpoint; the header's key name in lower
        /// case) and its kind.
        public var row: (number: Int32, name: String, kind: Kind) {
            switch self {
            case .issuer: (1, "issuer", .endpoint)
            case .clientID: (2, "client_id", .string)
            case .redirectURI: (3, "redirect_uri", .string)
            case .scope: (4, "scope", .string)
            case .authorizationEndpoint: (5, "authorization_endpoint", .discoveredEndpoint)
            case .tokenEndpoint: (6, "token_endpoint", .discoveredEndpoint)
            case .userinfoEndpoint: (7, "userinfo_endpoint", .discoveredEndpoint)
            case .revocationEndpoint: (8, "revocation_endpoint", .discoveredEndpoint)
            case .endSessionEndpoint: (9, "end_session_endpoint", .discoveredEndpoint)
            case .jwksURI: (10, "jwks_uri", .discoveredEndpoint)
            case .environment: (11, "environment", .string)
            case .allowPlainPKCE: (12, "allow_plain_pkce", .flag)
            case .clientSecret: (13, "client_secret", .secret)
            case .clientAuthMethod: (14, "token_endpoint_auth_method", .string)
            case .clientPrivateKey: (15, "client_private_key", .secret)
            case .caFile: (16, "ca_file", .string)
            case .caPath: (17, "ca_path", .string)
            case .proxy: (18, "proxy", .string)
            case .connectTimeoutMilliseconds: (19, "connect_timeout_ms", .number(1...600_000))
            case .timeoutMilliseconds: (20, "timeout_ms", .number(1...3_600_000))
            case .maxResponseBytes: (21, "max_response_bytes", .number(1024...(64 << 20)))
            case .clockToleranceSeconds: (22, "clock_tolerance_s", .number(0...3600))
            case .clockOffsetSeconds: (23, "clock_offset_s", .number(-86_400 * 366...86_400 * 366))
            case .trustedAudiences: (24, "trusted_audiences", .list)
            case .idTokenAlgorithms: (25, "id_token_signing_algs", .list)
            case .refreshMarginSeconds: (26, "refresh_margin_s", .number(0...86_400))
            case .alohaURL: (27, "aloha_url", .endpoint)
            case .jwksMaxAgeSeconds: (28, "jwks_max_age_s", .number(1...86_400))
            case .clientAssertionAudience: (29, "client_assertion_audience", .string)
            case .pushedAuthorizationRequestEndpoint: (30, "pushed_authorization_request_endpoint", .discoveredEndpoint)
            case .pushAuthorizationRequests: (31, "push_authorization_requests", .flag)
            case .dpopSigningAlgorithm: (32, "dpop_signing_alg", .string)
            case .dpopBindAuthorizationCode: (33, "dpop_bind_authorization_code", .flag)
            case .allowBearerDowngrade: (34, "allow_bearer_downgrade", .flag)
            case .signAuthorizationRequests: (35, "sign_authorization_requests", .flag)
            case .securityProfile: (36, "security_profile", .string)
            case .clientKeyID: (37, "client_key_id", .string)
            case .deviceAuthorizationEndpoint: (38, "device_authorization_endpoint", .discoveredEndpoint)
            case .backchannelAuthenticationEndpoint: (39, "backchannel_authentication_endpoint", .discoveredEndpoint)
            case .backchannelTokenDeliveryMode: (40, "backchannel_token_delivery_mode", .string)
            case .introspectionEndpoint: (41, "introspection_endpoint", .discoveredEndpoint)
            }
        }

        /// The number of its `TELENORID_CONFIG_*` key.
        public var number: Int32 { row.number }
        /// The member name in a JSON configuration document (and in the provider's metadata).
        public var name: String { row.name }
        public var kind: Kind { row.kind }

        /// The setting of a header key's number.
        public init?(number: Int32) {
            guard let setting = Self.allCases.first(where: { $0.number == number }) else { return nil }
            self = setting
        }

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
}
