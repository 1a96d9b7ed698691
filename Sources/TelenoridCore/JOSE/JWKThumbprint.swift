/// JWK thumbprints (RFC 7638).
enum JWKThumbprint {
    /// RFC 7638 §3.2: only the required members of the key type (EC crv/kty/x/y, RSA e/kty/n, OKP
    /// crv/kty/x per RFC 8037 §2), in lexicographic order, so that any two JWKs of one key agree.
    static func requiredMembers(of jwk: JSONObject) throws(TelenoridError) -> JSONObject {
        let names: [String]
        switch jwk["kty"]?.stringValue {
        case "EC": names = ["crv", "kty", "x", "y"]
        case "RSA": names = ["e", "kty", "n"]
        case "OKP": names = ["crv", "kty", "x"]
        case let other:
            throw TelenoridError(.unsupported, "no thumbprint for key type \(DisplayText.escaping(other ?? "none"))")
        }
        var required = JSONObject()
        for name in names {
            guard let value = jwk[name]?.stringValue else {
                throw TelenoridError(.invalidArgument, "JWK lacks its \(name) member")
            }
            required.set(name, .string(value))
        }
        return required
    }

    /// RFC 7638 §3.1: base64url of the SHA-256 of the required members serialized without whitespace.
    static func sha256(of jwk: JSONObject) throws(TelenoridError) -> String {
        Base64URL.encode(Crypto.sha256(JSON.serialize(.object(try requiredMembers(of: jwk))).utf8))
    }
}
