import CTelenorid
import TelenoridCore

// DPoP (RFC 9449): the host's own signer, and the headers for the host's own API calls.

private struct HostSigner: @unchecked Sendable {
    // The host promised, by registering it, that the callback may run on any thread with this pointer.
    let function: telenorid_sign_callback
    let userData: UnsafeMutableRawPointer?

    /// Room for any signature the JWS algorithms make: RSA up to 8192 bits is 1024 bytes.
    static let capacity = 1024

    func sign(_ input: [UInt8]) throws(TelenoridError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: HostSigner.capacity)
        var length = HostSigner.capacity
        let result = input.withUnsafeBufferPointer { inputBytes in
            signature.withUnsafeMutableBufferPointer { out in
                function(userData, inputBytes.baseAddress, inputBytes.count, out.baseAddress, &length)
            }
        }
        guard result == 0 else { throw TelenoridError(.invalidArgument, "the host's DPoP signer failed (\(result))") }
        guard length <= HostSigner.capacity else {
            throw TelenoridError(.invalidArgument, "the host's DPoP signer wrote \(length) bytes into \(HostSigner.capacity)")
        }
        return Array(signature[0..<length])
    }
}

@c @implementation
public func telenorid_client_set_dpop_signer(_ client: OpaquePointer?, _ algorithm: UnsafePointer<CChar>?,
                                             _ publicJWK: UnsafePointer<CChar>?, _ callback: telenorid_sign_callback?,
                                             _ userData: UnsafeMutableRawPointer?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(client, as: ClientHandle.self, "client")
        guard let callback else {
            handle.client.setDPoPSigner(nil)
            return
        }
        let algorithm = try inputString(algorithm, "algorithm")
        let jwkText = try inputString(publicJWK, "public_jwk")
        guard let jwk = (try? JSON.parse(jwkText))?.objectValue else {
            throw TelenoridError(.invalidArgument, "public_jwk is not a JSON object")
        }
        let host = HostSigner(function: callback, userData: userData)
        handle.client.setDPoPSigner(try HostKeySigner(algorithm: algorithm, publicJWK: jwk) { input throws(TelenoridError) in
            try host.sign(input)
        })
    }
}

@c @implementation
public func telenorid_auth_state_request_headers(_ state: OpaquePointer?, _ method: UnsafePointer<CChar>?,
                                                 _ url: UnsafePointer<CChar>?, _ resourceNonce: UnsafePointer<CChar>?,
                                                 _ authorization: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                                 _ dpop: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(state, as: AuthStateHandle.self, "state")
        let method = try inputString(method, "method")
        let url = try inputString(url, "url")
        let nonce = try optionalInputString(resourceNonce, "resource_nonce")
        let authorizationOut = try outPointer(authorization)
        let dpopOut = try outPointer(dpop)
        let headers = try handle.session.requestHeaders(method: method, url: url, resourceNonce: nonce)
        try writeString(headers.dpop, to: dpopOut)
        do throws(TelenoridError) { try writeSecret(headers.authorization, to: authorizationOut) } catch {
            telenorid_string_free(dpopOut.pointee)
            dpopOut.pointee = nil
            throw error
        }
    }
}
