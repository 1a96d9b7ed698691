import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// A host's store in memory, as a keychain or database store would be: records by key, named locks that
/// exclude every holder and wait at most the timeout. Faults on cue.
final class MemoryRecordStore: Sendable {
    let records = Locked<[String: [UInt8]]>([:])
    private let held = Locked<Set<String>>([])
    /// Operations that fail ("load", "store", "lock"), and whether stores are accepted at all.
    let failing = Locked<Set<String>>([])
    let garbage = Locked<[UInt8]?>(nil)
    let writes = Atomic<Int>(0)

    var functions: HostStoreFunctions {
        HostStoreFunctions(
            load: { key in
                if self.failing.withLock({ $0.contains("load") }) { return (.failed(15), nil) }
                if let junk = self.garbage.withLock({ $0 }) { return (.done, SecretBytes(junk)) }
                return (.done, self.records.withLock { $0[key] }.map { SecretBytes($0) })
            },
            store: { key, data in
                if self.failing.withLock({ $0.contains("store") }) { return .failed(3) }
                self.records.withLock { $0[key] = data.bytes }
                self.writes.wrappingAdd(1, ordering: .relaxed)
                return .done
            },
            lock: { name, timeout in
                if self.failing.withLock({ $0.contains("lock") }) { return .timedOut }
                let deadline = Date().addingTimeInterval(Double(timeout) / 1000)
                while !self.held.withLock({ $0.insert(name).inserted }) {
                    if Date() > deadline { return .timedOut }
                    usleep(1000)
                }
                return .done
            },
            unlock: { name in
                self.held.withLock { _ = $0.remove(name) }
                return self.failing.withLock({ $0.contains("unlock") }) ? .failed(5) : .done
            })
    }

    func record(_ key: String) -> String? { records.withLock { $0[key] }.map { String(decoding: $0, as: UTF8.self) } }
}

/// A provider that rotates refresh tokens and refuses any but the latest (RFC 9700 §4.14.2), and lets a
/// test look at the store while the request is out.
final class RotatingProvider: TokenRefresher, Sendable {
    let current = Locked<String>("refresh-0")
    let calls = Atomic<Int>(0)
    let revoked = Locked<[String]>([])
    let delayMicroseconds = Atomic<UInt32>(0)
    let duringRequest = Locked<(@Sendable () -> Void)?>(nil)
    /// Thrown after the provider rotated: the answer never arrives.
    let failAfterRotating = Locked<TelenoridError?>(nil)
    let clock: Clock
    init(clock: @escaping Clock) { self.clock = clock }

    func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet {
        let call = calls.wrappingAdd(1, ordering: .relaxed).newValue
        duringRequest.withLock { $0 }?()
        usleep(delayMicroseconds.load(ordering: .relaxed))
        let presented = tokens.refreshToken?.string ?? ""
        let accepted = current.withLock { current -> Bool in
            guard current == presented else { return false }
            current = "refresh-\(call)"
            return true
        }
        guard accepted else {
            throw OIDCClient.refreshVerdict(
                TelenoridError(.authorizationError, "refused", oauthError: "invalid_grant", httpStatus: 400))
        }
        if let failure = failAfterRotating.withLock({ $0 }) { throw failure }
        var next = tokens
        next.accessToken = SecretBytes(Array("access-\(call)".utf8))
        next.accessTokenExpiresAt = clock() + 300
        next.refreshToken = SecretBytes(Array("refresh-\(call)".utf8))
        return next
    }

    func revokeGrant(_ tokens: TokenSet) throws(TelenoridError) {
        revoked.withLock { $0.append(tokens.refreshToken?.string ?? tokens.accessToken.string) }
    }

    func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner {
        throw TelenoridError(.configuration, "no host-held DPoP key here")
    }
}

/// Auth states bound to a record of a host's store (several states on one record stand for several
/// processes): single flight, the sign-out that wins, a failing store, and the rotation journal.
final class HostStoreTests: XCTestCase {
    let time = TestClock()
    let memory = MemoryRecordStore()
    lazy var provider = RotatingProvider(clock: clock)
    var clock: Clock { { [time] in time.now.load(ordering: .relaxed) } }

    private func store(_ key: String = "alice", timeout: Int = 2000) throws -> any AuthStateStore {
        try RecordStore.host(memory.functions).authStateStore(key: key, lockTimeoutMilliseconds: timeout)
    }

    private func state(tokens: TokenSet?) -> AuthState {
        AuthState(
            tokens: tokens, refresher: provider, clock: clock, refreshMarginSeconds: 60,
            issuer: "https://op.example", clientID: "app")
    }

    /// A signed-in state bound to record `key`, its access token expired.
    private func boundState(_ key: String = "alice") throws -> AuthState {
        let (template, _) = time.signedInState(expiresIn: 0)
        let state = state(tokens: template.tokens)
        try state.bind(to: try store(key))
        return state
    }

    /// Another process opening the record: a state restored from it and bound to it.
    private func opened(_ key: String = "alice") throws -> AuthState {
        let store = try store(key)
        guard let text = try store.load() else { throw TelenoridError(.notSignedIn, "no record") }
        let state = state(
            tokens: try AuthState.restoredTokens(
                text, issuer: "https://op.example", clientID: "app", refresher: provider))
        state.attach(to: store)
        return state
    }

    private func error(_ body: () throws -> Void) -> TelenoridError? {
        do { try body() } catch { return error as? TelenoridError }
        return nil
    }

    func testKeysAreCheckedBeforeTheHostIsCalled() {
        for key in ["", "a/b", "a b", "é", String(repeating: "k", count: 129), "alice.update"] {
            XCTAssertEqual(error { _ = try store(key) }?.kind, .invalidArgument, key)
        }
        XCTAssertNoThrow(try store("user-1_a.B"))
    }

    func testEightProcessesOnOneRecordMakeOneRefresh() throws {
        _ = try boundState()
        let states = try (0..<8).map { _ in try opened() }
        provider.delayMicroseconds.store(50_000, ordering: .relaxed)
        let tokens = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if let fresh = try? states[index].freshTokens() { tokens.withLock { $0.append(fresh.accessToken.string) } }
        }
        XCTAssertEqual(provider.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(tokens.withLock { $0 }, Array(repeating: "access-1", count: 8))
        XCTAssertTrue(memory.record("alice")?.contains("refresh-1") == true)
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    func testASignOutRecordedWhileARefreshIsOutWins() throws {
        let refreshing = try boundState()
        let other = try opened()
        provider.duringRequest.withLock { $0 = { other.signOut() } }
        XCTAssertEqual(error { _ = try refreshing.freshTokens() }?.kind, .notSignedIn)
        XCTAssertFalse(refreshing.isSignedIn)
        XCTAssertEqual(provider.revoked.withLock { $0 }, ["refresh-1"])  // what the lost refresh brought
        XCTAssertNil(
            try AuthState.tokens(fromSerialized: SecretBytes(memory.records.withLock { $0["alice"] } ?? [])).tokens)
    }

    func testAFailingHangingOrGarbageStoreFailsClearlyAndChangesNothing() throws {
        let state = try boundState()
        let before = memory.record("alice")
        for (fault, operation) in [
            ("load", "load of \"alice\""), ("lock", "lock of \"alice\""), ("store", "store of \"alice\"")
        ] {
            memory.failing.withLock { $0 = [fault] }
            let failure = error { _ = try state.freshTokens() }
            XCTAssertEqual(failure?.kind, .storeFailed, fault)
            XCTAssertTrue(failure?.message.contains(operation) == true, failure?.message ?? "")
            XCTAssertFalse(failure?.message.contains("refresh-0") == true)
            XCTAssertEqual(state.tokens?.accessToken.string, "access-0")
            XCTAssertEqual(provider.calls.load(ordering: .relaxed), 0, "a refresh went out through a \(fault) fault")
        }
        memory.failing.withLock { $0 = [] }
        memory.garbage.withLock { $0 = Array("{\"version\":1,\"access_token\":[\"refresh-0\"]".utf8) }
        let garbage = error { _ = try state.freshTokens() }
        XCTAssertEqual(garbage?.kind, .storeFailed)
        XCTAssertTrue(
            garbage?.message.contains("record \"alice\" is not an auth state") == true, garbage?.message ?? "")
        XCTAssertFalse(garbage?.message.contains("refresh-0") == true)
        XCTAssertEqual(memory.record("alice"), before)
        memory.garbage.withLock { $0 = nil }
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
    }

    func testAnUnlockThatFailsAfterTheRequestWentOutLeavesItsOutcome() throws {
        let state = try boundState()
        memory.failing.withLock { $0 = ["unlock"] }
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertEqual(provider.calls.load(ordering: .relaxed), 1)
        XCTAssertTrue(memory.record("alice")?.contains("refresh-1") == true)
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    func testTheMarkerIsWrittenBeforeTheRequestAndGoneAfter() throws {
        let state = try boundState()
        let seen = Locked<String?>(nil)
        provider.duringRequest.withLock { $0 = { [memory] in seen.withLock { $0 = memory.record("alice") } } }
        _ = try state.freshTokens()
        let during = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertTrue(during.contains("\"refresh_started_at\":1000000"), during)
        XCTAssertTrue(during.contains("refresh-0"))  // the marker itself holds no token: the record still has the old
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    func testTheMarkerStaysOnlyWhenTheRequestMayHaveReachedTheProvider() throws {
        let state = try boundState()
        provider.failAfterRotating.withLock { $0 = TelenoridError(.network, "connection reset") }
        XCTAssertEqual(error { _ = try state.freshTokens() }?.kind, .network)
        XCTAssertTrue(memory.record("alice")?.contains("refresh_started_at") == true)
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-0")
    }

    func testARefreshWhoseConnectionWasNeverMadeClearsItsMarker() throws {
        let state = try boundState()
        final class Unreachable: TokenRefresher {
            func refresh(_ tokens: TokenSet) throws(TelenoridError) -> TokenSet {
                throw TelenoridError(.network, "could not connect").neverSent()
            }
            func revokeGrant(_ tokens: TokenSet) throws(TelenoridError) {}
            func hostKeySigner(forThumbprint thumbprint: String) throws(TelenoridError) -> DPoPSigner {
                throw TelenoridError(.configuration, "none")
            }
        }
        let unreachable = AuthState(
            tokens: state.tokens, refresher: Unreachable(), clock: clock, refreshMarginSeconds: 60,
            issuer: "https://op.example", clientID: "app")
        unreachable.attach(to: try store())
        XCTAssertEqual(error { _ = try unreachable.freshTokens() }?.kind, .network)
        XCTAssertEqual(memory.writes.load(ordering: .relaxed), 3)  // bind, marker, cleared
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    func testAProcessStoppedAfterTheProviderAnsweredLeavesARotationPossiblyLost() throws {
        let crashed = try boundState()
        // The process "stops" once the provider has rotated: no write of its lands any more.
        provider.duringRequest.withLock { $0 = { [memory] in memory.failing.withLock { $0 = ["store"] } } }
        XCTAssertEqual(error { _ = try crashed.freshTokens() }?.kind, .storeFailed)
        XCTAssertTrue(memory.record("alice")?.contains("refresh_started_at") == true)
        provider.duringRequest.withLock { $0 = nil }
        memory.failing.withLock { $0 = [] }

        let next = try opened()
        let lost = error { _ = try next.forceRefresh() }
        XCTAssertEqual(lost?.kind, .rotationPossiblyLost)
        XCTAssertTrue(lost?.message.contains("probably rotated") == true, lost?.message ?? "")
        XCTAssertEqual(lost?.oauthError, "invalid_grant")
        XCTAssertFalse(next.isSignedIn)
        XCTAssertEqual(next.lostReason?.kind, .rotationPossiblyLost)
        let record = memory.record("alice") ?? ""
        XCTAssertFalse(record.contains("refresh_started_at") || record.contains("access_token"), record)
    }

    func testAMarkerFoundAndARefreshTheProviderTakesLeavesNoTrace() throws {
        let state = try boundState()
        provider.failAfterRotating.withLock { $0 = TelenoridError(.timeout, "no answer") }
        XCTAssertEqual(error { _ = try state.freshTokens() }?.kind, .timeout)
        XCTAssertTrue(memory.record("alice")?.contains("refresh_started_at") == true)
        // The provider never acted on the lost request after all: the stored token still works.
        provider.failAfterRotating.withLock { $0 = nil }
        provider.current.withLock { $0 = "refresh-0" }
        XCTAssertEqual(try opened().freshTokens().accessToken.string, "access-2")
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    func testAStateWhoseWriteFailedWritesItsTokensOverItsOwnMarkerNextTime() throws {
        let state = try boundState()
        provider.duringRequest.withLock { $0 = { [memory] in memory.failing.withLock { $0 = ["store"] } } }
        XCTAssertEqual(error { _ = try state.freshTokens() }?.kind, .storeFailed)
        XCTAssertEqual(state.tokens?.accessToken.string, "access-1")
        provider.duringRequest.withLock { $0 = nil }
        memory.failing.withLock { $0 = [] }
        XCTAssertEqual(try state.forceRefresh().accessToken.string, "access-2")  // refresh-1, from memory
        XCTAssertTrue(memory.record("alice")?.contains("refresh-2") == true)
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
    }

    /// A refresh the store did not take (disk full, keyring locked) is reported, its tokens stay in use,
    /// and the write is tried again before each use until it lands; nothing rotates meanwhile.
    func testARefreshWhoseWriteFailsIsReportedKeptAndWrittenBeforeTheNextUse() throws {
        let state = try boundState()
        let notified = Atomic<Int>(0)
        state.setObserver { notified.wrappingAdd(1, ordering: .relaxed) }
        provider.duringRequest.withLock { $0 = { [memory] in memory.failing.withLock { $0 = ["store"] } } }
        XCTAssertThrowsError(try state.freshTokens()) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .storeFailed)
            XCTAssertTrue(($0 as? TelenoridError)?.message.contains("failed (3)") == true)
        }
        provider.duringRequest.withLock { $0 = nil }
        XCTAssertEqual(notified.load(ordering: .relaxed), 1, "the host is told the state changed")
        XCTAssertTrue(
            memory.record("alice")?.contains("refresh_started_at") == true, "the marker says what may be lost")
        // The store still refuses: the tokens are used all the same, and nothing is sent.
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertFalse(memory.record("alice")?.contains("refresh-1") == true)
        memory.failing.withLock { $0 = [] }
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertTrue(memory.record("alice")?.contains("refresh-1") == true, "written before this use")
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
        XCTAssertEqual(provider.calls.load(ordering: .relaxed), 1)
        // Another process carries on from the record: the rotated refresh token, nothing lost.
        XCTAssertEqual(try opened().forceRefresh().accessToken.string, "access-2")
    }

    /// A host told STORE_FAILED writes the kept tokens when it chooses (before it exits, say); a store that
    /// still refuses says so, and nothing is sent either way.
    func testSaveWritesTheTokensTheStoreRefusedAndReportsAStoreThatStillRefuses() throws {
        let state = try boundState()
        provider.duringRequest.withLock { $0 = { [memory] in memory.failing.withLock { $0 = ["store"] } } }
        XCTAssertEqual(error { _ = try state.freshTokens() }?.kind, .storeFailed)
        provider.duringRequest.withLock { $0 = nil }
        let refused = error { try state.save() }
        XCTAssertEqual(refused?.kind, .storeFailed)
        XCTAssertTrue(refused?.message.contains("failed (3)") == true, refused?.message ?? "")
        XCTAssertTrue(memory.record("alice")?.contains("refresh_started_at") == true)
        memory.failing.withLock { $0 = [] }
        try state.save()
        XCTAssertTrue(memory.record("alice")?.contains("refresh-1") == true)
        XCTAssertFalse(memory.record("alice")?.contains("refresh_started_at") == true)
        XCTAssertEqual(provider.calls.load(ordering: .relaxed), 1)
        XCTAssertEqual(try opened().forceRefresh().accessToken.string, "access-2")
    }

    /// What another process saved since is taken up, not overwritten; a state bound to nothing can't save.
    func testSaveTakesUpAnotherProcesssRefreshAndNeedsAStore() throws {
        let state = try boundState()
        XCTAssertEqual(try opened().forceRefresh().accessToken.string, "access-1")
        let notified = Atomic<Int>(0)
        state.setObserver { notified.wrappingAdd(1, ordering: .relaxed) }
        try state.save()
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-1")
        XCTAssertTrue(memory.record("alice")?.contains("refresh-1") == true)
        XCTAssertEqual(notified.load(ordering: .relaxed), 1)
        XCTAssertEqual(error { try self.state(tokens: nil).save() }?.kind, .invalidArgument)
    }

    func testTheDirectoryStoreKeepsEachKeyInItsOwnFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("telenorid-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try RecordStore.directory(directory).authStateStore(key: "bob", lockTimeoutMilliseconds: 1000)
        XCTAssertEqual((store as? AuthStateFile)?.path, directory + "/bob.json")
        let (template, _) = time.signedInState(expiresIn: 0)
        let state = state(tokens: template.tokens)
        try state.bind(to: store)
        provider.failAfterRotating.withLock { $0 = TelenoridError(.timeout, "no answer") }
        XCTAssertEqual(error { _ = try state.freshTokens() }?.kind, .timeout)
        let text = try String(contentsOfFile: directory + "/bob.json", encoding: .utf8)
        XCTAssertTrue(text.contains("refresh_started_at"), text)
    }
}
