import CTelenorid
import TelenoridCore

// The IdP-app flow (Salesforce Mobile SDK identity provider style): the request an SP app sends an IdP app,
// the IdP app's response, and the SP's check of that response. Their key-value form (an Android bundle)
// is in ParamsExports.swift.

/// The value of a `telenorid_idp_response` handle: the IdP app's response and the SP app's redirect URI,
/// taken from the request it answers, that the response is sent to.
struct IdPResponseToSend {
    let response: IdPAppResponse
    let redirectURI: String
}

// MARK: SP side

@c @implementation
public func telenorid_idp_request_new(
    _ pending: OpaquePointer?, _ loginHost: UnsafePointer<CChar>?,
    _ userHint: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
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
        out.pointee = retainedHandle(
            try pending.handleIdPAppResponse(parameters: pairs.value, allowedLoginHosts: hosts))
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
public func telenorid_idp_request_url(
    _ request: OpaquePointer?, _ idpAppURI: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        let base = try inputString(idpAppURI, "idp_app_uri")
        let out = try outPointer(out)
        try writeString(try request.url(idpAppURI: base), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_params(_ request: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        try outPointer(out).pointee = retainedHandle(request.parameters)
    }
}

@c @implementation
public func telenorid_idp_request_authorization_url(
    _ request: OpaquePointer?, _ endpoint: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let request = try borrow(request, as: IdPAppRequest.self, "request").value
        let url = try inputString(endpoint, "authorization_endpoint")
        let out = try outPointer(out)
        try writeString(try request.authorizationURL(authorizationEndpoint: url), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_respond(
    _ request: OpaquePointer?, _ providerRedirectURL: UnsafePointer<CChar>?,
    _ loginHost: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
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
public func telenorid_idp_response_url(
    _ response: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let response = try borrow(response, as: IdPResponseToSend.self, "response").value
        let out = try outPointer(out)
        try writeString(try response.response.url(redirectURI: response.redirectURI), to: out)
    }
}

@c @implementation
public func telenorid_idp_response_params(_ response: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let response = try borrow(response, as: IdPResponseToSend.self, "response").value
        try outPointer(out).pointee = retainedHandle(response.response.parameters)
    }
}

@c @implementation
public func telenorid_idp_response_free(_ response: OpaquePointer?) {
    release(response)
}

// MARK: IdP-initiated sign-in

@c @implementation
public func telenorid_idp_initiation_url(
    _ spAppURI: UnsafePointer<CChar>?, _ userHint: UnsafePointer<CChar>?, _ loginHost: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let base = try inputString(spAppURI, "sp_app_uri"), (hint, host) = try hintAndHost(userHint, loginHost)
        let out = try outPointer(out)
        try writeString(try IdPAppInitiation.url(spAppURI: base, userHint: hint, loginHost: host), to: out)
    }
}

@c @implementation
public func telenorid_idp_initiation_params(
    _ userHint: UnsafePointer<CChar>?, _ loginHost: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let (hint, host) = try hintAndHost(userHint, loginHost)
        let out = try outPointer(out)
        out.pointee = retainedHandle(try IdPAppInitiation.parameters(userHint: hint, loginHost: host))
    }
}

@c @implementation
public func telenorid_idp_initiation_parse_url(
    _ url: UnsafePointer<CChar>?, _ spAppURI: UnsafePointer<CChar>?,
    _ userHint: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ loginHost: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let text = try inputString(url, "url"), own = try inputString(spAppURI, "sp_app_uri")
        let hintOut = try outPointer(userHint), hostOut = try outPointer(loginHost)
        try writeBoth(IdPAppInitiation.read(url: text, spAppURI: own), hintOut, hostOut)
    }
}

@c @implementation
public func telenorid_idp_initiation_parse_params(
    _ params: OpaquePointer?, _ userHint: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ loginHost: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pairs = try borrow(params, as: FormParameters.self, "params")
        let hintOut = try outPointer(userHint), hostOut = try outPointer(loginHost)
        try writeBoth(IdPAppInitiation.read(pairs.value), hintOut, hostOut)
    }
}

@inline(never)
private func hintAndHost(_ userHint: UnsafePointer<CChar>?, _ loginHost: UnsafePointer<CChar>?) throws(TelenoridError)
    -> (String, String)
{
    (try inputString(userHint, "user_hint"), try inputString(loginHost, "login_host"))
}

/// Writes both strings or neither.
private func writeBoth(
    _ values: (String, String), _ first: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ second: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) throws(TelenoridError) {
    let copy = try allocateCString(values.0)
    do { second.pointee = try allocateCString(values.1) } catch {
        telenorid_string_free(copy)
        throw error
    }
    first.pointee = copy
}
