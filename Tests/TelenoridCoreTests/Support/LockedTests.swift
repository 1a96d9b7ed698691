import XCTest
@testable import TelenoridCore

final class LockedTests: XCTestCase {
    private struct Refused: Error {}

    /// Increments from several threads at once are never lost: each `withLock` body runs alone. Under
    /// ThreadSanitizer (`make test` runs the Swift suite there too) this also checks the ordering is visible.
    func testConcurrentUpdatesAreSerialized() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 8_000)
    }

    /// A body that throws leaves the lock released and the value as the body left it.
    func testAThrowingBodyReleasesTheLock() {
        let value = Locked([1])
        XCTAssertThrowsError(
            try value.withLock { (items: inout [Int]) throws(Refused) in
                items.append(2)
                throw Refused()
            })
        XCTAssertEqual(value.withLock { $0 }, [1, 2], "taking the lock again must not deadlock")
    }
}
