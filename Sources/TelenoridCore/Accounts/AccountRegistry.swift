/// The accounts signed in through one client, kept in a store: the registry is the record "<name>.accounts"
/// and each account's auth state the record "<name>.<id>", bound to it as `AuthState.bind(to:)` binds.
///
/// An account is a user at an issuer, named by the ID token's `iss` and `sub` (OIDC Core §2: the pair is
/// the only stable identifier of an end-user), so the same user signing in again replaces their account.
/// Each registry entry is a JSON object: `id`, `issuer`, `subject`, the display claims the ID token carried
/// (`name`, `preferred_username`, `email`, OIDC Core §5.1) and `last_used` (Unix seconds); the registry
/// lists them most recently used first. Every read-modify-write of the registry holds its record's
/// exclusive lock, so processes adding at once lose nothing.
public final class AccountRegistry: Sendable {
    public static let maximumAccounts = 100
    /// The registry holds no tokens, only names: a few hundred bytes an account.
    public static let maximumBytes = 64 * 1024
    static let displayClaims = ["name", "preferred_username", "email"]
    /// A display claim longer than this is left out rather than filling the registry.
    static let maximumClaimBytes = 256
    /// "." and the 12 characters of an id after the name make an account's record key.
    static let maximumNameBytes = 128 - 13

    public let client: OIDCClient
    let store: RecordStore
    let name: String
    let registry: any AuthStateStore

    /// The registry `name` of `store`, read now so that a record that is not one fails here.
    public init(client: OIDCClient, store: RecordStore, name: String) throws(TelenoridError) {
        try RecordStore.checkKey(name)
        guard name.utf8.count <= AccountRegistry.maximumNameBytes else {
            throw TelenoridError(
                .invalidArgument, "an accounts name is at most \(AccountRegistry.maximumNameBytes) characters")
        }
        self.client = client
        self.store = store
        self.name = name
        registry = try store.authStateStore(key: name + ".accounts", lockTimeoutMilliseconds: client.lockTimeout)
        _ = try accounts()
    }

    /// The account id of a user: base64url of the first 9 bytes of SHA-256 over the issuer, a NUL and
    /// the subject; short, stable, and made only of characters a record key takes.
    public static func id(issuer: String, subject: String) -> String {
        Base64URL.encode(Array(Crypto.sha256(Array(issuer.utf8) + [0] + Array(subject.utf8)).prefix(9)))
    }

    /// The entries, most recently used first.
    public func accounts() throws(TelenoridError) -> [JSONObject] {
        guard let data = try registry.load() else { return [] }
        return try AccountRegistry.entries(data.bytes)
    }

    /// The registry's entries from its record, which any process sharing the store may have written:
    /// parsed with tight limits, each entry checked, its id recomputed.
    public static func entries(_ bytes: [UInt8]) throws(TelenoridError) -> [JSONObject] {
        let document: JSONValue
        do {
            document = try JSON.parse(
                bytes, limits: JSONLimits(maxDepth: 3, maxBytes: maximumBytes, maxStringBytes: 4096))
        } catch {
            throw TelenoridError(.malformed, "the account registry is not valid JSON: \(error.message)")
        }
        guard document["version"]?.int64Value == 1, let list = document["accounts"]?.arrayValue,
            list.count <= maximumAccounts
        else {
            throw TelenoridError(
                .malformed, "the account registry is not a version 1 list of at most \(maximumAccounts) accounts")
        }
        var entries: [JSONObject] = []
        for value in list {
            guard let entry = value.objectValue, let issuer = entry["issuer"]?.stringValue,
                let subject = entry["subject"]?.stringValue, let id = entry["id"]?.stringValue,
                id == AccountRegistry.id(issuer: issuer, subject: subject), entry["last_used"]?.int64Value != nil,
                displayClaims.allSatisfy({ entry[$0].map { $0.stringValue != nil } ?? true }),
                index(of: id, in: entries) == nil
            else {
                throw TelenoridError(.malformed, "the account registry holds an entry that is not an account")
            }
            entries.append(entry)
        }
        return entries
    }

    /// Binds the signed-in `session`'s state to its account's record and puts the account first,
    /// replacing the same user's earlier account. Gives the account id.
    public func add(_ session: ClientAuthState) throws(TelenoridError) -> String {
        let state = session.state
        guard let tokens = state.tokens else { throw TelenoridError(.notSignedIn, "the auth state is not signed in") }
        guard let claims = tokens.idTokenClaims, let issuer = claims["iss"]?.stringValue,
            let subject = claims["sub"]?.stringValue
        else {
            throw TelenoridError(.invalidArgument, "the auth state has no ID token, whose iss and sub name an account")
        }
        guard state.issuer == client.configuration.settings[.issuer], state.clientID == client.configuration.clientID
        else {
            throw TelenoridError(.invalidArgument, "the auth state is of another issuer or client than the registry's")
        }
        let id = AccountRegistry.id(issuer: issuer, subject: subject)
        var entry = JSONObject()
        entry.set("id", .string(id))
        entry.set("issuer", .string(issuer))
        entry.set("subject", .string(subject))
        for claim in AccountRegistry.displayClaims {
            if let value = claims[claim]?.stringValue, value.utf8.count <= AccountRegistry.maximumClaimBytes {
                entry.set(claim, .string(value))
            }
        }
        entry.set("last_used", .number(JSONNumber(client.clock())))
        // Bound first: an entry is never listed before its record holds the sign-in.
        try state.bind(to: try accountRecord(id))
        try update { (entries: inout [JSONObject]) throws(TelenoridError) in
            if let index = AccountRegistry.index(of: id, in: entries) { entries.remove(at: index) }
            guard entries.count < AccountRegistry.maximumAccounts else {
                throw TelenoridError(
                    .invalidArgument, "the registry holds \(AccountRegistry.maximumAccounts) accounts already")
            }
            entries.insert(entry, at: 0)
        }
        return id
    }

    /// The account's auth state, opened from its record and bound to it; the account moves first.
    public func select(_ id: String) throws(TelenoridError) -> ClientAuthState {
        try update { (entries: inout [JSONObject]) throws(TelenoridError) in
            guard let index = AccountRegistry.index(of: id, in: entries) else { throw unknown(id) }
            var entry = entries.remove(at: index)
            entry.set("last_used", .number(JSONNumber(client.clock())))
            entries.insert(entry, at: 0)
        }
        return ClientAuthState(state: try client.openAuthState(try accountRecord(id)), client: client)
    }

    /// Revokes the account's grant at the provider (RFC 7009) and drops the account. Its record is left
    /// signed out (a store has no delete). A revocation that fails, or a record that can't be opened,
    /// still drops the account and is then thrown, as `AuthState.revoke()` stays signed out.
    public func remove(_ id: String) throws(TelenoridError) {
        guard AccountRegistry.index(of: id, in: try accounts()) != nil else { throw unknown(id) }
        var failure: TelenoridError? = nil
        do throws(TelenoridError) {
            try client.openAuthState(try accountRecord(id)).revoke()
        } catch {
            // An account already signed out has nothing to revoke.
            if error.kind != .notSignedIn { failure = error }
        }
        try update { (entries: inout [JSONObject]) throws(TelenoridError) in
            if let index = AccountRegistry.index(of: id, in: entries) { entries.remove(at: index) }
        }
        if let failure { throw failure }
    }

    func update(_ change: (inout [JSONObject]) throws(TelenoridError) -> Void) throws(TelenoridError) {
        try registry.withExclusiveAccess { () throws(TelenoridError) in
            var entries = try accounts()
            try change(&entries)
            try save(entries)
        }
    }

    /// Writes `entries` as the registry; the caller holds the registry's exclusive lock.
    func save(_ entries: [JSONObject]) throws(TelenoridError) {
        var document = JSONObject()
        document.set("version", .number(JSONNumber(1)))
        document.set("accounts", .array(entries.map { .object($0) }))
        let bytes = Array(JSON.serialize(.object(document)).utf8)
        guard bytes.count <= AccountRegistry.maximumBytes else {
            throw TelenoridError(
                .invalidArgument, "the registry would grow over \(AccountRegistry.maximumBytes) bytes")
        }
        try registry.save(SecretBytes(bytes))
    }

    static func index(of id: String, in entries: [JSONObject]) -> Int? {
        entries.firstIndex { $0["id"]?.stringValue == id }
    }

    func accountRecord(_ id: String) throws(TelenoridError) -> any AuthStateStore {
        try store.authStateStore(key: name + "." + id, lockTimeoutMilliseconds: client.lockTimeout)
    }

    private func unknown(_ id: String) -> TelenoridError {
        TelenoridError(.notSignedIn, "no account \"\(DisplayText.escaping(id))\" in the registry \"\(name)\"")
    }
}

extension OIDCClient {
    /// A store lock is waited for as long as one request of the refresh that holds it may take.
    var lockTimeout: Int { configuration.http.totalTimeoutMilliseconds }
}
