import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// The state file between processes (two states bound to one file stand for two): what is refused at its
/// path, the bound on the wait for its lock, what a re-read under the lock takes up, and a sign-out
/// recorded there while another refresh is out.
final class SharedStateFileTests: XCTestCase {
    let time = TestClock()
    var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("telenorid-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func kind(_ body: () throws -> Void) -> TelenoridError.Kind? {
        do { try body() } catch { return (error as? TelenoridError)?.kind }
        return nil
    }

    func testAFIFOOrDirectoryAtTheStateOrLockPathIsRefusedWithoutBlocking() throws {
        let path = directory + "/state.json"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let file = try AuthStateFile(path: path)
        XCTAssertEqual(kind { _ = try file.load() }, .configuration)  // opening it for reading would block
        unlink(path)
        XCTAssertEqual(mkfifo(path + ".lock", 0o600), 0)
        XCTAssertEqual(kind { try file.withExclusiveAccess { () throws(TelenoridError) in } }, .configuration)
        unlink(path + ".lock")
        XCTAssertEqual(mkdir(path, 0o700), 0)
        XCTAssertEqual(kind { _ = try file.load() }, .configuration)
    }

    func testTheWaitForTheLockIsBoundedAndNamesTheHolder() throws {
        let path = directory + "/state.json"
        // Another open file holding the flock stands for another process; its pid is written as the
        // library's holders write theirs.
        let holder = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
        defer { close(holder) }
        XCTAssertEqual(flock(holder, LOCK_EX), 0)
        _ = "4242\n".withCString { write(holder, $0, 5) }
        let file = try AuthStateFile(path: path, lockTimeoutMilliseconds: 200)
        let started = Date()
        do {
            try file.withExclusiveAccess { () throws(TelenoridError) in XCTFail("ran without the lock") }
            XCTFail("took a lock another holds")
        } catch {
            XCTAssertEqual(error.kind, .temporarilyUnavailable)
            XCTAssertTrue(
                error.message.contains(path + ".lock") && error.message.contains("process 4242"), error.message)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.2)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        flock(holder, LOCK_UN)
        XCTAssertEqual(try exclusively(in: file) { () throws(TelenoridError) in 7 }, 7)
    }

    private func boundState(
        issuer: String? = "https://op.example", clientID: String? = "app",
        path: String
    ) throws -> (AuthState, ScriptedRefresher) {
        let (template, _) = time.signedInState(expiresIn: 0)
        let clock: Clock = { [time] in time.now.load(ordering: .relaxed) }
        let refresher = ScriptedRefresher(clock: clock)
        let state = AuthState(
            tokens: template.tokens, refresher: refresher, clock: clock, refreshMarginSeconds: 60,
            issuer: issuer, clientID: clientID)
        try state.bind(to: try AuthStateFile(path: path))
        return (state, refresher)
    }

    func testAStateSavedForAnotherClientIsNeverTakenUp() throws {
        let path = directory + "/state.json"
        let (state, refresher) = try boundState(path: path)
        let (_, _) = try boundState(clientID: "another-app", path: path)  // overwrites the file
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(kind { _ = try state.forceRefresh() }, .configuration)
        XCTAssertEqual(kind { try state.revoke() }, .configuration)
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 0)
        XCTAssertEqual(refresher.revoked.withLock { $0 }, [])
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-0")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), saved)
    }

    func testABindingToAHostKeyThisClientDoesNotHoldIsNeverTakenUp() throws {
        let path = directory + "/state.json"
        let (state, refresher) = try boundState(path: path)
        var document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        document["token_type"] = "DPoP"
        document["dpop_jkt"] = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        document["refresh_token"] = "refresh-elsewhere"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(kind { _ = try state.forceRefresh() }, .configuration)
        XCTAssertEqual(refresher.calls.load(ordering: .relaxed), 0)
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-0")
        XCTAssertEqual(state.tokens?.tokenType, "Bearer")
    }

    // The first state's refresh is out (it holds the exclusive lock) when the second, standing for
    // another process, revokes: the revocation does not wait for it, and the refresh, landing, finds the
    // sign-out in the file, revokes what it got and keeps nothing.
    func testASignOutRecordedInTheFileWinsOverARefreshOutElsewhere() throws {
        let path = directory + "/state.json"
        let (first, firstRefresher) = try boundState(path: path)
        firstRefresher.delayMicroseconds.store(500_000, ordering: .relaxed)
        let clock: Clock = { [time] in time.now.load(ordering: .relaxed) }
        let secondRefresher = ScriptedRefresher(clock: clock)
        let text = try XCTUnwrap(try AuthStateFile(path: path).load())
        let second = AuthState(
            tokens: try AuthState.tokens(fromSerialized: text).tokens, refresher: secondRefresher,
            clock: clock, refreshMarginSeconds: 60, issuer: "https://op.example", clientID: "app")
        second.attach(to: try AuthStateFile(path: path))
        let changes = Atomic<Int>(0)
        first.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let outcome = Locked<TelenoridError.Kind?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(TelenoridError) { _ = try first.forceRefresh() } catch { outcome.withLock { $0 = error.kind } }
            done.signal()
        }
        usleep(150_000)
        let started = Date()
        try second.revoke()
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.3)  // not held up by the refresh
        XCTAssertEqual(secondRefresher.revoked.withLock { $0 }, ["refresh-0"])
        done.wait()
        XCTAssertEqual(outcome.withLock { $0 }, .notSignedIn)
        XCTAssertFalse(first.isSignedIn)
        XCTAssertEqual(firstRefresher.revoked.withLock { $0 }, ["refresh-1"])
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)  // signed out, never the refresh's tokens
        let stored = try XCTUnwrap(try AuthStateFile(path: path).load())
        XCTAssertNil(try AuthState.tokens(fromSerialized: stored).tokens)
    }

    // The same race within one process: the sign-out is told to the observer once, not again when the
    // refresh lands and finds it in the file.
    func testASignOutHereDuringARefreshIsAnnouncedOnce() throws {
        let path = directory + "/state.json"
        let (state, refresher) = try boundState(path: path)
        refresher.delayMicroseconds.store(300_000, ordering: .relaxed)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? state.forceRefresh()
            done.signal()
        }
        usleep(100_000)
        XCTAssertEqual(state.signOut()?.refreshToken?.string, "refresh-0")
        done.wait()
        XCTAssertFalse(state.isSignedIn)
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        XCTAssertEqual(refresher.revoked.withLock { $0 }, ["refresh-1"])
    }
}
