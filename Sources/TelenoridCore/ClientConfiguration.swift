/// The settings a client is configured with. Immutable once built.
public struct ClientConfiguration: Sendable, Equatable {
    public enum Setting: CaseIterable, Sendable {
        case issuer, clientID, redirectURI, scope, authorizationEndpoint, tokenEndpoint, userinfoEndpoint
        case revocationEndpoint, endSessionEndpoint, jwksURI, environment, allowPlainPKCE

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
            }
        }

        var isEndpoint: Bool {
            switch self {
            case .issuer, .authorizationEndpoint, .tokenEndpoint, .userinfoEndpoint, .revocationEndpoint,
                 .endSessionEndpoint, .jwksURI: true
            default: false
            }
        }
    }

    /// The unchecked values, as a builder collects them.
    public struct Settings: Sendable, Equatable {
        public var values: [Setting: String] = [:]
        public init() {}
        public subscript(setting: Setting) -> String? {
            get { values[setting] }
            set { values[setting] = newValue }
        }
    }

    public let settings: Settings
    public let issuer: URI
    public let clientID: String
    /// Kept exactly as configured: providers compare redirect URIs byte for byte (seed 002 warns that a
    /// trailing `/` breaks the exchange).
    public let redirectURIString: String
    public let redirectURI: URI
    public let scope: String
    public let authorizationEndpoint: URI?
    public let allowPlainPKCE: Bool

    public init(_ settings: Settings) throws(TelenoridError) {
        self.settings = settings
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
        guard let redirect = settings[.redirectURI] else { throw TelenoridError(.configuration, "redirect_uri is required") }
        do { redirectURI = try URI(parsing: redirect) } catch {
            throw TelenoridError(.configuration, "redirect_uri is not a valid URI: \(error.message)")
        }
        guard redirectURI.fragment == nil else {
            throw TelenoridError(.configuration, "redirect_uri must not have a fragment (RFC 6749 §3.1.2)")
        }
        if redirectURI.scheme == "http" && !redirectURI.isLoopback {
            throw TelenoridError(.insecure, "redirect_uri over plain http is allowed only on a loopback host (RFC 8252 §8.3)")
        }
        redirectURIString = redirect
        let scope = settings[.scope] ?? "openid"
        guard !scope.isEmpty, scope.utf8.allSatisfy({ $0 > 0x20 || $0 == 0x20 }), scope.utf8.first != 0x20 else {
            throw TelenoridError(.configuration, "scope must be space-separated scope tokens")
        }
        self.scope = scope
        authorizationEndpoint = try settings[.authorizationEndpoint].map { text throws(TelenoridError) in try URI(parsing: text) }
        switch settings[.allowPlainPKCE] {
        case nil, "false": allowPlainPKCE = false
        case "true": allowPlainPKCE = true
        default: throw TelenoridError(.configuration, "allow_plain_pkce must be \"true\" or \"false\"")
        }
    }

    public static func == (lhs: ClientConfiguration, rhs: ClientConfiguration) -> Bool {
        lhs.settings == rhs.settings
    }
}
