import CTelenorid
import TelenoridCore

// Resource servers: token introspection (RFC 7662) and JWT access tokens (RFC 9068), and what they learnt.

@c @implementation
public func telenorid_resource_server_new(
    _ client: OpaquePointer?, _ audience: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let client = try borrow(client, as: OIDCClient.self, "client").value
        let audience = try inputString(audience, "audience")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ResourceServer(client: client, audience: audience))
    }
}

@c @implementation
public func telenorid_resource_server_set(
    _ server: OpaquePointer?, _ option: telenorid_resource_server_option, _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        let which: ResourceServer.Option
        switch option {
        case TELENORID_RESOURCE_SERVER_INTROSPECTION_CACHE_MAX_AGE_S: which = .introspectionCacheMaxAge
        case TELENORID_RESOURCE_SERVER_ACCESS_TOKEN_SIGNING_ALGS: which = .accessTokenAlgorithms
        case TELENORID_RESOURCE_SERVER_ACCEPT_TYP_JWT: which = .acceptTypJWT
        case TELENORID_RESOURCE_SERVER_DPOP_SIGNING_ALGS: which = .dpopAlgorithms
        case TELENORID_RESOURCE_SERVER_DPOP_REQUIRE_NONCE: which = .dpopRequireNonce
        default: throw TelenoridError(.invalidArgument, "unknown resource server option \(option)")
        }
        try server.set(which, try optionalInputString(value, "value"))
    }
}

@c @implementation
public func telenorid_resource_server_introspect(
    _ server: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ hint: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        let token = try inputSecret(token, "token")
        let hint = try optionalInputString(hint, "token_type_hint")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try server.introspect(token, hint: hint))
    }
}

@c @implementation
public func telenorid_resource_server_verify_access_token(
    _ server: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        let token = try inputSecret(token, "token")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try server.verifyAccessToken(token))
    }
}

// DPoP proofs at a resource server (RFC 9449 §4.3, §7.1).

@c @implementation
public func telenorid_dpop_replay_cache_new(
    _ window: Int64, _ capacity: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let out = try outPointer(out)
        out.pointee = retainedHandle(try DPoPReplayCache(window: window, capacity: Int(capacity)))
    }
}

@c @implementation
public func telenorid_dpop_replay_cache_free(_ cache: OpaquePointer?) {
    release(cache)
}

@c @implementation
public func telenorid_resource_server_set_dpop_replay_cache(_ server: OpaquePointer?, _ cache: OpaquePointer?)
    -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        server.useDPoPReplayCache(try borrow(cache, as: DPoPReplayCache.self, "cache").value)
    }
}

@c @implementation
public func telenorid_resource_server_dpop_nonce(
    _ server: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        try writeString(try server.dpopNonce(), to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_resource_server_verify_dpop(
    _ server: OpaquePointer?, _ proof: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ url: UnsafePointer<CChar>?, _ accessToken: UnsafePointer<CChar>?, _ jkt: UnsafePointer<CChar>?,
    _ info: OpaquePointer?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let server = try borrow(server, as: ResourceServer.self, "server").value
        let proof = try inputString(proof, "proof")
        let method = try inputString(method, "method")
        let url = try inputString(url, "url")
        let token = try inputSecret(accessToken, "access_token")
        if let jkt = try optionalInputString(jkt, "jkt") {
            try server.verifyDPoPProof(proof, method: method, url: url, accessToken: token, jkt: jkt)
        } else {
            guard info != nil else { throw TelenoridError(.invalidArgument, "neither jkt nor info is given") }
            let info = try borrow(info, as: TokenInfo.self, "info").value
            try server.verifyDPoPProof(proof, method: method, url: url, accessToken: token, tokenInfo: info)
        }
    }
}

@c @implementation
public func telenorid_resource_server_free(_ server: OpaquePointer?) {
    release(server)
}

@c @implementation
public func telenorid_token_info_active(_ info: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> telenorid_status
{
    exportCall { () throws(TelenoridError) in
        let info = try borrow(info, as: TokenInfo.self, "info").value
        try outPointer(out).pointee = info.active ? 1 : 0
    }
}

@c @implementation
public func telenorid_token_info_get(
    _ info: OpaquePointer?, _ field: telenorid_token_info_field,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let info = try borrow(info, as: TokenInfo.self, "info").value
        let out = try outPointer(out)
        let value: String?
        switch field {
        case TELENORID_INFO_SCOPE: value = info.string("scope")
        case TELENORID_INFO_CLIENT_ID: value = info.string("client_id")
        case TELENORID_INFO_USERNAME: value = info.string("username")
        case TELENORID_INFO_TOKEN_TYPE: value = info.string("token_type")
        case TELENORID_INFO_SUB: value = info.string("sub")
        case TELENORID_INFO_AUD: value = info.claims["aud"] == nil ? nil : info.audiences.joined(separator: " ")
        case TELENORID_INFO_ISS: value = info.string("iss")
        case TELENORID_INFO_JTI: value = info.string("jti")
        case TELENORID_INFO_CNF_JKT: value = info.confirmationKeyThumbprint
        default: throw TelenoridError(.invalidArgument, "\(field) is no string field of a token info")
        }
        try writeString(value, to: out)
    }
}

@c @implementation
public func telenorid_token_info_time(
    _ info: OpaquePointer?, _ field: telenorid_token_info_field, _ out: UnsafeMutablePointer<Int64>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let info = try borrow(info, as: TokenInfo.self, "info").value
        let out = try outPointer(out)
        let name: String
        switch field {
        case TELENORID_INFO_EXP: name = "exp"
        case TELENORID_INFO_IAT: name = "iat"
        case TELENORID_INFO_NBF: name = "nbf"
        default: throw TelenoridError(.invalidArgument, "\(field) is no time field of a token info")
        }
        out.pointee = info.seconds(name) ?? 0
    }
}

@c @implementation
public func telenorid_token_info_member(
    _ info: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let info = try borrow(info, as: TokenInfo.self, "info").value
        let name = try inputString(name, "name")
        try writeString(info.memberJSON(name), to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_token_info_json(
    _ info: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let info = try borrow(info, as: TokenInfo.self, "info").value
        try writeString(info.json, to: try outPointer(out))
    }
}

@c @implementation
public func telenorid_token_info_free(_ info: OpaquePointer?) {
    release(info)
}
