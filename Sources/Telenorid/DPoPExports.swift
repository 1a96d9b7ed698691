import CTelenorid
import TelenoridCore

// DPoP (RFC 9449): the host's own signer, and the headers for the host's own API calls.

@c @implementation
public func telenorid_client_set_dpop_signer(
    _ client: OpaquePointer?, _ algorithm: UnsafePointer<CChar>?,
    _ publicJWK: UnsafePointer<CChar>?, _ callback: telenorid_host_key_signer?,
    _ userData: UnsafeMutableRawPointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        try client.setDPoPSigner(try CHostKeySigner.keySigner(algorithm, publicJWK, callback, userData))
    }
}

@c @implementation
public func telenorid_auth_state_request_headers(
    _ state: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ url: UnsafePointer<CChar>?, _ resourceNonce: UnsafePointer<CChar>?,
    _ authorization: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ dpop: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        let method = try inputString(method, "method")
        let url = try inputString(url, "url")
        let nonce = try optionalInputString(resourceNonce, "resource_nonce")
        let authorizationOut = try outPointer(authorization)
        let dpopOut = try outPointer(dpop)
        let headers = try authState.requestHeaders(method: method, url: url, resourceNonce: nonce)
        try writeHeaders(headers, authorization: authorizationOut, dpop: dpopOut)
    }
}

/// The two outputs of a `..._request_headers` call: both written, or, when the second can't be, neither.
func writeHeaders(
    _ headers: (authorization: SecretBytes, dpop: String?),
    authorization: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    dpop: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) throws(TelenoridError) {
    try writeString(headers.dpop, to: dpop)
    do throws(TelenoridError) { try writeSecret(headers.authorization, to: authorization) } catch {
        telenorid_string_free(dpop.pointee)
        dpop.pointee = nil
        throw error
    }
}

@c @implementation
public func telenorid_auth_state_resource_answered(
    _ state: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ httpStatus: Int32,
    _ wwwAuthenticate: UnsafePointer<CChar>?, _ dpopNonce: UnsafePointer<CChar>?,
    _ authorizationSent: UnsafePointer<CChar>?, _ retry: UnsafeMutablePointer<Int32>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let authState = try borrow(state, as: ClientAuthState.self, "state").value
        try readResourceAnswer(url, httpStatus, wwwAuthenticate, dpopNonce, authorizationSent, retry) {
            authState.resourceAnswered(url: $0, status: $1, wwwAuthenticate: $2, dpopNonce: $3, authorizationSent: $4)
        }
    }
}

/// The arguments of a `..._resource_answered` call converted, the holder's `answered` called with them (url,
/// status, WWW-Authenticate, DPoP-Nonce, the Authorization value sent), and its verdict written to `retry`.
func readResourceAnswer(
    _ url: UnsafePointer<CChar>?, _ httpStatus: Int32, _ wwwAuthenticate: UnsafePointer<CChar>?,
    _ dpopNonce: UnsafePointer<CChar>?, _ authorizationSent: UnsafePointer<CChar>?,
    _ retry: UnsafeMutablePointer<Int32>?,
    answered: (String, Int, String?, String?, SecretBytes) -> ResourceVerdict
) throws(TelenoridError) {
    let url = try inputString(url, "url")
    let status = try inputHTTPStatus(httpStatus)
    let challenges = try optionalInputString(wwwAuthenticate, "www_authenticate")
    let nonce = try optionalInputString(dpopNonce, "dpop_nonce")
    let sent = try inputSecret(authorizationSent, "authorization_sent")
    let out = try outPointer(retry)
    out.pointee = answered(url, status, challenges, nonce, sent) == .retry ? 1 : 0
}
