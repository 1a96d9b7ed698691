/// The auth state as versioned JSON, for the host to keep in secure storage (Android Keystore-backed
/// storage, the iOS Keychain): it holds the refresh token.
extension AuthState {
    public static let formatVersion: Int64 = 1

    /// The state's members that are secrets, read by the parser straight into wiping storage.
    static let secretMembers: Set<String> = ["access_token", "refresh_token", "device_secret"]

    /// The document, in wiping storage: the tokens and the DPoP private key are written into it as bytes,
    /// never through a String, so freeing it leaves no copy of them behind.
    public func serialized() -> SecretBytes { serialized(refreshStartedAt: nil) }

    /// The document as a bound store keeps it: `refreshStartedAt` (Unix seconds) is the rotation journal's
    /// marker, written before a refresh request leaves and gone once its answer is stored (`AuthState`'s
    /// "Rotation journal"). A machine's token (`ClientCredentials`) is kept as an auth state without a
    /// refresh token, with `machineGrant`: what it was asked for with.
    func serialized(refreshStartedAt: Int64?, machineGrant: String? = nil) -> SecretBytes {
        var object = SecretJSONObjectWriter()
        object.set("version", .number(JSONNumber(AuthState.formatVersion)))
        if let issuer { object.set("issuer", .string(issuer)) }
        if let clientID { object.set("client_id", .string(clientID)) }
        if let tokens {
            object.setSecret("access_token", string: tokens.accessToken)
            object.set("token_type", .string(tokens.tokenType))
            if let expiry = tokens.accessTokenExpiresAt { object.set("expires_at", .number(JSONNumber(expiry))) }
            if let refresh = tokens.refreshToken { object.setSecret("refresh_token", string: refresh) }
            if let deviceSecret = tokens.deviceSecret { object.setSecret("device_secret", string: deviceSecret) }
            if let idToken = tokens.idToken { object.set("id_token", .string(idToken)) }
            if let scope = tokens.scope { object.set("scope", .string(scope)) }
            SavedDPoPBinding.save(tokens.dpopSigner, into: &object)
            if let details = tokens.authorizationDetails { object.set("authorization_details", details.value) }
            if !tokens.resources.isEmpty { object.set("resources", .array(tokens.resources.map { .string($0) })) }
        } else if let reason = lostReason {
            object.set("signed_out_reason", .string(reason.oauthError ?? reason.message))
        }
        if let refreshStartedAt { object.set(AuthState.refreshMarkerMember, .number(JSONNumber(refreshStartedAt))) }
        if let machineGrant { object.set(AuthState.machineGrantMember, .string(machineGrant)) }
        return object.finished()
    }

    static let refreshMarkerMember = "refresh_started_at"
    static let machineGrantMember = "machine_grant"

    /// The `machine_grant` of a serialized state, nil when it has none; the tokens are read into wiping
    /// storage and dropped.
    static func machineGrant(ofSerialized serialized: SecretBytes) throws(TelenoridError) -> String? {
        let document: JSONValue
        do {
            (document, _) = try JSON.parse(
                serialized.bytes, secretMembers: secretMembers, secretObjectMembers: [SavedDPoPBinding.keyMember])
        } catch {
            throw TelenoridError(.malformed, "auth state is not valid JSON: \(error.message)")
        }
        return document.objectValue?[machineGrantMember]?.stringValue
    }

    /// The tokens of a serialized state (nil for a signed-out one), whom they were saved for, the
    /// thumbprint of the host-held DPoP key they are bound to, which only the client can supply, and the
    /// rotation journal's marker, when a store holds one.
    /// The tokens and the DPoP key go from the document into wiping storage without a String between.
    public static func tokens(fromSerialized serialized: SecretBytes) throws(TelenoridError)
        -> (
            tokens: TokenSet?, issuer: String?, clientID: String?, hostKeyThumbprint: String?,
            refreshStartedAt: Int64?
        )
    {
        let document: JSONValue, secrets: [String: SecretBytes]
        do {
            (document, secrets) = try JSON.parse(
                serialized.bytes, secretMembers: secretMembers,
                secretObjectMembers: [SavedDPoPBinding.keyMember])
        } catch {
            throw TelenoridError(.malformed, "auth state is not valid JSON: \(error.message)")
        }
        guard let object = document.objectValue else {
            throw TelenoridError(.malformed, "auth state is not a JSON object")
        }
        guard let version = object["version"]?.int64Value else {
            throw TelenoridError(.malformed, "auth state has no version")
        }
        guard version == formatVersion else {
            throw TelenoridError(.version, "auth state format version \(version) is not \(formatVersion)")
        }
        func string(_ key: String) throws(TelenoridError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue else {
                throw TelenoridError(.malformed, "auth state's \"\(key)\" is not a string")
            }
            return text
        }
        func secret(_ key: String) throws(TelenoridError) -> SecretBytes? {
            // One that is not a string stays in the object.
            guard object[key] == nil else {
                throw TelenoridError(.malformed, "auth state's \"\(key)\" is not a string")
            }
            return secrets[key]
        }
        let issuer = try string("issuer"), clientID = try string("client_id")
        var refreshStartedAt: Int64? = nil
        if let value = object[refreshMarkerMember] {
            guard let seconds = value.int64Value else {
                throw TelenoridError(.malformed, "auth state's \(refreshMarkerMember) is not an integer")
            }
            refreshStartedAt = seconds
        }
        guard let access = try secret("access_token") else { return (nil, issuer, clientID, nil, refreshStartedAt) }
        guard let type = try string("token_type") else {
            throw TelenoridError(.malformed, "auth state lacks token_type")
        }
        var expiry: Int64? = nil
        if let value = object["expires_at"] {
            guard let seconds = value.int64Value else {
                throw TelenoridError(.malformed, "auth state's expires_at is not an integer")
            }
            expiry = seconds
        }
        // States serialized by 0.2 carry a copy of the claims; they are read from the ID token itself, so
        // this member is only checked for its type.
        if let value = object["id_token_claims"], value.objectValue == nil {
            throw TelenoridError(.malformed, "auth state's id_token_claims is not an object")
        }
        var tokens = TokenSet(
            accessToken: access, tokenType: type, accessTokenExpiresAt: expiry,
            refreshToken: try secret("refresh_token"),
            idToken: try string("id_token"), scope: try string("scope"))
        tokens.deviceSecret = try secret("device_secret")
        tokens.authorizationDetails = try object["authorization_details"].map {
            (value: JSONValue) throws(TelenoridError) in
            try AuthorizationDetails(value, kind: .malformed, what: "auth state's authorization_details")
        }
        if let value = object["resources"] {
            guard let list = value.arrayValue?.compactMap({ $0.stringValue }), list.count == value.arrayValue?.count
            else {
                throw TelenoridError(.malformed, "auth state's resources is not an array of strings")
            }
            tokens.resources = list
        }
        let binding = try SavedDPoPBinding.restore(from: object, key: secrets[SavedDPoPBinding.keyMember], "auth state")
        tokens.dpopSigner = binding.key
        let hostKeyThumbprint = binding.hostKeyThumbprint
        if tokens.isDPoPBound && tokens.dpopSigner == nil && hostKeyThumbprint == nil {
            throw TelenoridError(.malformed, "auth state holds a DPoP token without its DPoP key")
        }
        return (tokens, issuer, clientID, hostKeyThumbprint, refreshStartedAt)
    }

    /// The tokens of a serialized state, for a client of `issuer` and `clientID` that refreshes through
    /// `refresher`: what restoring a state and re-reading a bound store both check. A state saved for
    /// another provider or client would send its refresh token to the wrong place; tokens bound to a key the
    /// host holds go on only with that key (RFC 9449 §6: its thumbprint).
    @inline(never)
    static func restoredTokens(
        _ serialized: SecretBytes, issuer: String?, clientID: String?,
        refresher: any TokenRefresher
    ) throws(TelenoridError) -> TokenSet? {
        try restoredRecord(serialized, issuer: issuer, clientID: clientID, refresher: refresher).tokens
    }

    /// `restoredTokens`, with the rotation journal's marker of the stored record.
    static func restoredRecord(
        _ serialized: SecretBytes, issuer: String?, clientID: String?,
        refresher: any TokenRefresher
    ) throws(TelenoridError) -> (tokens: TokenSet?, refreshStartedAt: Int64?) {
        var saved = try tokens(fromSerialized: serialized)
        guard saved.issuer == nil || saved.issuer == issuer, saved.clientID == nil || saved.clientID == clientID else {
            throw TelenoridError(.configuration, "the auth state was saved for another issuer or client id")
        }
        if let thumbprint = saved.hostKeyThumbprint {
            saved.tokens?.dpopSigner = try refresher.hostKeySigner(forThumbprint: thumbprint)
        }
        return (saved.tokens, saved.refreshStartedAt)
    }
}
