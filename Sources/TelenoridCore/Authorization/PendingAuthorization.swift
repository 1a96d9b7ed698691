import Synchronization

/// An authorization request that went out and waits for its answer: the URL and the secrets the answer
/// is checked with. Immutable but for being consumed, once, by the first valid callback.
public final class PendingAuthorization: Sendable {
    public let configuration: ClientConfiguration
    /// The configuration's redirect URI, which the callback must arrive at.
    public let redirect: ClientConfiguration.Redirect
    public let url: String
    public let state: String
    public let nonce: String
    public let pkce: PKCE
    public let pkceMethod: PKCE.Method
    public let responseMode: String
    public let maxAge: String?
    public let appCallbackURI: String?
    /// The scope the request asked for, so a token response without `scope` can be read against it.
    public let requestedScope: String
    /// The resource indicators the request carried (RFC 8707 §2), for the token request to repeat.
    public let resources: [String]
    /// The authorization details asked for (RFC 9396 §2), to read the granted ones against.
    public let authorizationDetails: AuthorizationDetails?
    /// The authorization details the code exchange asks for (RFC 9396 §6.1); nil leaves them to the provider.
    public let tokenAuthorizationDetails: AuthorizationDetails?
    /// The values the ID token's acr must take when the claims request asked for acr as essential (OIDC
    /// Core §5.5.1.1): empty when any value will do, nil when acr was not essential.
    public let essentialACRValues: [String]?
    /// The DPoP key the request was made with (RFC 9449 §10: `dpop_jkt`, or the proof on the push), for
    /// the code exchange to prove possession of.
    public let dpopSigner: DPoPSigner?
    /// A restored request made with a key the host holds has only its thumbprint: the client supplies the signer.
    public let hostKeyThumbprint: String?
    private let consumed = Atomic<Bool>(false)

    init(
        configuration: ClientConfiguration, redirect: ClientConfiguration.Redirect, url: String, state: String,
        nonce: String, pkce: PKCE,
        pkceMethod: PKCE.Method, responseMode: String, maxAge: String?, appCallbackURI: String?,
        requestedScope: String, resources: [String], authorizationDetails: AuthorizationDetails?,
        tokenAuthorizationDetails: AuthorizationDetails?, essentialACRValues: [String]?, dpopSigner: DPoPSigner?,
        hostKeyThumbprint: String?
    ) {
        self.configuration = configuration
        self.redirect = redirect
        self.url = url
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.pkceMethod = pkceMethod
        self.responseMode = responseMode
        self.maxAge = maxAge
        self.appCallbackURI = appCallbackURI
        self.requestedScope = requestedScope
        self.resources = resources
        self.authorizationDetails = authorizationDetails
        self.tokenAuthorizationDetails = tokenAuthorizationDetails
        self.essentialACRValues = essentialACRValues
        self.dpopSigner = dpopSigner
        self.hostKeyThumbprint = hostKeyThumbprint
    }

    public var isConsumed: Bool { consumed.load(ordering: .acquiring) }

    /// Marks the request answered. Only one caller ever gets `true`, so two threads racing with the same
    /// redirect can't both go on to exchange the code.
    func consume() -> Bool {
        consumed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// A callback whose state is not this request's was not caused by it, so nothing it carries is
    /// passed on: an `error_description` in a forged callback must not reach the user as the provider's word.
    func checkState(_ received: String?) throws(TelenoridError) {
        guard let received, Crypto.constantTimeEquals(received.utf8, state.utf8) else {
            throw TelenoridError(
                .stateMismatch,
                received == nil ? "the callback carries no state" : "the callback's state is not this request's")
        }
    }

    // MARK: Serialization

    public static let formatVersion: Int64 = 1

    /// The members that are secrets, read by the parser straight into wiping storage.
    static let secretMembers: Set<String> = ["code_verifier"]

    /// Versioned JSON holding everything needed to check the callback later, in wiping storage: the PKCE
    /// verifier and the DPoP private key are written into it as bytes, never through a String, so freeing
    /// it leaves no copy of them behind.
    public func serialized() -> SecretBytes {
        var object = SecretJSONObjectWriter()
        object.set("version", .number(JSONNumber(PendingAuthorization.formatVersion)))
        if let issuer = configuration.settings[.issuer] { object.set("issuer", .string(issuer)) }
        object.set("client_id", .string(configuration.clientID))
        object.set("redirect_uri", .string(redirect.string))
        object.set("url", .string(url))
        object.set("state", .string(state))
        object.set("nonce", .string(nonce))
        object.setSecret("code_verifier", string: pkce.verifier)
        object.set("code_challenge_method", .string(pkceMethod.name))
        object.set("response_mode", .string(responseMode))
        if let maxAge { object.set("max_age", .string(maxAge)) }
        if let appCallbackURI { object.set("app_callback_uri", .string(appCallbackURI)) }
        object.set("scope", .string(requestedScope))
        // Optional members, so documents written before they existed restore under the same version.
        if !resources.isEmpty { object.set("resources", .array(resources.map { .string($0) })) }
        if let authorizationDetails { object.set("authorization_details", authorizationDetails.value) }
        if let tokenAuthorizationDetails { object.set("token_authorization_details", tokenAuthorizationDetails.value) }
        if let essentialACRValues { object.set("essential_acr_values", .array(essentialACRValues.map { .string($0) })) }
        SavedDPoPBinding.save(dpopSigner, into: &object)
        if let hostKeyThumbprint { object.set("dpop_jkt", .string(hostKeyThumbprint)) }
        return object.finished()
    }

    /// A request from `serialized()`'s output. The verifier and the DPoP key go from the document into
    /// wiping storage without a String between.
    public convenience init(restoring serialized: SecretBytes, configuration: ClientConfiguration)
        throws(TelenoridError)
    {
        let document: JSONValue, secrets: [String: SecretBytes]
        do {
            (document, secrets) = try JSON.parse(
                serialized.bytes, secretMembers: PendingAuthorization.secretMembers,
                secretObjectMembers: [SavedDPoPBinding.keyMember])
        } catch {
            throw TelenoridError(.malformed, "pending authorization is not valid JSON: \(error.message)")
        }
        guard let object = document.objectValue else {
            throw TelenoridError(.malformed, "pending authorization must be a JSON object")
        }
        guard let version = object["version"]?.int64Value else {
            throw TelenoridError(.malformed, "pending authorization has no version")
        }
        guard version == PendingAuthorization.formatVersion else {
            throw TelenoridError(
                .version, "pending authorization format version \(version) is not \(PendingAuthorization.formatVersion)"
            )
        }
        func string(_ key: String) throws(TelenoridError) -> String {
            guard let value = object[key]?.stringValue else {
                throw TelenoridError(.malformed, "pending authorization lacks \"\(key)\"")
            }
            return value
        }
        func optional(_ key: String) throws(TelenoridError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.malformed, "pending authorization's \"\(key)\" is not a string")
            }
            return text
        }
        func strings(_ key: String) throws(TelenoridError) -> [String]? {
            guard let value = object[key] else { return nil }
            guard let strings = value.stringArrayValue else {
                throw TelenoridError(.malformed, "pending authorization's \"\(key)\" is not an array of strings")
            }
            return strings
        }
        // The issuer too, as an auth state's restore checks it: a request restored under another provider
        // would refuse its own provider's RFC 9207 `iss`. Documents written before it was recorded have none.
        let redirect = try configuration.requiredRedirect()
        guard try string("client_id") == configuration.clientID,
            try string("redirect_uri") == redirect.string,
            try optional("issuer").map({ $0 == configuration.settings[.issuer] }) ?? true
        else {
            throw TelenoridError(
                .configuration, "pending authorization was made for another issuer, client id or redirect URI")
        }
        let method: PKCE.Method
        switch try string("code_challenge_method") {
        case "S256": method = .s256
        case "plain" where configuration.allowPlainPKCE: method = .plain
        default:
            throw TelenoridError(.unsupported, "pending authorization uses a PKCE method this configuration refuses")
        }
        let responseMode = try string("response_mode")
        guard responseMode == "query" || responseMode == "fragment" else {
            throw TelenoridError(.malformed, "pending authorization has an unknown response_mode")
        }
        let state = try string("state"), nonce = try string("nonce")
        guard !state.isEmpty, !nonce.isEmpty else {
            throw TelenoridError(.malformed, "pending authorization has an empty state or nonce")
        }
        let details = try object["authorization_details"].map { (value: JSONValue) throws(TelenoridError) in
            try AuthorizationDetails(value, kind: .malformed, what: "pending authorization's authorization_details")
        }
        let tokenDetails = try object["token_authorization_details"].map { (value: JSONValue) throws(TelenoridError) in
            try AuthorizationDetails(
                value, kind: .malformed, what: "pending authorization's token_authorization_details")
        }
        // A verifier that is not a string stays in the object.
        guard object["code_verifier"] == nil, let verifier = secrets["code_verifier"] else {
            throw TelenoridError(.malformed, "pending authorization lacks a string \"code_verifier\"")
        }
        let binding = try SavedDPoPBinding.restore(
            from: object, key: secrets[SavedDPoPBinding.keyMember],
            "pending authorization")
        self.init(
            configuration: configuration, redirect: redirect, url: try string("url"), state: state, nonce: nonce,
            pkce: try PKCE(verifier: verifier), pkceMethod: method,
            responseMode: responseMode, maxAge: try optional("max_age"),
            appCallbackURI: try optional("app_callback_uri"),
            requestedScope: try optional("scope") ?? configuration.scope,
            resources: try strings("resources") ?? [], authorizationDetails: details,
            tokenAuthorizationDetails: tokenDetails,
            essentialACRValues: try strings("essential_acr_values"),
            dpopSigner: binding.key, hostKeyThumbprint: binding.hostKeyThumbprint)
    }
}
