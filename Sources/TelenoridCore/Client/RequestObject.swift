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
    static func sign(
        _ parameters: FormParameters, clientID: String, audience: String, key: ClientKey,
        now: Int64
    ) throws(TelenoridError) -> String {
        var header = JSONObject()
        header.set("alg", .string(key.algorithm))
        // RFC 9101 §10.8: the explicit type keeps the object from being taken for another kind of JWT.
        header.set("typ", .string("oauth-authz-req+jwt"))
        if let keyID = key.keyID { header.set("kid", .string(keyID)) }

        var claims = JSONObject()
        for (name, values) in grouped(parameters) {
            guard !jwtClaims.contains(name) else {
                throw TelenoridError(
                    .parameterConflict,
                    "\"\(name)\" is a claim of the request object (RFC 9101 §4), not an authorization parameter")
            }
            // A parameter the request repeats (RFC 8707 §2's `resource`) is one claim holding every value.
            claims.set(name, values.count == 1 ? try claim(name, values[0]) : .array(values.map { .string($0) }))
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

    /// The parameters by name, in the order each name first appears, with every value of a repeated one.
    private static func grouped(_ parameters: FormParameters) -> [(name: String, values: [String])] {
        var groups: [(name: String, values: [String])] = []
        var index: [String: Int] = [:]
        for pair in parameters.pairs {
            if let at = index[pair.name] {
                groups[at].values.append(pair.value)
            } else {
                index[pair.name] = groups.count
                groups.append((pair.name, [pair.value]))
            }
        }
        return groups
    }

    /// A parameter as its claim: a string, except those whose value is JSON text — `claims` (OIDC Core
    /// §6.1: the object it encodes) and `authorization_details` (RFC 9396 §2: the array) — and `max_age`
    /// (OIDC Core §6.1: a number).
    private static func claim(_ name: String, _ value: String) throws(TelenoridError) -> JSONValue {
        switch name {
        case "claims":
            guard let object = (try? JSON.parse(Array(value.utf8)))?.objectValue else {
                throw TelenoridError(.invalidArgument, "the claims parameter is not a JSON object")
            }
            return .object(object)
        case "authorization_details":
            guard let details = try? JSON.parse(Array(value.utf8)), case .array = details else {
                throw TelenoridError(.invalidArgument, "the authorization_details parameter is not a JSON array")
            }
            return details
        case "max_age":
            guard let seconds = Int64(value) else {
                throw TelenoridError(.invalidArgument, "max_age is not a number of seconds")
            }
            return .number(JSONNumber(seconds))
        default:
            return .string(value)
        }
    }
}
