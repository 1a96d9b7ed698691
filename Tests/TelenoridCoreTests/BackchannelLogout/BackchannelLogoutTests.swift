import Foundation
import Synchronization
import XCTest

@testable import TelenoridCore

/// OpenID Connect Back-Channel Logout 1.0: logout tokens made here with the fixture RSA key (kid rsa-1),
/// which the KeyProvider publishes, validated as §2.6 lists (each rule refused once), and the local sign-out
/// of §2.7 on an auth state and on an account registry.
final class BackchannelLogoutTests: XCTestCase {
    private let time = TestClock()
    private let provider = KeyProvider()
    private var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("telenorid-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private var now: Int64 { time.now.load(ordering: .relaxed) }

    /// The §2.4 example's claims, issued now, with `changes` applied (nil removes a claim).
    private func claims(_ changes: [String: JSONValue?] = [:]) -> String {
        var events = JSONObject()
        events.set(BackchannelLogout.event, .object(JSONObject()))
        let defaults: [(String, JSONValue)] = [
            ("iss", .string(provider.issuer)), ("sub", .string("248289761001")), ("aud", .string("client")),
            ("iat", .number(JSONNumber(now))), ("exp", .number(JSONNumber(now + 120))),
            ("jti", .string("bWJq")), ("sid", .string("08a5019c-17e1-4977-8f42-65a12843ea02")),
            ("events", .object(events))
        ]
        var claims = JSONObject()
        for (name, value) in defaults where changes[name] == nil { claims.set(name, value) }
        for (name, value) in changes { if let value { claims.set(name, value) } }
        return JSON.serialize(.object(claims))
    }

    private func token(_ claims: String, typ: String? = "logout+jwt", alg: String? = nil, keyID: String = "rsa-1")
        throws -> String
    {
        let key = try PrivateKey(pem: JOSEFixtures.rsaPrivatePem)
        var header = JSONObject()
        header.set("alg", .string(alg ?? key.algorithm))
        header.set("kid", .string(keyID))
        if let typ { header.set("typ", .string(typ)) }
        let input = JWS.signingInput(header: header, payload: Array(claims.utf8))
        return input + "." + Base64URL.encode(try JWS.signature(over: input, key: key))
    }

    private func validator(_ extra: [ClientConfiguration.Setting: String] = [:]) throws -> BackchannelLogout {
        BackchannelLogout(client: try provider.client(time, extra))
    }

    private func assertRefused(
        _ token: String, _ message: String, by logout: BackchannelLogout? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let logout = try logout ?? validator()
        XCTAssertThrowsError(try logout.validate(token), file: file, line: line) {
            let error = $0 as? TelenoridError
            XCTAssertEqual(error?.kind, .tokenInvalid, "\($0)", file: file, line: line)
            XCTAssertTrue(
                error?.message.contains(message) == true, "\(error?.message ?? "") lacks \(message)", file: file,
                line: line)
        }
    }

    func testAValidLogoutTokenIsAcceptedOnceAndNamesItsSubjectAndSession() throws {
        let logout = try validator()
        let accepted = try logout.validate(try token(claims()))
        XCTAssertEqual(accepted.subject, "248289761001")
        XCTAssertEqual(accepted.sessionID, "08a5019c-17e1-4977-8f42-65a12843ea02")
        XCTAssertEqual(accepted.issuer, provider.issuer)
        XCTAssertEqual(accepted.tokenID, "bWJq")
        // §2.6 step 8: the same jti again is a replay, even in a token otherwise new.
        try assertRefused(try token(claims()), "was received before", by: logout)
        try assertRefused(try token(claims(["iat": .number(JSONNumber(now - 10))])), "was received before", by: logout)
        // Another jti is another token; typ may be absent, the media type, or the generic JWT; aud an array.
        _ = try logout.validate(try token(claims(["jti": .string("2")]), typ: nil))
        _ = try logout.validate(try token(claims(["jti": .string("3")]), typ: "application/LOGOUT+JWT"))
        _ = try logout.validate(try token(claims(["jti": .string("4")]), typ: "JWT"))
        _ = try logout.validate(
            try token(claims(["jti": .string("5"), "aud": .array([.string("other"), .string("client")])])))
        // sub alone, or sid alone, is enough (§2.6 step 5); a token without exp predates the final spec.
        XCTAssertNil(try logout.validate(try token(claims(["jti": .string("6"), "sub": nil]))).subject)
        XCTAssertNil(try logout.validate(try token(claims(["jti": .string("7"), "sid": nil]))).sessionID)
        _ = try logout.validate(try token(claims(["jti": .string("8"), "exp": nil])))
    }

    func testEachRuleOfSection2Point6IsRefusedSayingWhich() throws {
        try assertRefused("a.b.c.d.e", "is encrypted")
        try assertRefused("not a token", "is not a JWS")
        try assertRefused(try token(claims(), typ: "at+jwt"), "has typ at+jwt, not logout+jwt")
        try assertRefused(try token(claims(), alg: "none"), "which this client does not accept")
        var forged = try token(claims())
        forged.removeLast(4)
        try assertRefused(forged + "AAAA", "signature")
        try assertRefused(try token(claims(["iss": .string("https://evil.example.com")])), "not the configured issuer")
        try assertRefused(try token(claims(["aud": nil])), "has no aud")
        try assertRefused(try token(claims(["aud": .string("another-client")])), "is not meant for this client")
        try assertRefused(try token(claims(["iat": nil])), "has no numeric iat")
        try assertRefused(try token(claims(["iat": .number(JSONNumber(now + 600))])), "was issued in the future")
        try assertRefused(try token(claims(["iat": .number(JSONNumber(now - 600))])), "is older than 300 s")
        try assertRefused(try token(claims(["exp": .number(JSONNumber(now - 600))])), "expired at")
        try assertRefused(try token(claims(["jti": nil])), "has no jti")
        try assertRefused(try token(claims(["events": nil])), "has no events object")
        try assertRefused(try token(claims(["events": .object(JSONObject())])), "has no \(BackchannelLogout.event)")
        var wrongEvent = JSONObject()
        wrongEvent.set(BackchannelLogout.event, .string("yes"))
        try assertRefused(try token(claims(["events": .object(wrongEvent)])), "is not a JSON object")
        try assertRefused(try token(claims(["sub": nil, "sid": nil])), "names neither a sub nor a sid")
        try assertRefused(try token(claims(["sub": .number(JSONNumber(7))])), "sub that is not a non-empty string")
        try assertRefused(try token(claims(["nonce": .string("n-0S6_WzA2Mj")])), "carries a nonce")
    }

    func testTheAlgorithmRulesAreTheIDTokensAndTheMaxAgeIsTheHosts() throws {
        // The client's ID-token allow-list applies: RS256 refused when only ES256 is allowed.
        try assertRefused(
            try token(claims()), "signed with RS256", by: try validator([.idTokenAlgorithms: "ES256"]))
        let logout = try validator()
        try logout.set(.maxAge, "1000")
        _ = try logout.validate(try token(claims(["iat": .number(JSONNumber(now - 600))])))
        for bad in ["0", "86401", "soon", ""] {
            XCTAssertThrowsError(try logout.set(.maxAge, bad)) {
                XCTAssertEqual(($0 as? TelenoridError)?.kind, .invalidArgument)
            }
        }
        try logout.set(.maxAge, nil)
        try assertRefused(try token(claims(["iat": .number(JSONNumber(now - 600))])), "is older than 300 s", by: logout)
        // A jti refused for another reason is not used up, and a replay is accepted again once out of its window.
        try assertRefused(try token(claims(["jti": .string("j"), "nonce": .string("n")])), "nonce", by: logout)
        _ = try logout.validate(try token(claims(["jti": .string("j")])))
        // Remembered for the max age and the clock tolerance (120 s) after its iat.
        time.now.add(400, ordering: .relaxed)
        try assertRefused(try token(claims(["jti": .string("j")])), "was received before", by: logout)
        time.now.add(100, ordering: .relaxed)
        _ = try logout.validate(try token(claims(["jti": .string("j")])))
    }

    func testTheReplayCacheIsBounded() {
        let seen = SeenTokenIDs()
        for index in 0..<SeenTokenIDs.capacity {
            XCTAssertTrue(seen.insert(issuer: "i", jti: "\(index)", until: 100 + Int64(index), now: 0))
        }
        XCTAssertFalse(seen.insert(issuer: "i", jti: "5", until: 200, now: 0))
        XCTAssertEqual(seen.count, SeenTokenIDs.capacity)
        // Full: a new jti pushes out the one whose window ends soonest (jti 0); the others are still refused.
        XCTAssertTrue(seen.insert(issuer: "other", jti: "5", until: 200, now: 0))
        XCTAssertTrue(seen.insert(issuer: "i", jti: "0", until: 300, now: 1))
        XCTAssertFalse(seen.insert(issuer: "i", jti: "2", until: 300, now: 1))
        // Out of its window, a jti is taken again, and the ones out of theirs make room first.
        XCTAssertTrue(seen.insert(issuer: "i", jti: "2", until: 5000, now: 103))
        XCTAssertFalse(seen.insert(issuer: "i", jti: "4000", until: 5000, now: 103))
        XCTAssertEqual(seen.count, SeenTokenIDs.capacity)
    }

    /// A signed-in state whose ID token has `subject` and `sid` (its signature is not checked once signed in).
    private func signedIn(_ client: OIDCClient, _ subject: String, sid: String?) -> ClientAuthState {
        let sidMember = sid.map { ",\"sid\":\"\($0)\"" } ?? ""
        let payload = Base64URL.encode(
            Array("{\"iss\":\"\(provider.issuer)\",\"sub\":\"\(subject)\"\(sidMember)}".utf8))
        let tokens = TokenSet(
            accessToken: SecretBytes(Array("access-\(subject)".utf8)), tokenType: "Bearer", accessTokenExpiresAt: nil,
            refreshToken: SecretBytes(Array("refresh-\(subject)".utf8)), idToken: "e30.\(payload).c2ln", scope: nil)
        return ClientAuthState(state: client.authState(tokens), client: client)
    }

    func testAnAuthStateIsSignedOutWhenTheTokenNamesItAndTheChangeIsAnnounced() throws {
        let client = try provider.client(time)
        let logout = BackchannelLogout(client: client)
        let session = signedIn(client, "248289761001", sid: "08a5019c-17e1-4977-8f42-65a12843ea02")
        let changes = Atomic<Int>(0)
        session.state.setObserver { changes.add(1, ordering: .relaxed) }
        // Another session of the same user, or another user, is not this one.
        XCTAssertFalse(
            session.state.signOut(
                for: try logout.validate(try token(claims(["jti": .string("a"), "sid": .string("other")])))))
        XCTAssertFalse(
            session.state.signOut(
                for: try logout.validate(try token(claims(["jti": .string("b"), "sub": .string("bob"), "sid": nil])))))
        XCTAssertTrue(session.state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 0)
        XCTAssertTrue(
            session.state.signOut(for: try logout.validate(try token(claims(["jti": .string("c"), "sid": nil])))))
        XCTAssertFalse(session.state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        // Signed out already: not named again, nothing announced.
        XCTAssertFalse(session.state.signOut(for: try logout.validate(try token(claims(["jti": .string("d")])))))
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
    }

    func testTheAccountsATokenNamesAreSignedOutAndDroppedTheOthersKept() throws {
        let client = try provider.client(time)
        let logout = BackchannelLogout(client: client)
        let accounts = try AccountRegistry(client: client, store: .directory(directory), name: "app")
        let alice = try accounts.add(signedIn(client, "alice", sid: "s-alice"))
        let bob = try accounts.add(signedIn(client, "bob", sid: "s-bob"))
        let carol = try accounts.add(signedIn(client, "carol", sid: nil))
        // A state selected from the registry takes up the sign-out its record took when it next reads the
        // record (here: save), and announces it.
        let bobsState = try accounts.select(bob)
        let changes = Atomic<Int>(0)
        bobsState.state.setObserver { changes.add(1, ordering: .relaxed) }

        // A sid no account's ID token has names nobody.
        XCTAssertEqual(
            try accounts.signOut(
                for: try logout.validate(
                    try token(claims(["jti": .string("1"), "sub": nil, "sid": .string("s-nobody")])))), [])
        // By sid alone: bob's session.
        XCTAssertEqual(
            try accounts.signOut(
                for: try logout.validate(try token(claims(["jti": .string("2"), "sub": nil, "sid": .string("s-bob")])))),
            [bob])
        XCTAssertEqual(try accounts.accounts().compactMap { $0["id"]?.stringValue }, [carol, alice])
        try bobsState.state.save()
        XCTAssertFalse(bobsState.state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        // By sub and a sid that is not the account's session: not named.
        XCTAssertEqual(
            try accounts.signOut(
                for: try logout.validate(
                    try token(claims(["jti": .string("3"), "sub": .string("alice"), "sid": .string("s-old")])))), [])
        // By sub alone: every session of carol's.
        XCTAssertEqual(
            try accounts.signOut(
                for: try logout.validate(try token(claims(["jti": .string("4"), "sub": .string("carol"), "sid": nil])))),
            [carol])
        XCTAssertEqual(try accounts.accounts().compactMap { $0["id"]?.stringValue }, [alice])
        // The dropped accounts' records are signed out: reopened, they hold no tokens.
        let store = RecordStore.directory(directory)
        for id in [bob, carol] {
            let state = try client.openAuthState(
                try store.authStateStore(key: "app." + id, lockTimeoutMilliseconds: 1000))
            XCTAssertFalse(state.isSignedIn, id)
        }
    }

    /// The same user signing in again while a logout token's sign-out of their account is under way: the
    /// new sign-in's account stays (Back-Channel Logout 1.0 §2.7 ends the sessions the token names, not a
    /// later one). The host store starts the sign-in on another thread right after the logout wrote the
    /// account's record signed out, and waits until the sign-in has either finished (the registry not
    /// locked: the logout's drop then lands after the new account and takes it) or waits at the registry's
    /// lock (the logout holds it to the end: the new account goes in after the drop).
    func testASignInAgainDuringTheLocalSignOutKeepsItsAccount() throws {
        let client = try provider.client(time)
        let logout = BackchannelLogout(client: client)
        let memory = MemoryRecordStore()
        let registryLock = "app.accounts"
        let registryHolders = Atomic<Int>(0)
        let waiting = Atomic<Bool>(false)
        let signInAtRegistryLock = Atomic<Bool>(false)
        let signInDone = Atomic<Bool>(false)
        let armedRecord = Locked<String?>(nil)
        let registryBox = Locked<AccountRegistry?>(nil)
        let again = signedIn(client, "alice", sid: "s-alice-2")
        let inner = memory.functions
        let hooked = HostStoreFunctions(
            load: inner.load,
            store: { key, data in
                let outcome = inner.store(key, data)
                let armed = armedRecord.withLock { armed in
                    defer { if armed == key { armed = nil } }
                    return armed == key
                }
                guard armed, let accounts = registryBox.withLock({ $0 }) else { return outcome }
                let registryHeld = registryHolders.load(ordering: .sequentiallyConsistent) > 0
                waiting.store(true, ordering: .sequentiallyConsistent)
                Thread {
                    _ = try? accounts.add(again)
                    signInDone.store(true, ordering: .sequentiallyConsistent)
                }.start()
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline && !signInDone.load(ordering: .sequentiallyConsistent)
                    && !(registryHeld && signInAtRegistryLock.load(ordering: .sequentiallyConsistent))
                {
                    usleep(1000)
                }
                waiting.store(false, ordering: .sequentiallyConsistent)
                return outcome
            },
            lock: { name, timeout in
                // While the store waits above, the only other caller is the sign-in's thread.
                if name == registryLock && waiting.load(ordering: .sequentiallyConsistent) {
                    signInAtRegistryLock.store(true, ordering: .sequentiallyConsistent)
                }
                let outcome = inner.lock(name, timeout)
                if name == registryLock && outcome == .done {
                    registryHolders.add(1, ordering: .sequentiallyConsistent)
                }
                return outcome
            },
            unlock: { name in
                if name == registryLock { registryHolders.subtract(1, ordering: .sequentiallyConsistent) }
                return inner.unlock(name)
            })
        let accounts = try AccountRegistry(client: client, store: .host(hooked), name: "app")
        registryBox.withLock { $0 = accounts }
        let alice = try accounts.add(signedIn(client, "alice", sid: "s-alice"))
        armedRecord.withLock { $0 = "app." + alice }
        XCTAssertEqual(
            try accounts.signOut(
                for: try logout.validate(
                    try token(claims(["jti": .string("r"), "sub": nil, "sid": .string("s-alice")])))),
            [alice])
        XCTAssertNil(armedRecord.withLock { $0 }, "the sign-out wrote the account's record")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && !signInDone.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        XCTAssertTrue(signInDone.load(ordering: .sequentiallyConsistent))

        XCTAssertEqual(try accounts.accounts().compactMap { $0["id"]?.stringValue }, [alice])
        let record = try client.openAuthState(
            try RecordStore.host(memory.functions).authStateStore(key: "app." + alice, lockTimeoutMilliseconds: 1000))
        XCTAssertEqual(record.tokens?.idTokenClaims?["sid"]?.stringValue, "s-alice-2")
    }
}
