import CTelenorid
import TelenoridCore

// Client configuration: a mutable builder, an immutable configuration, and JSON documents.

private func setting(_ key: telenorid_config_key) throws(TelenoridError) -> ClientConfiguration.Setting {
    switch key {
    case TELENORID_CONFIG_ISSUER: .issuer
    case TELENORID_CONFIG_CLIENT_ID: .clientID
    case TELENORID_CONFIG_REDIRECT_URI: .redirectURI
    case TELENORID_CONFIG_SCOPE: .scope
    case TELENORID_CONFIG_AUTHORIZATION_ENDPOINT: .authorizationEndpoint
    case TELENORID_CONFIG_TOKEN_ENDPOINT: .tokenEndpoint
    case TELENORID_CONFIG_USERINFO_ENDPOINT: .userinfoEndpoint
    case TELENORID_CONFIG_REVOCATION_ENDPOINT: .revocationEndpoint
    case TELENORID_CONFIG_END_SESSION_ENDPOINT: .endSessionEndpoint
    case TELENORID_CONFIG_JWKS_URI: .jwksURI
    case TELENORID_CONFIG_ENVIRONMENT: .environment
    case TELENORID_CONFIG_ALLOW_PLAIN_PKCE: .allowPlainPKCE
    case TELENORID_CONFIG_CLIENT_SECRET: .clientSecret
    case TELENORID_CONFIG_TOKEN_ENDPOINT_AUTH_METHOD: .clientAuthMethod
    case TELENORID_CONFIG_CLIENT_PRIVATE_KEY: .clientPrivateKey
    case TELENORID_CONFIG_CA_FILE: .caFile
    case TELENORID_CONFIG_CA_PATH: .caPath
    case TELENORID_CONFIG_PROXY: .proxy
    case TELENORID_CONFIG_CONNECT_TIMEOUT_MS: .connectTimeoutMilliseconds
    case TELENORID_CONFIG_TIMEOUT_MS: .timeoutMilliseconds
    case TELENORID_CONFIG_MAX_RESPONSE_BYTES: .maxResponseBytes
    case TELENORID_CONFIG_CLOCK_TOLERANCE_S: .clockToleranceSeconds
    case TELENORID_CONFIG_CLOCK_OFFSET_S: .clockOffsetSeconds
    case TELENORID_CONFIG_TRUSTED_AUDIENCES: .trustedAudiences
    case TELENORID_CONFIG_ID_TOKEN_SIGNING_ALGS: .idTokenAlgorithms
    case TELENORID_CONFIG_REFRESH_MARGIN_S: .refreshMarginSeconds
    case TELENORID_CONFIG_ALOHA_URL: .alohaURL
    case TELENORID_CONFIG_JWKS_MAX_AGE_S: .jwksMaxAgeSeconds
    case TELENORID_CONFIG_CLIENT_ASSERTION_AUDIENCE: .clientAssertionAudience
    case TELENORID_CONFIG_PUSHED_AUTHORIZATION_REQUEST_ENDPOINT: .pushedAuthorizationRequestEndpoint
    case TELENORID_CONFIG_PUSH_AUTHORIZATION_REQUESTS: .pushAuthorizationRequests
    case TELENORID_CONFIG_DPOP_SIGNING_ALG: .dpopSigningAlgorithm
    case TELENORID_CONFIG_DPOP_BIND_AUTHORIZATION_CODE: .dpopBindAuthorizationCode
    case TELENORID_CONFIG_ALLOW_BEARER_DOWNGRADE: .allowBearerDowngrade
    case TELENORID_CONFIG_SIGN_AUTHORIZATION_REQUESTS: .signAuthorizationRequests
    case TELENORID_CONFIG_SECURITY_PROFILE: .securityProfile
    case TELENORID_CONFIG_CLIENT_KEY_ID: .clientKeyID
    case TELENORID_CONFIG_DEVICE_AUTHORIZATION_ENDPOINT: .deviceAuthorizationEndpoint
    case TELENORID_CONFIG_BACKCHANNEL_AUTHENTICATION_ENDPOINT: .backchannelAuthenticationEndpoint
    case TELENORID_CONFIG_BACKCHANNEL_TOKEN_DELIVERY_MODE: .backchannelTokenDeliveryMode
    case TELENORID_CONFIG_INTROSPECTION_ENDPOINT: .introspectionEndpoint
    default: throw TelenoridError(.invalidArgument, "unknown configuration key \(key)")
    }
}

@c @implementation
public func telenorid_config_builder_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try outPointer(out).pointee = retainedHandle(ClientConfiguration.Settings())
    }
}

@c @implementation
public func telenorid_config_builder_set(
    _ builder: OpaquePointer?, _ key: telenorid_config_key,
    _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(builder, as: ClientConfiguration.Settings.self, "builder")
        let setting = try setting(key)
        if setting.isSecret {
            handle.value[secret: setting] = value == nil ? nil : try inputSecret(value, "value")
        } else {
            handle.value[setting] = try optionalInputString(value, "value")
        }
    }
}

@c @implementation
public func telenorid_config_builder_build(
    _ builder: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(builder, as: ClientConfiguration.Settings.self, "builder")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientConfiguration(handle.value))
    }
}

@c @implementation
public func telenorid_config_builder_free(_ builder: OpaquePointer?) {
    release(builder)
}

@c @implementation
public func telenorid_config_from_json(
    _ json: UnsafePointer<CChar>?, _ environment: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        // The document may hold the client secret.
        let document = try inputSecret(json, "json")
        let name = try optionalInputString(environment, "environment")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientConfiguration(json: document, environment: name))
    }
}

@c @implementation
public func telenorid_config_get(
    _ config: OpaquePointer?, _ key: telenorid_config_key,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        let setting = try setting(key)
        let out = try outPointer(out)
        let settings = configuration.settings
        if setting.isSecret {
            try writeSecret(settings[secret: setting], to: out)
        } else {
            try writeString(settings[setting], to: out)
        }
    }
}

@c @implementation
public func telenorid_config_free(_ config: OpaquePointer?) {
    release(config)
}
