/// How saved documents (the auth state, a pending authorization) record the DPoP key their tokens or code
/// are bound to: a key the library made goes in whole, as its own versioned document under `dpop_key`; a
/// key the host holds goes by its thumbprint under `dpop_jkt`, and only the client can supply its signer.
enum SavedDPoPBinding {
    static func save(_ signer: DPoPSigner?, into object: inout JSONObject) {
        switch signer {
        case .key(let key)?:
            // A key that can't be written is left out: the next request for the tokens then fails at the
            // provider, with its own error, rather than the save.
            if let document = try? JSON.parse(key.serialized().bytes) { object.set("dpop_key", document) }
        case .external(let signer)?: object.set("dpop_jkt", .string(signer.thumbprint))
        case nil: break
        }
    }

    /// The library's key, restored, or the thumbprint of the host's key, from a saved document.
    static func restore(from object: JSONObject, _ what: String) throws(TelenoridError) -> (key: DPoPSigner?, hostKeyThumbprint: String?) {
        var thumbprint: String?
        if let value = object["dpop_jkt"] {
            guard let text = value.stringValue else { throw TelenoridError(.malformed, "\(what)'s dpop_jkt is not a string") }
            thumbprint = text
        }
        guard let document = object["dpop_key"] else { return (nil, thumbprint) }
        return (.key(try DPoPKey(restoring: Array(JSON.serialize(document).utf8))), thumbprint)
    }
}

extension OIDCClient {
    /// The host's signer for a saved binding to its key: it must be set, and be that key (RFC 7638 thumbprint).
    func hostSigner(forThumbprint thumbprint: String, _ what: String) throws(TelenoridError) -> DPoPSigner {
        guard let signer = hostSigner, signer.thumbprint == thumbprint else {
            throw TelenoridError(.configuration, "\(what) is bound to a DPoP key the host holds (thumbprint \(thumbprint)); "
                                 + "set that signer on the client first")
        }
        return .external(signer)
    }
}
