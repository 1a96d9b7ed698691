import CTelenorid
import TelenoridCore

// The authorization request builder and the pending authorization it produces.

private func parameter(_ param: telenorid_auth_param) throws(TelenoridError) -> AuthorizationRequest.Parameter {
    switch param {
    case TELENORID_AUTH_SCOPE: .scope
    case TELENORID_AUTH_PROMPT: .prompt
    case TELENORID_AUTH_LOGIN_HINT: .loginHint
    case TELENORID_AUTH_UI_LOCALES: .uiLocales
    case TELENORID_AUTH_ACR_VALUES: .acrValues
    case TELENORID_AUTH_MAX_AGE: .maxAge
    case TELENORID_AUTH_ALOHA_TOKEN: .alohaToken
    case TELENORID_AUTH_CLAIMS_PURPOSE: .claimsPurpose
    case TELENORID_AUTH_RESPONSE_MODE: .responseMode
    case TELENORID_AUTH_LOGIN_HINT_TOKEN: .loginHintToken
    case TELENORID_AUTH_ID_TOKEN_HINT: .idTokenHint
    case TELENORID_AUTH_BINDING_MESSAGE: .bindingMessage
    case TELENORID_AUTH_REQUESTED_EXPIRY: .requestedExpiry
    default: throw TelenoridError(.invalidArgument, "unknown authorization parameter \(param)")
    }
}

private func json(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(TelenoridError) -> JSONValue? {
    guard let text = try optionalInputString(pointer, what) else { return nil }
    do { return try JSON.parse(text) } catch {
        throw TelenoridError(.malformed, "\(what) is not a JSON value: \(error.message)")
    }
}

@c @implementation
public func telenorid_auth_request_new(
    _ config: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        try outPointer(out).pointee = retainedHandle(SharedAuthorizationRequest(configuration: configuration))
    }
}

@c @implementation
public func telenorid_auth_request_set(
    _ request: OpaquePointer?, _ param: telenorid_auth_param,
    _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        // The user code is a secret (CIBA Core §7.1): read into wiping memory, held apart from the others.
        if param == TELENORID_AUTH_USER_CODE {
            try request.setUserCode(
                try value.map { (pointer) throws(TelenoridError) in try inputSecret(pointer, "value") })
            return
        }
        let parameter = try parameter(param)
        let value = try optionalInputString(value, "value")
        try request.set(parameter, value)
    }
}

@c @implementation
public func telenorid_auth_request_add_parameter(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let name = try inputString(name, "name"), value = try inputString(value, "value")
        try request.addParameter(name, value)
    }
}

@c @implementation
public func telenorid_auth_request_add_resource(_ request: OpaquePointer?, _ uri: UnsafePointer<CChar>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        try request.addResource(try inputString(uri, "uri"))
    }
}

@c @implementation
public func telenorid_auth_request_set_authorization_details(
    _ request: OpaquePointer?,
    _ json: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        try request.setAuthorizationDetails(json: try optionalInputString(json, "json"))
    }
}

@c @implementation
public func telenorid_auth_request_set_token_authorization_details(
    _ request: OpaquePointer?,
    _ json: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        try request.setTokenAuthorizationDetails(json: try optionalInputString(json, "json"))
    }
}

@c @implementation
public func telenorid_auth_request_apply_step_up(
    _ request: OpaquePointer?, _ wwwAuthenticate: UnsafePointer<CChar>?,
    _ applied: UnsafeMutablePointer<Int32>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let value = try inputString(wwwAuthenticate, "www_authenticate")
        let out = try outPointer(applied)
        out.pointee = try request.applyStepUp(wwwAuthenticate: value) ? 1 : 0
    }
}

@c @implementation
public func telenorid_auth_request_add_claim(
    _ request: OpaquePointer?, _ target: telenorid_claim_target,
    _ name: UnsafePointer<CChar>?, _ essential: Int32,
    _ purpose: UnsafePointer<CChar>?, _ valueJSON: UnsafePointer<CChar>?,
    _ valuesJSON: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let destination: ClaimsRequest.Target
        switch target {
        case TELENORID_CLAIMS_ID_TOKEN: destination = .idToken
        case TELENORID_CLAIMS_USERINFO: destination = .userinfo
        default: throw TelenoridError(.invalidArgument, "unknown claims target \(target)")
        }
        let essentialFlag: Bool?
        switch essential {
        case -1: essentialFlag = nil
        case 0: essentialFlag = false
        case 1: essentialFlag = true
        default: throw TelenoridError(.invalidArgument, "essential must be -1, 0 or 1")
        }
        var values: [JSONValue]? = nil
        if let list = try json(valuesJSON, "values_json") {
            guard let array = list.arrayValue else {
                throw TelenoridError(.malformed, "values_json must be a JSON array")
            }
            values = array
        }
        let claim = ClaimsRequest.Claim(
            name: try inputString(name, "name"), essential: essentialFlag,
            purpose: try optionalInputString(purpose, "purpose"),
            value: try json(valueJSON, "value_json"), values: values)
        try request.addClaim(claim, to: destination)
    }
}

@c @implementation
public func telenorid_auth_request_set_app_to_app(
    _ request: OpaquePointer?,
    _ appCallbackURI: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let uri = try inputString(appCallbackURI, "app_callback_uri")
        try request.setAppToApp(callbackURI: uri)
    }
}

@c @implementation
public func telenorid_auth_request_set_pkce_method(
    _ request: OpaquePointer?,
    _ method: telenorid_pkce_method
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let chosen: PKCE.Method
        switch method {
        case TELENORID_PKCE_S256: chosen = .s256
        case TELENORID_PKCE_PLAIN: chosen = .plain
        default: throw TelenoridError(.invalidArgument, "unknown PKCE method \(method)")
        }
        try request.setPKCEMethod(chosen)
    }
}

@c @implementation
public func telenorid_auth_request_free(_ request: OpaquePointer?) {
    release(request)
}

@c @implementation
public func telenorid_auth_request_build(
    _ request: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: SharedAuthorizationRequest.self, "request").value
        let out = try outPointer(out)
        let pending = try request.build()
        out.pointee = retainedHandle(pending)
    }
}

/// The four string views of a pending authorization share one shape.
private func pendingString(
    _ pending: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ field: (PendingAuthorization) -> String
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        try writeString(field(pending), to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pending_auth_url(
    _ pending: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    pendingString(pending, out) { $0.url }
}

@c @implementation
public func telenorid_pending_auth_state(
    _ pending: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    pendingString(pending, out) { $0.state }
}

@c @implementation
public func telenorid_pending_auth_nonce(
    _ pending: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    pendingString(pending, out) { $0.nonce }
}

@c @implementation
public func telenorid_pending_auth_code_verifier(
    _ pending: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        try writeSecret(pending.pkce.verifier, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pending_auth_serialize(
    _ pending: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        try writeSecret(pending.serialized(), to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_pending_auth_restore(
    _ config: OpaquePointer?, _ json: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        // Into wiping storage, as the verifier and the DPoP key it holds are read from it.
        let serialized = try inputSecret(json, "json")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try PendingAuthorization(restoring: serialized, configuration: configuration))
    }
}

@c @implementation
public func telenorid_pending_auth_free(_ pending: OpaquePointer?) {
    release(pending)
}
