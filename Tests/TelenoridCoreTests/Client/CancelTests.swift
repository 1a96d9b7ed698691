import Foundation
import Synchronization
import XCTest
@testable import TelenoridCore

/// A socket on 127.0.0.1 that takes connections (the kernel completes them) and never answers: a transfer
/// to it waits out its timeout unless it is cancelled. With `answers`, a thread answers each connection
/// with one small response instead (`body`, after `delayMicroseconds`), and counts the requests it read.
private final class LocalServer: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    let requestsRead = Atomic<Int>(0)

    init(answers: Bool = false, body: String = "{}", delayMicroseconds: UInt32 = 0) throws {
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
                    self.requestsRead.wrappingAdd(1, ordering: .relaxed)
                    usleep(delayMicroseconds)
                    let answer = Array(
                        ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                            + "Connection: close\r\n\r\n\(body)").utf8)
                    _ = write(connection, answer, answer.count)
                    close(connection)
                }
            }
        }
    }

    var url: String { "http://127.0.0.1:\(port)/token" }
    /// The same port over https: the TLS handshake never completes, so no request is ever written.
    var httpsURL: String { "https://127.0.0.1:\(port)/token" }

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

    /// An auth state whose access token has expired, refreshing at `tokenURL` through a client whose
    /// transfers time out after `timeoutMilliseconds`.
    private func expiredState(tokenURL: String, timeoutMilliseconds: String = "20000") throws -> (AuthState, OIDCClient)
    {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example.com"
        settings[.clientID] = "tnn-example"
        settings[.redirectURI] = "telenorid-example://authcallback/"
        settings[.tokenEndpoint] = tokenURL
        settings[.timeoutMilliseconds] = timeoutMilliseconds
        let client = try OIDCClient(configuration: try ClientConfiguration(settings))
        let tokens = TokenSet(
            accessToken: SecretBytes(Array("access-0".utf8)), tokenType: "Bearer",
            accessTokenExpiresAt: client.clock() - 10, refreshToken: SecretBytes(Array("refresh-0".utf8)),
            idToken: nil, scope: "openid")
        return (AuthState(tokens: tokens, refresher: client, clock: client.clock, refreshMarginSeconds: 60), client)
    }

    /// Before the request is written (here the TLS handshake never completes) a cancel is immediate, the
    /// state stays as it was, and the request is known not to have left.
    func testRefreshCancelledBeforeItsRequestIsWrittenEndsAtOnce() throws {
        let silent = try LocalServer()
        defer { silent.stop() }
        let (state, client) = try expiredState(tokenURL: silent.httpsURL)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }
        let before = state.serialized().string

        let call = Background { () throws(TelenoridError) in _ = try state.freshTokens() }
        usleep(300_000)
        let cancelledAt = DispatchTime.now()
        client.cancel()
        let (error, endedAt) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertEqual(error?.requestNotSent, true)
        XCTAssertLessThan(milliseconds(from: cancelledAt, to: endedAt), 100)
        XCTAssertEqual(state.serialized().string, before)
        XCTAssertEqual(changes.load(ordering: .relaxed), 0)
        XCTAssertFalse(TelenoridError.Kind.cancelled.isTransient)
    }

    /// A refresh whose request has left is never abandoned: the provider may have rotated the refresh
    /// token for it. The answer is awaited, kept, and then the call says it was cancelled.
    func testRefreshCancelledAfterItsRequestLeftKeepsTheAnswer() throws {
        let slow = try LocalServer(
            answers: true,
            body: #"{"access_token":"access-1","token_type":"Bearer","expires_in":300,"refresh_token":"refresh-1"}"#,
            delayMicroseconds: 700_000)
        defer { slow.stop() }
        let (state, client) = try expiredState(tokenURL: slow.url)
        let changes = Atomic<Int>(0)
        state.setObserver { changes.wrappingAdd(1, ordering: .relaxed) }

        let call = Background { () throws(TelenoridError) in _ = try state.freshTokens() }
        usleep(300_000)
        XCTAssertEqual(slow.requestsRead.load(ordering: .relaxed), 1)
        let cancelledAt = DispatchTime.now()
        client.cancel()
        let (error, endedAt) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertTrue(error?.message.contains("kept") == true, error?.message ?? "")
        XCTAssertGreaterThan(milliseconds(from: cancelledAt, to: endedAt), 200, "the answer was awaited")
        XCTAssertEqual(state.tokens?.accessToken.string, "access-1")
        XCTAssertEqual(state.tokens?.refreshToken?.string, "refresh-1")
        XCTAssertEqual(changes.load(ordering: .relaxed), 1)
        // The kept tokens are used without another request.
        XCTAssertEqual(try state.freshTokens().accessToken.string, "access-1")
        XCTAssertEqual(slow.requestsRead.load(ordering: .relaxed), 1)
    }

    /// A request that was written and never answered ends at the transfer's own timeout, not at the
    /// cancel, and keeps the tokens it had (the rotation journal of a bound state says it may be lost).
    func testRefreshCancelledAfterItsRequestLeftWaitsNoLongerThanItsTimeout() throws {
        let silent = try LocalServer()
        defer { silent.stop() }
        let (state, client) = try expiredState(tokenURL: silent.url, timeoutMilliseconds: "1500")
        let before = state.serialized().string
        let call = Background { () throws(TelenoridError) in _ = try state.freshTokens() }
        usleep(300_000)
        client.cancel()
        let (error, _) = try XCTUnwrap(call.wait())
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertEqual(state.serialized().string, before)
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
