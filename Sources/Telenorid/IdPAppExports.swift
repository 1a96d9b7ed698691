import CTelenorid
import TelenoridCore

// The IdP-app flow (Salesforce Mobile SDK identity provider style): key-value pairs for Android bundles,
// the request an SP app sends an IdP app, the IdP app's response, and the SP's check of that response.

final class ParamsHandle: Handle {
    var parameters: FormParameters
    init(_ parameters: FormParameters) { self.parameters = parameters }
}

final class IdPRequestHandle: Handle {
    let request: IdPAppRequest
    init(_ request: IdPAppRequest) { self.request = request }
}

final class IdPResponseHandle: Handle {
    let response: IdPAppResponse
    let redirectURI: String
    init(_ response: IdPAppResponse, redirectURI: String) {
        self.response = response
        self.redirectURI = redirectURI
    }
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
        try outPointer(out).pointee = retainedHandle(ParamsHandle(FormParameters()))
    }
}

@c @implementation
public func telenorid_params_add(_ params: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                 _ value: UnsafePointer<CChar>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: ParamsHandle.self, "params")
        let key = try inputString(name, "name"), text = try inputString(value, "value")
        guard !key.isEmpty else { throw TelenoridError(.invalidArgument, "a parameter needs a name") }
        try handle.parameters.append(key, text)
    }
}

@c @implementation
public func telenorid_params_count(_ params: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: ParamsHandle.self, "params")
        try outPointer(out).pointee = handle.parameters.pairs.count
    }
}

@c @implementation
public func telenorid_params_name(_ params: OpaquePointer?, _ index: Int,
                                  _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: ParamsHandle.self, "params")
        let out = try outPointer(out)
        try writeString(try pairAt(handle.parameters, index).name, to: out)
    }
}

@c @implementation
public func telenorid_params_value(_ params: OpaquePointer?, _ index: Int,
                                   _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(params, as: ParamsHandle.self, "params")
        let out = try outPointer(out)
        try writeString(try pairAt(handle.parameters, index).value, to: out)
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
        let handle = try borrow(pending, as: PendingAuthHandle.self, "pending")
        let host = try optionalInputString(loginHost, "login_host")
        let hint = try optionalInputString(userHint, "user_hint")
        let out = try outPointer(out)
        out.pointee = retainedHandle(IdPRequestHandle(try IdPAppRequest(pending: handle.pending, loginHost: host, userHint: hint)))
    }
}

@c @implementation
public func telenorid_pending_auth_handle_idp_response_url(
    _ pending: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ allowedLoginHosts: UnsafePointer<UnsafePointer<CChar>?>?,
    _ count: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(pending, as: PendingAuthHandle.self, "pending")
        let text = try inputString(url, "url")
        let hosts = try inputStrings(allowedLoginHosts, count, "allowed_login_hosts")
        let out = try outPointer(out)
        out.pointee = retainedHandle(CallbackHandle(try handle.pending.handleIdPAppResponse(url: text, allowedLoginHosts: hosts)))
    }
}

@c @implementation
public func telenorid_pending_auth_handle_idp_response_params(
    _ pending: OpaquePointer?, _ params: OpaquePointer?, _ allowedLoginHosts: UnsafePointer<UnsafePointer<CChar>?>?,
    _ count: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(pending, as: PendingAuthHandle.self, "pending")
        let pairs = try borrow(params, as: ParamsHandle.self, "params")
        let hosts = try inputStrings(allowedLoginHosts, count, "allowed_login_hosts")
        let out = try outPointer(out)
        out.pointee = retainedHandle(CallbackHandle(
            try handle.pending.handleIdPAppResponse(parameters: pairs.parameters, allowedLoginHosts: hosts)))
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
        out.pointee = retainedHandle(IdPRequestHandle(try IdPAppRequest(url: text, idpAppURI: own, callerRedirectURIs: uris)))
    }
}

@c @implementation
public func telenorid_idp_request_parse_params(
    _ params: OpaquePointer?, _ callerRedirectURIs: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let pairs = try borrow(params, as: ParamsHandle.self, "params")
        let uris = try inputStrings(callerRedirectURIs, count, "caller_redirect_uris")
        let out = try outPointer(out)
        out.pointee = retainedHandle(IdPRequestHandle(try IdPAppRequest(parameters: pairs.parameters, callerRedirectURIs: uris)))
    }
}

@c @implementation
public func telenorid_idp_request_url(_ request: OpaquePointer?, _ idpAppURI: UnsafePointer<CChar>?,
                                      _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(request, as: IdPRequestHandle.self, "request")
        let base = try inputString(idpAppURI, "idp_app_uri")
        let out = try outPointer(out)
        try writeString(try handle.request.url(idpAppURI: base), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_params(_ request: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(request, as: IdPRequestHandle.self, "request")
        try outPointer(out).pointee = retainedHandle(ParamsHandle(handle.request.parameters))
    }
}

@c @implementation
public func telenorid_idp_request_authorization_url(_ request: OpaquePointer?, _ endpoint: UnsafePointer<CChar>?,
                                                    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(request, as: IdPRequestHandle.self, "request")
        let url = try inputString(endpoint, "authorization_endpoint")
        let out = try outPointer(out)
        try writeString(try handle.request.authorizationURL(authorizationEndpoint: url), to: out)
    }
}

@c @implementation
public func telenorid_idp_request_respond(_ request: OpaquePointer?, _ providerRedirectURL: UnsafePointer<CChar>?,
                                          _ loginHost: UnsafePointer<CChar>?,
                                          _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(request, as: IdPRequestHandle.self, "request")
        let redirect = try inputString(providerRedirectURL, "provider_redirect_url")
        let host = try inputString(loginHost, "login_host")
        let out = try outPointer(out)
        let response = try handle.request.response(fromProviderRedirect: redirect, loginHost: host)
        out.pointee = retainedHandle(IdPResponseHandle(response, redirectURI: handle.request.redirectURI))
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
        let handle = try borrow(response, as: IdPResponseHandle.self, "response")
        let out = try outPointer(out)
        try writeString(try handle.response.url(redirectURI: handle.redirectURI), to: out)
    }
}

@c @implementation
public func telenorid_idp_response_params(_ response: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(response, as: IdPResponseHandle.self, "response")
        try outPointer(out).pointee = retainedHandle(ParamsHandle(handle.response.parameters))
    }
}

@c @implementation
public func telenorid_idp_response_free(_ response: OpaquePointer?) {
    release(response)
}
