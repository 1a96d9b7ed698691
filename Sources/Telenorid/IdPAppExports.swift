import CTelenorid
import TelenoridCore

// The IdP-app flow (Salesforce Mobile SDK identity provider style): key-value pairs for Android bundles,
// the request an SP app sends an IdP app, the IdP app's response, and the SP's check of that response.

/// The value of a `telenorid_idp_response` handle: the IdP app's response and the SP app's redirect URI,
/// taken from the request it answers, that the response is sent to.
struct IdPResponseToSend {
    let response: IdPAppResponse
    let redirectURI: String
}

/// Reads a caller's array of `count` strings; NULL is accepted only for an empty array.
func inputStrings(_ pointer: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ what: String) throws(TelenoridError) -> [String] {
    guard count > 0 else { return [] }
    guard let pointer else { throw TelenoridError(.invalidArgument, "\(what) is NULL") }
    guard count <= 4096 else { throw TelenoridError(.invalidArgument, "\(what) has more than 4096 entries") }
    var out: [String] = []
    for index in 0..<count { out.append(try inputString(pointer[index], "\(what)[\(index)]")) }
    return out
}

func pairAt(_ parameters: FormParameters, _ index: Int) throws(TelenoridError) -> FormParameters.Pair {
    guard index >= 0, index < parameters.pairs.count else {
        throw TelenoridError(.invalidArgument, "index \(index) is past the \(parameters.pairs.count) pairs")
    }
    return parameters.pairs[index]
}

// MARK: Key-value pairs

@c @implementation
public func telenorid_params_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try outPointer(out).pointee = retainedHandle(FormParameters())
    }
}

@c @implementation
public func telenorid_params_add(_ params: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                 _ value: UnsafePointer<CChar>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        let key = try inputString(name, "name"), text = try inputString(value, "value")
        guard !key.isEmpty else { throw TelenoridError(.invalidArgument, "a parameter needs a name") }
        try handle.value.append(key, text)
    }
}

@c @implementation
public func telenorid_params_count(_ params: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        try outPointer(out).pointee = handle.value.pairs.count
    }
}

@c @implementation
public func telenorid_params_name(_ params: OpaquePointer?, _ index: Int,
                                  _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        let out = try outPointer(out)
        try writeString(try pairAt(handle.value, index).name, to: out)
    }
}

@c @implementation
public func telenorid_params_value(_ params: OpaquePointer?, _ index: Int,
                                   _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: FormParameters.self, "params")
        let out = try outPointer(out)
        try writeString(try pairAt(handle.value, index).value, to: out)
    }
}

@c @implementation
public func telenorid_params_free(_ params: OpaquePointer?) {
    release(params)
}

// MARK: SP side

@c @implementation
public func telenorid_idp_request_new(_ pending: OpaquePointer?, _ loginHost: UnsafePointer<CChar>?,
                                      _ userHint: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        let host = try optionalInputString(loginHost, "login_host")
        let hint = try optionalInputString(userHint, "user_hint")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try IdPAppRequest(pending: pending, loginHost: host, userHint: hint))
    }
}

@c @implementation
public func telenorid_pending_auth_handle_idp_response_url(
    _ pending: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ allowedLoginHosts: UnsafePointer<UnsafePointer<CChar>?>?,
    _ count: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        let text = try inputString(url, "url")
        let hosts = try inputStrings(allowedLoginHosts, count, "allowed_login_hosts")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try pending.handleIdPAppResponse(url: text, allowedLoginHosts: hosts))
    }
}

@c @implementation
public func telenorid_pending_auth_handle_idp_response_params(
    _ pending: OpaquePointer?, _ params: OpaquePointer?, _ allowedLoginHosts: UnsafePointer<UnsafePointer<CChar>?>?,
    _ count: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pending = try borrow(pending, as: PendingAuthorization.self, "pending").value
        let pairs = try borrow(params, as: FormParameters.self, "params")
        let hosts = try inputStrings(allowedLoginHosts, count, "allowed_login_hosts")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try pending.handleIdPAppResponse(parameters: pairs.value, allowedLoginHosts: hosts))
    }
}

// MARK: IdP side

@c @implementation
public func telenorid_idp_request_parse_url(
    _ url: UnsafePointer<CChar>?, _ idpAppURI: UnsafePointer<CChar>?,
    _ callerRedirectURIs: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let text = try inputString(url, "url"), own = try inputString(idpAppURI, "idp_app_uri")
        let uris = try inputStrings(callerRedirectURIs, count, "caller_redirect_uris")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try IdPAppRequest(url: text, idpAppURI: own, callerRedirectURIs: uris))
    }
}

@c @implementation
public func telenorid_idp_request_parse_params(
    _ params: OpaquePointer?, _ callerRedirectURIs: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pairs = try borrow(params, as: FormParameters.self, "params")
        let uris = try inputStrings(callerRedirectURIs, count, "caller_redirect_uris")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try IdPAppRequest(parameters: pairs.value, callerRedirectURIs: uris))
    }
}

@c @implementation
public func telenorid_idp_request_url(_ request: OpaquePointer?, _ idpAppURI: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        let base = try inputString(idpAppURI, "idp_app_uri")
        let out = try outPointer(out)
        try writeString(try request.url(idpAppURI: base), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_params(_ request: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        try outPointer(out).pointee = retainedHandle(request.parameters)
    }
}

@c @implementation
public func telenorid_idp_request_authorization_url(_ request: OpaquePointer?, _ endpoint: UnsafePointer<CChar>?,
                                                    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        let url = try inputString(endpoint, "authorization_endpoint")
        let out = try outPointer(out)
        try writeString(try request.authorizationURL(authorizationEndpoint: url), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_respond(_ request: OpaquePointer?, _ providerRedirectURL: UnsafePointer<CChar>?,
                                          _ loginHost: UnsafePointer<CChar>?,
                                          _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        let redirect = try inputString(providerRedirectURL, "provider_redirect_url")
        let host = try inputString(loginHost, "login_host")
        let out = try outPointer(out)
        let response = try request.response(fromProviderRedirect: redirect, loginHost: host)
        out.pointee = retainedHandle(IdPResponseToSend(response: response, redirectURI: request.redirectURI))
    }
}

@c @implementation
public func telenorid_idp_request_free(_ request: OpaquePointer?) {
    release(request)
}

@c @implementation
public func telenorid_idp_response_url(_ response: OpaquePointer?,
                                       _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let response = try borrow(response, as: IdPResponseToSend.self, "response").value
        let out = try outPointer(out)
        try writeString(try response.response.url(redirectURI: response.redirectURI), to: out)
    }
}

@c @implementation
public func telenorid_idp_response_params(_ response: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let response = try borrow(response, as: IdPResponseToSend.self, "response").value
        try outPointer(out).pointee = retainedHandle(response.response.parameters)
    }
}

@c @implementation
public func telenorid_idp_response_free(_ response: OpaquePointer?) {
    release(response)
}
