/// What a provider says about itself: OIDC Discovery 1.0 §3 and RFC 8414 §2.
public struct ProviderMetadata: Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String?
    public var tokenEndpoint: String?
    public var userinfoEndpoint: String?
    public var jwksURI: String?
    public var revocationEndpoint: String?
    public var endSessionEndpoint: String?
    public var idTokenSigningAlgorithms: [String]
    public var userinfoSigningAlgorithms: [String]
    public var tokenEndpointAuthMethods: [String]
    public var codeChallengeMethods: [String]
    /// RFC 9207: the provider puts `iss` in every authorization response, so one without it is forged.
    public var authorizationResponseIssParameterSupported: Bool
    /// RFC 9126 §5: where authorization requests are pushed, and whether the provider takes no other kind.
    public var pushedAuthorizationRequestEndpoint: String?
    public var requirePushedAuthorizationRequests: Bool
    /// OIDC Discovery §3 and RFC 8414 §2: the algorithms the provider takes for request objects; empty
    /// when it does not say.
    public var requestObjectSigningAlgorithms: [String]
    /// OIDC Discovery §3: whether the provider takes a request object by value in `request`.
    public var requestParameterSupported: Bool
    /// RFC 9449 §5.1: the algorithms the provider takes for DPoP proofs; empty when it does not say.
    public var dpopSigningAlgorithms: [String]
    /// RFC 9101 §10.5: the provider takes authorization requests only as signed request objects.
    public var requireSignedRequestObject: Bool
    /// RFC 8628 §4: where the device authorization grant starts.
    public var deviceAuthorizationEndpoint: String?
    /// OpenID CIBA Core 1.0 §4: where backchannel authentication requests go.
    public var backchannelAuthenticationEndpoint: String?
    /// RFC 8414 §2 (from RFC 7662 §4): where a resource server asks about a token.
    public var introspectionEndpoint: String?

    public static let maxDocumentBytes = 512 * 1024

    /// Parses a metadata document and checks its `issuer` is exactly the one it was fetched for
    /// (OIDC Discovery §4.3), which is what stops one provider from impersonating another.
    public init(json bytes: [UInt8], expectedIssuer: String) throws(TelenoridError) {
        let document: JSONValue
        do { document = try JSON.parse(bytes, limits: JSONLimits(maxBytes: ProviderMetadata.maxDocumentBytes)) } catch {
            throw TelenoridError(.invalidResponse, "provider metadata is not valid JSON: \(error.message)")
        }
        guard let object = document.objectValue else {
            throw TelenoridError(.invalidResponse, "provider metadata is not a JSON object")
        }
        func string(_ key: String) throws(TelenoridError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.invalidResponse, "provider metadata's \"\(key)\" is not a string")
            }
            return text
        }
        func endpoint(_ key: String) throws(TelenoridError) -> String? {
            guard let text = try string(key) else { return nil }
            let uri: URI
            do { uri = try URI(parsing: text) } catch {
                throw TelenoridError(.invalidResponse, "provider metadata's \"\(key)\" is not a URL: \(error.message)")
            }
            guard uri.isSecureEndpoint else {
                throw TelenoridError(.insecure, "provider metadata's \"\(key)\" is not https (or loopback http)")
            }
            return text
        }
        func strings(_ key: String) throws(TelenoridError) -> [String] {
            guard let value = object[key], value != .null else { return [] }
            guard let strings = value.stringArrayValue else {
                throw TelenoridError(.invalidResponse, "provider metadata's \"\(key)\" is not an array of strings")
            }
            return strings
        }
        guard let issuer = try string("issuer") else {
            throw TelenoridError(.invalidResponse, "provider metadata has no issuer")
        }
        guard issuer == expectedIssuer else {
            throw TelenoridError(
                .issuerMismatch,
                "provider metadata names issuer \(DisplayText.escaping(issuer)), expected \(expectedIssuer)")
        }
        self.issuer = issuer
        authorizationEndpoint = try endpoint("authorization_endpoint")
        tokenEndpoint = try endpoint("token_endpoint")
        userinfoEndpoint = try endpoint("userinfo_endpoint")
        jwksURI = try endpoint("jwks_uri")
        revocationEndpoint = try endpoint("revocation_endpoint")
        endSessionEndpoint = try endpoint("end_session_endpoint")
        idTokenSigningAlgorithms = try strings("id_token_signing_alg_values_supported")
        userinfoSigningAlgorithms = try strings("userinfo_signing_alg_values_supported")
        tokenEndpointAuthMethods = try strings("token_endpoint_auth_methods_supported")
        codeChallengeMethods = try strings("code_challenge_methods_supported")
        func flag(_ key: String) throws(TelenoridError) -> Bool {
            switch object[key] {
            case nil, .null?: return false
            case .bool(let flag)?: return flag
            default: throw TelenoridError(.invalidResponse, "provider metadata's \"\(key)\" is not a boolean")
            }
        }
        authorizationResponseIssParameterSupported = try flag("authorization_response_iss_parameter_supported")
        pushedAuthorizationRequestEndpoint = try endpoint("pushed_authorization_request_endpoint")
        deviceAuthorizationEndpoint = try endpoint("device_authorization_endpoint")
        requirePushedAuthorizationRequests = try flag("require_pushed_authorization_requests")
        requestObjectSigningAlgorithms = try strings("request_object_signing_alg_values_supported")
        requestParameterSupported = try flag("request_parameter_supported")
        requireSignedRequestObject = try flag("require_signed_request_object")
        dpopSigningAlgorithms = try strings("dpop_signing_alg_values_supported")
        backchannelAuthenticationEndpoint = try endpoint("backchannel_authentication_endpoint")
        introspectionEndpoint = try endpoint("introspection_endpoint")
    }

    /// Fills what the OIDC document leaves out from the provider's RFC 8414 document (a revocation
    /// endpoint, say); the OIDC document wins where both speak.
    public func filling(from other: ProviderMetadata) -> ProviderMetadata {
        var merged = self
        merged.authorizationEndpoint = authorizationEndpoint ?? other.authorizationEndpoint
        merged.tokenEndpoint = tokenEndpoint ?? other.tokenEndpoint
        merged.userinfoEndpoint = userinfoEndpoint ?? other.userinfoEndpoint
        merged.jwksURI = jwksURI ?? other.jwksURI
        merged.revocationEndpoint = revocationEndpoint ?? other.revocationEndpoint
        merged.endSessionEndpoint = endSessionEndpoint ?? other.endSessionEndpoint
        if idTokenSigningAlgorithms.isEmpty { merged.idTokenSigningAlgorithms = other.idTokenSigningAlgorithms }
        if tokenEndpointAuthMethods.isEmpty { merged.tokenEndpointAuthMethods = other.tokenEndpointAuthMethods }
        if codeChallengeMethods.isEmpty { merged.codeChallengeMethods = other.codeChallengeMethods }
        merged.authorizationResponseIssParameterSupported =
            authorizationResponseIssParameterSupported || other.authorizationResponseIssParameterSupported
        merged.pushedAuthorizationRequestEndpoint =
            pushedAuthorizationRequestEndpoint ?? other.pushedAuthorizationRequestEndpoint
        merged.requirePushedAuthorizationRequests =
            requirePushedAuthorizationRequests || other.requirePushedAuthorizationRequests
        if requestObjectSigningAlgorithms.isEmpty {
            merged.requestObjectSigningAlgorithms = other.requestObjectSigningAlgorithms
        }
        merged.requestParameterSupported = requestParameterSupported || other.requestParameterSupported
        merged.requireSignedRequestObject = requireSignedRequestObject || other.requireSignedRequestObject
        if dpopSigningAlgorithms.isEmpty { merged.dpopSigningAlgorithms = other.dpopSigningAlgorithms }
        merged.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint ?? other.deviceAuthorizationEndpoint
        merged.backchannelAuthenticationEndpoint =
            backchannelAuthenticationEndpoint ?? other.backchannelAuthenticationEndpoint
        merged.introspectionEndpoint = introspectionEndpoint ?? other.introspectionEndpoint
        return merged
    }

    /// Where the documents live: OIDC appends to the issuer's path, RFC 8414 §3.1 inserts before it.
    /// `oauthAppended` is the issuer + `/.well-known/oauth-authorization-server` form that servers mounted
    /// under a prefix publish (django-oauth-toolkit among them); it is tried when the RFC's location has
    /// nothing. For an issuer without a path both forms are the same URL.
    public static func discoveryURLs(issuer: String) throws(TelenoridError) -> (
        openid: String, oauth: String, oauthAppended: String
    ) {
        let uri = try URI(parsing: issuer)
        guard uri.isSecureEndpoint, uri.query == nil, uri.fragment == nil, let host = uri.host else {
            throw TelenoridError(
                .insecure, "issuer must be an https URL without query or fragment (http only on loopback)")
        }
        let trimmedPath = uri.path.hasSuffix("/") ? String(uri.path.dropLast()) : uri.path
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let hostPart = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        let authority = uri.port.map { "\(hostPart):\($0)" } ?? hostPart
        return (
            base + "/.well-known/openid-configuration",
            "\(uri.scheme)://\(authority)/.well-known/oauth-authorization-server\(trimmedPath)",
            base + "/.well-known/oauth-authorization-server"
        )
    }
}
