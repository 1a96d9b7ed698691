/// How saved documents (the auth state, a pending authorization) record the DPoP key their tokens or code
/// are bound to: a key the library made goes in whole, as its own versioned document under `dpop_key`; a
/// key the host holds goes by its thumbprint under `dpop_jkt`, and only the client can supply its signer.
enum SavedDPoPBinding {
    static let keyMember = "dpop_key"

    /// Records `signer` in a document in wiping storage: the key's own document goes in as the bytes
    /// `DPoPKey.serialized()` wrote (compact JSON, as `JSON.serialize` would write it), so its private
    /// members never become Strings.
    static func save(_ signer: DPoPSigner?, into object: inout SecretJSONObjectWriter) {
        switch signer {
        case .key(let key)?:
            // A key that can't be written is left out: the next request for the tokens or the code then
            // fails at the provider, with its own error, rather than the save.
            if let document = try? key.serialized() { object.setSecret(keyMember, json: document) }
        case .hostKeySigner(let signer)?: object.set("dpop_jkt", .string(signer.thumbprint))
        case nil: break
        }
    }

    /// The library's key, restored, or the thumbprint of the host's key, from a saved document. `key` is the
    /// key's document, which the parser kept out of `object` (`JSON.parse`'s `secretObjectMembers`).
    static func restore(
        from object: JSONObject, key: SecretBytes?,
        _ what: String
    ) throws(TelenoridError) -> (key: DPoPSigner?, hostKeyThumbprint: String?) {
        var thumbprint: String?
        if let value = object["dpop_jkt"] {
            guard let text = value.stringValue else {
                throw TelenoridError(.malformed, "\(what)'s dpop_jkt is not a string")
            }
            thumbprint = text
        }
        // One that is not an object stays in `object`.
        guard object[keyMember] == nil else {
            throw TelenoridError(.malformed, "\(what)'s \(keyMember) is not an object")
        }
        guard let key else { return (nil, thumbprint) }
        return (.key(try DPoPKey(restoring: key)), thumbprint)
    }
}
