import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// A socket on 127.0.0.1 that takes connections (the kernel completes them) and never answers: a transfer
/// to it waits out its timeout unless it is cancelled. With `answers`, a thread answers each connection
/// with one small response instead.
private final class LocalServer: @unchecked Sendable {
    let fd: Int32
    let port: UInt16

    init(answers: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw TelenoridError(.network, "test server") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        if answers {
            Thread.detachNewThread {
                while true {
                    let connection = accept(fd, nil, nil)
                    guard connection >= 0 else { return }
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    _ = read(connection, &buffer, buffer.count)
                    let answer = Array(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                            .utf8)
                    _ = write(connection, answer, answer.count)
                    close(connection)
                }
            }
        }
    }

    var url: String { "http://127.0.0.1:\(port)/token" }

    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}

/// Runs `body` on another thread; `wait` returns its error and when it ended.
private final class Background: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var error: TelenoridError?
    private var endedAt = DispatchTime.now()

    init(_ body: @escaping @Sendable () throws(TelenoridError) -> Void) {
        Thread.detachNewThread { [self] in
            do throws(TelenoridError) { try body() } catch { self.error = error }
            endedAt = .now()
            done.signal()
        }
    }

    func wait(seconds: Int = 30) -> (TelenoridError?, DispatchTime)? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return (error, endedAt)
    }
}

private func milliseconds(from start: DispatchTime, to end: DispatchTime) -> Double {
    Double(end.uptimeNanoseconds &- start.uptimeNanoseconds) / 1e6
}

final class CancelTests: XCTestCase {
    private func transport() throws -> CurlTransport {
        var settings = HTTPSettings()
        settings.connectTimeoutMilliseconds = 10_000
        settings.totalTimeoutMilliseconds = 20_000
        return try CurlTransport(settings: settings)
    }

    func testCancelEndsATransferWithinAHundredMilliseconds() throws {
        let silent = try LocalServer()
        defer { silent.stop() }
        let transport = try transport()
        let url = silent.url
        let call = Background { () throws(TelenoridError) in
            _ = try transport.send(HTTPRequest(method: "POST", url: url, body: SecretBytes(Array("grant_type=x".utf8))))
        }
        usleep(300_000)  // the request is written and waits for an answer that never comes
        let cancelledAt = DispatchTime.now()
        transport.cancel()
        let (error, endedAt) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .cancelled)
        // It may have reached the server: never offered for a second sending.
        XCTAssertEqual(error?.requestNotSent, false)
        XCTAssertLessThan(milliseconds(from: cancelledAt, to: endedAt), 100)
    }

    func testTransfersAfterACancelRunNormally() throws {
        let silent = try LocalServer()
        let answering = try LocalServer(answers: true)
        defer { silent.stop(); answering.stop() }
        let transport = try transport()
        transport.cancel()  // nothing in flight: cancels nothing to come
        XCTAssertEqual(try transport.send(HTTPRequest(url: answering.url)).status, 200)

        let url = silent.url
        let call = Background { () throws(TelenoridError) in _ = try transport.send(HTTPRequest(url: url)) }
        usleep(200_000)
        transport.cancel()
        XCTAssertEqual(try XCTUnwrap(call.wait()).0?.kind, .cancelled)
        // The pooled handle the cancelled transfer used serves the next request.
        XCTAssertEqual(try transport.send(HTTPRequest(url: answering.url)).status, 200)
        XCTAssertEqual(try transport.send(HTTPRequest(url: answering.url)).body, Array("{}".utf8))
    }

    func testCancelledRefreshLeavesTheStateAsItWas() throws {
        let silent = try LocalServer()
        defer { silent.stop() }
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "tnn-example"
        settings[.redirectURI] = "telenorid-example://authcallback/"
        settings[.tokenEndpoint] = silent.url
        let client = try OIDCClient(configuration: try ClientConfiguration(settings))
        let tokens = TokenSet(
            accessToken: SecretBytes(Array("access-0".utf8)), tokenType: "Bearer",
            accessTokenExpiresAt: client.clock() - 10, refreshToken: SecretBytes(Array("refresh-0".utf8)),
            idToken: nil, scope: "openid")
        let state = AuthState(tokens: tokens, refresher: client, clock: client.clock, refreshMarginSeconds: 60)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let before = state.serialized().string

        let call = Background { () throws(TelenoridError) in _ = try state.freshTokens() }
        usleep(300_000)
        let cancelledAt = DispatchTime.now()
        client.cancel()
        let (error, endedAt) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertLessThan(milliseconds(from: cancelledAt, to: endedAt), 100)
        XCTAssertEqual(state.serialized().string, before)
        XCTAssertEqual(changes.load(ordering: .relaxed), 0)
        XCTAssertFalse(TelenoridError.Kind.cancelled.isTransient)
    }

    func testLoopbackWaitCancelledAndWaitsAgain() throws {
        let listener = try LoopbackListener()
        let call = Background { () throws(TelenoridError) in
            _ = try listener.waitForRedirect(timeoutMilliseconds: 20_000)
        }
        usleep(200_000)
        let cancelledAt = DispatchTime.now()
        listener.cancel()
        let (error, endedAt) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertLessThan(milliseconds(from: cancelledAt, to: endedAt), 100)

        // Usable again, and the cancel does not reach the next wait: it runs to its own timeout.
        listener.cancel()
        let start = DispatchTime.now()
        XCTAssertThrowsError(try listener.waitForRedirect(timeoutMilliseconds: 300)) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, .timeout)
        }
        XCTAssertGreaterThanOrEqual(milliseconds(from: start, to: .now()), 290)
    }
}
