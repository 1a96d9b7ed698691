/// A JWT-secured authorization request (RFC 9101): the request's parameters as the claims of a JWS
/// signed with the client's private key, so the provider knows the request is the client's own and was
/// not changed on its way, whether the browser carries it or the client pushes it (RFC 9126).
enum RequestObject {
    /// Seconds from `nbf` to `exp`. FAPI 2.0 Message Signing has providers refuse more than 60 minutes;
    /// five cover a push or the browser's redirect and leave a captured object little time to be replayed.
    static let lifetime: Int64 = 300

    /// The JWT claims of a request object (RFC 9101 §4, RFC 7519 §4.1), which no authorization parameter
    /// may overwrite.
    static let jwtClaims: Set<String> = ["iss", "aud", "iat", "nbf", "exp", "jti"]

    /// The compact JWS of every parameter in `parameters` (`AuthorizationRequest.parameters`), from
    /// `clientID` for the provider named by `audience`, its issuer identifier (RFC 9101 §4; FAPI 2.0
    /// Message Signing requires it).
    static func sign(_ parameters: FormParameters, clientID: String, audience: String, key: ClientKey,
                     now: Int64) throws(TelenoridError) -> String {
        var header = JSONObject()
        header.set("alg", .string(key.algorithm))
        // RFC 9101 §10.8: the explicit type keeps the object from being taken for another kind of JWT.
        header.set("typ", .string("oauth-authz-req+jwt"))
        if let keyID = key.keyID { header.set("kid", .string(keyID)) }

        var claims = JSONObject()
        for pair in parameters.pairs {
            guard !jwtClaims.contains(pair.name) else {
                throw TelenoridError(.parameterConflict, "\"\(pair.name)\" is a claim of the request object (RFC 9101 §4), not an authorization parameter")
            }
            claims.set(pair.name, try claim(pair))
        }
        claims.set("iss", .string(clientID))
        claims.set("aud", .string(audience))
        claims.set("iat", .number(JSONNumber(now)))
        claims.set("nbf", .number(JSONNumber(now)))
        claims.set("exp", .number(JSONNumber(now &+ lifetime)))
        claims.set("jti", .string(try Crypto.withRandomBytes(16) { Base64URL.encode($0) }))

        let input = JWS.signingInput(header: header, payload: Array(JSON.serialize(.object(claims)).utf8))
        return input + "." + Base64URL.encode(try key.signature(over: input))
    }

    /// A parameter as its claim: a string, except the two OIDC Core §6.1 gives JSON types to, `claims`
    /// (the object it encodes) and `max_age` (a number).
    private static func claim(_ pair: FormParameters.Pair) throws(TelenoridError) -> JSONValue {
        switch pair.name {
        case "claims":
            guard let object = (try? JSON.parse(Array(pair.value.utf8)))?.objectValue else {
                throw TelenoridError(.invalidArgument, "the claims parameter is not a JSON object")
            }
            return .object(object)
        case "max_age":
            guard let seconds = Int64(pair.value) else {
                throw TelenoridError(.invalidArgument, "max_age is not a number of seconds")
            }
            return .number(JSONNumber(seconds))
        default:
            return .string(pair.value)
        }
    }
}
