import Foundation
import XCTest
@testable import TelenoridCore

/// The HTTP layer against Tests/support/fault_server.py, run as a subprocess in plain and HTTPS mode.
final class HTTPTests: XCTestCase {
    // Started once for the class; XCTest runs a class's tests one after another.
    nonisolated(unsafe) private static var plain: Result<FaultServer, Error>?
    nonisolated(unsafe) private static var secure: Result<FaultServer, Error>?

    override class func setUp() {
        super.setUp()
        plain = Result { try FaultServer(https: false) }
        secure = Result { try FaultServer(https: true) }

    }

    override class func tearDown() {
        for server in [plain, secure] { (try? server?.get())?.stop() }
        plain = nil
        secure = nil
        super.tearDown()
    }

    // MARK: helpers

    /// Fails (rather than skips) the test when the server is missing: a silently skipped HTTP suite
    /// would hide every regression.
    private func server(https: Bool = false) throws -> FaultServer {
        guard let started = https ? HTTPTests.secure : HTTPTests.plain else {
            throw FaultServer.Failure(reason: "fault_server.py was not started")
        }
        return try started.get()
    }

    private func url(_ path: String, https: Bool = false) throws -> String {
        let server = try server(https: https)
        return "\(https ? "https" : "http")://127.0.0.1:\(server.port)\(path)"
    }

    private func transport(_ configure: (inout HTTPSettings) -> Void = { _ in }) throws -> CurlTransport {
        var settings = HTTPSettings()
        settings.connectTimeoutMilliseconds = 2_000
        settings.totalTimeoutMilliseconds = 5_000
        configure(&settings)
        return try CurlTransport(settings: settings)
    }

    private func get(_ transport: CurlTransport, _ url: String) throws -> HTTPResponse {
        try transport.send(HTTPRequest(url: url))
    }

    /// The error a send fails with; fails the test if it succeeds.
    private func failure(
        _ send: () throws(TelenoridError) -> HTTPResponse,
        file: StaticString = #filePath, line: UInt = #line
    ) -> TelenoridError? {
        do {
            let response = try send()
            XCTFail("expected an error, got HTTP \(response.status)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func json(_ body: [UInt8]) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(body))
        return try XCTUnwrap(value as? [String: Any])
    }

    // MARK: plain responses

    func testJSONBodyAndHeaders() throws {
        let response = try get(try transport(), try url("/json"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.contentType, "application/json")
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(response.header("x-fault-server"), "json")
        XCTAssertEqual(response.header("X-FAULT-SERVER"), "json")
        XCTAssertTrue(response.headers.allSatisfy { $0.name == $0.name.lowercased() })
        XCTAssertNil(response.header("x-absent"))
        let object = try json(response.body)
        XCTAssertEqual(object["ok"] as? Bool, true)
        XCTAssertEqual(object["numbers"] as? [Int], [1, 2, 3])
    }

    func testErrorStatusIsAResponse() throws {
        let response = try get(try transport(), try url("/status/404?body=not%20here&type=Text/Plain;%20charset=utf-8"))
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.contentType, "text/plain")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "not here")
    }

    func testRedirectIsNotFollowed() throws {
        let response = try get(try transport(), try url("/redirect"))
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.header("location"), "/json")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"moved":true}"#)
    }

    // MARK: faults

    func testHangTimesOut() throws {
        let transport = try transport { $0.totalTimeoutMilliseconds = 500 }
        let target = try url("/hang")
        let start = ContinuousClock.now
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: target)) }
        XCTAssertEqual(error?.kind, .timeout, error?.message ?? "")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3))
    }

    func testResetIsNetworkError() throws {
        let transport = try transport()
        let target = try url("/reset")
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: target)) }
        XCTAssertEqual(error?.kind, .network, error?.message ?? "")
    }

    func testTruncatedBodyIsNetworkError() throws {
        let transport = try transport()
        let target = try url("/truncated")
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: target)) }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertTrue(error?.message.contains("truncated") ?? false, error?.message ?? "")
    }

    func testBodyCapWithAndWithoutContentLength() throws {
        let transport = try transport { $0.maxBodyBytes = 4096 }
        for route in ["/big", "/big-chunked"] {
            let atCap = try get(transport, try url("\(route)?bytes=4096"))
            XCTAssertEqual(atCap.status, 200, route)
            XCTAssertEqual(atCap.body.count, 4096, route)
            let over = try url("\(route)?bytes=4097")
            let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: over)) }
            XCTAssertEqual(error?.kind, .responseTooLarge, "\(route): \(error?.message ?? "")")
        }
        // 5 MB without a Content-Length: the write callback stops the transfer at the cap, long before
        // the server is done.
        let huge = try url("/big-chunked?bytes=5000000")
        let start = ContinuousClock.now
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: huge)) }
        XCTAssertEqual(error?.kind, .responseTooLarge)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        // The transport still works afterwards.
        XCTAssertEqual(try get(transport, try url("/json")).status, 200)
    }

    func testDefaultBodyCapAllowsLargeResponses() throws {
        let response = try get(try transport(), try url("/big-chunked?bytes=500000"))
        XCTAssertEqual(response.body.count, 500_000)
    }

    func testHeaderFloodIsTooLarge() throws {
        let transport = try transport()
        let flood = try url("/headers-flood")
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: flood)) }
        XCTAssertEqual(error?.kind, .responseTooLarge, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("headers") ?? false)

        let modest = try get(transport, try url("/headers-flood?count=10&size=100"))
        XCTAssertEqual(modest.status, 200)
        XCTAssertEqual(modest.header("X-Flood-9")?.count, 100)
    }

    /// One header line over libcurl's own per-line limit (CURL_MAX_HTTP_HEADER, 100 kB) never reaches the
    /// header callback: libcurl stops the transfer itself, and that is still the answer being too large.
    func testOneOverlongHeaderLineIsTooLarge() throws {
        let transport = try transport()
        let overlong = try url("/headers-flood?count=1&size=200000")
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: overlong)) }
        XCTAssertEqual(error?.kind, .responseTooLarge, error?.message ?? "")
        // The handle goes back to the pool fit for the next request.
        XCTAssertEqual(try get(transport, try url("/json")).status, 200)
    }

    // MARK: security policy

    func testInsecureURLsRefusedBeforeConnecting() throws {
        let transport = try transport()
        for target in [
            "http://example.com/", "http://example.com/token?code=SECRETCODE", "ftp://127.0.0.1/",
            "https://user:SECRETPW@127.0.0.1/", "http://127.0.0.2.example.com/"
        ] {
            let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: target)) }
            XCTAssertEqual(error?.kind, .insecure, target)
            XCTAssertFalse(error?.message.contains("SECRET") ?? true, error?.message ?? "")
        }
        XCTAssertEqual(transport.connectionsOpened, 0)
        let error = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: "not a url")) }
        XCTAssertEqual(error?.kind, .invalidArgument)
    }

    func testPlainHTTPOnlyWhenExplicitlyAllowed() throws {
        let transport = try transport()
        // 0.0.0.0 reaches this machine on Linux, yet is not a loopback name: stands in for a remote host.
        let target = "http://0.0.0.0:\(try server().port)/json"
        let refused = failure { () throws(TelenoridError) in try transport.send(HTTPRequest(url: target)) }
        XCTAssertEqual(refused?.kind, .insecure)
        XCTAssertEqual(try transport.send(HTTPRequest(url: target), allowPlainHTTP: true).status, 200)
        // Still no other schemes.
        let ftp = failure { () throws(TelenoridError) in
            try transport.send(HTTPRequest(url: "ftp://0.0.0.0/"), allowPlainHTTP: true)
        }
        XCTAssertEqual(ftp?.kind, .insecure)
    }

    func testTLSVerification() throws {
        let secure = try server(https: true)
        let target = try url("/json", https: true)
        let untrusting = try transport()
        let error = failure { () throws(TelenoridError) in try untrusting.send(HTTPRequest(url: target)) }
        XCTAssertEqual(error?.kind, .tls, error?.message ?? "")

        let trusting = try transport { $0.caFile = secure.caFile }
        XCTAssertEqual(try get(trusting, target).status, 200)
        XCTAssertEqual(try get(trusting, "https://localhost:\(secure.port)/json").status, 200)

        let missingCA = try transport { $0.caFile = "/nonexistent/ca.pem" }
        let badFile = failure { () throws(TelenoridError) in try missingCA.send(HTTPRequest(url: target)) }
        XCTAssertEqual(badFile?.kind, .tls, badFile?.message ?? "")
    }

    func testErrorMessagesCarryNoSecrets() throws {
        let transport = try transport()
        for path in ["/reset?code=SECRETCODE", "/truncated?code=SECRETCODE"] {
            let request = HTTPRequest(
                method: "POST", url: try url(path),
                authorization: SecretBytes(Array("Bearer SECRETTOKEN".utf8)),
                body: SecretBytes(Array("client_secret=SECRETVALUE".utf8)))
            let error = failure { () throws(TelenoridError) in try transport.send(request) }
            XCTAssertEqual(error?.kind, .network)
            XCTAssertFalse(error?.message.contains("SECRET") ?? true, error?.message ?? "")
        }
        let injected = HTTPRequest(url: try url("/echo"), headers: [("X-Test", "a\r\nAuthorization: SECRETTOKEN")])
        let error = failure { () throws(TelenoridError) in try transport.send(injected) }
        XCTAssertEqual(error?.kind, .invalidArgument)
        XCTAssertFalse(error?.message.contains("SECRET") ?? true)
    }

    func testSettingsValidated() {
        var settings = HTTPSettings()
        settings.totalTimeoutMilliseconds = 0
        XCTAssertThrowsError(try CurlTransport(settings: settings)) { error in
            XCTAssertEqual((error as? TelenoridError)?.kind, .invalidArgument)
        }
    }

    // MARK: what is sent

    func testEchoShowsUserAgentAndFormBody() throws {
        let parameters = FormParameters([
            (name: "grant_type", value: "authorization_code"), (name: "code", value: "a b&c=d")
        ])
        let request = HTTPRequest.form(
            url: try url("/echo"), parameters: parameters, headers: [("Authorization", "Basic abc")])
        let echo = try json(try transport().send(request).body)
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["body"] as? String, parameters.encoded)
        let headers = (echo["headers"] as? [[String]] ?? []).reduce(into: [String: String]()) { all, pair in
            if pair.count == 2 { all[pair[0].lowercased()] = pair[1] }
        }
        XCTAssertEqual(headers["user-agent"], HTTPSettings().userAgent)  // "telenorid/<version>"
        XCTAssertTrue(HTTPSettings().userAgent.hasPrefix("telenorid/"))
        XCTAssertEqual(headers["content-type"], "application/x-www-form-urlencoded")
        XCTAssertEqual(headers["accept"], "application/json")
        XCTAssertEqual(headers["authorization"], "Basic abc")
        XCTAssertEqual(headers["content-length"], String(parameters.encoded.utf8.count))
        XCTAssertNil(headers["expect"])

        let custom = try transport { $0.userAgent = "custom-agent/2" }
        let again = try json(try custom.send(HTTPRequest(url: try url("/echo"), headers: [("X-Empty", "")])).body)
        let pairs = again["headers"] as? [[String]] ?? []
        XCTAssertTrue(pairs.contains(["User-Agent", "custom-agent/2"]))
        XCTAssertTrue(pairs.contains(["X-Empty", ""]))
        XCTAssertEqual(again["method"] as? String, "GET")
    }

    /// Above a size (1024 bytes in older libcurl, 1 MiB now) libcurl would ask for "100-continue" (a round
    /// trip, and servers mishandle it): the transport removes the header there, and leaves the form's
    /// Content-Type to libcurl's own.
    func testLargeFormPostSendsNoExpect() throws {
        let parameters = FormParameters([(name: "client_assertion", value: String(repeating: "a", count: 1_100_000))])
        let request = HTTPRequest.form(url: try url("/echo"), parameters: parameters)
        let echo = try json(try transport { $0.maxBodyBytes = 4 << 20 }.send(request).body)
        let headers = (echo["headers"] as? [[String]] ?? []).reduce(into: [String: String]()) { all, pair in
            if pair.count == 2 { all[pair[0].lowercased()] = pair[1] }
        }
        XCTAssertEqual(echo["body"] as? String, parameters.encoded)
        XCTAssertNil(headers["expect"])
        XCTAssertEqual(headers["content-type"], "application/x-www-form-urlencoded")
    }

    func testOtherMethods() throws {
        let transport = try transport()
        let deleted = try json(try transport.send(HTTPRequest(method: "DELETE", url: try url("/echo"))).body)
        XCTAssertEqual(deleted["method"] as? String, "DELETE")
        let put = try json(
            try transport.send(HTTPRequest(method: "PUT", url: try url("/echo"), body: SecretBytes(Array("x=1".utf8))))
                .body)
        XCTAssertEqual(put["method"] as? String, "PUT")
        XCTAssertEqual(put["body"] as? String, "x=1")
        let emptyPost = try json(try transport.send(HTTPRequest(method: "POST", url: try url("/echo"))).body)
        XCTAssertEqual(emptyPost["body"] as? String, "")
        let head = try transport.send(HTTPRequest(method: "HEAD", url: try url("/json")))
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        let echo = try url("/echo")
        let badMethod = failure { () throws(TelenoridError) in
            try transport.send(HTTPRequest(method: "GE T", url: echo))
        }
        XCTAssertEqual(badMethod?.kind, .invalidArgument)
    }

    /// A pooled handle keeps the transport's options between requests but nothing of a request: after a
    /// PUT with a body and a header, or a HEAD, the next requests on the same handle are plain.
    func testPooledHandleForgetsTheLastRequest() throws {
        let transport = try transport()
        let echo = try url("/echo")
        let put = try json(
            try transport.send(
                HTTPRequest(
                    method: "PUT", url: echo, headers: [("X-Once", "1")],
                    authorization: SecretBytes(Array("Bearer t".utf8)),
                    body: SecretBytes(Array("x=1".utf8)))
            ).body)
        XCTAssertEqual(put["method"] as? String, "PUT")
        for _ in 0..<2 {
            let next = try json(try get(transport, echo).body)
            XCTAssertEqual(next["method"] as? String, "GET")
            XCTAssertEqual(next["body"] as? String, "")
            let names = (next["headers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
            XCTAssertFalse(names.contains("x-once"))
            XCTAssertFalse(names.contains("authorization"))
            XCTAssertFalse(names.contains("content-length"))
            XCTAssertEqual(try transport.send(HTTPRequest(method: "HEAD", url: try url("/json"))).body, [])
        }
        XCTAssertFalse(try get(transport, try url("/json")).body.isEmpty)
        XCTAssertEqual(transport.connectionsOpened, 1)
    }

    /// Header lines are kept as received and parsed when read: folded lines continue the value before
    /// them (RFC 9112 §5.2), a line whose name is not a token is skipped, the first of a name wins.
    func testHeaderBlockParsedOnRead() {
        let block =
            "Retry-After: 5\r\nbad name: x\r\n  more\r\nDPoP-Nonce: n1\r\nWWW-Authenticate: DPoP\r\n\t error=\"x\"\r\n"
            + "dpop-nonce: n2\r\n"
        let response = HTTPResponse(status: 200, headerBlock: Array(block.utf8), body: SecretBytes([]))
        XCTAssertEqual(response.header("retry-after"), "5 more")
        XCTAssertEqual(response.header("DPOP-NONCE"), "n1")
        XCTAssertEqual(response.header("www-authenticate"), #"DPoP error="x""#)
        XCTAssertNil(response.header("bad name"))
        XCTAssertEqual(response.headers.map(\.name), ["retry-after", "dpop-nonce", "www-authenticate", "dpop-nonce"])
        XCTAssertEqual(response.headers.map(\.value), ["5 more", "n1", #"DPoP error="x""#, "n2"])
    }

    // MARK: connection reuse and threads

    func testKeepAliveReusesOneConnection() throws {
        let transport = try transport()
        let target = try url("/count")
        var counts: [Int] = []
        for _ in 0..<20 {
            counts.append(try json(try get(transport, target).body)["connections"] as? Int ?? -1)
        }
        XCTAssertEqual(Set(counts).count, 1, "server accepted new connections: \(counts)")
        XCTAssertEqual(transport.connectionsOpened, 1)
    }

    func testManyThreadsShareOneTransport() throws {
        let transport = try transport()
        let outcome = try hammer(transport, url: try url("/json"), threads: 8, requests: 50)
        XCTAssertEqual(outcome.successes, 400)
        XCTAssertEqual(outcome.failures, [])
        // At most one handle per concurrent thread, each keeping its connection alive.
        XCTAssertLessThanOrEqual(transport.connectionsOpened, CurlTransport.poolLimit)
    }

    /// Several handles handshaking at once go through the share's DNS and TLS-session locks.
    func testManyThreadsOverTLS() throws {
        let secure = try server(https: true)
        let transport = try transport { $0.caFile = secure.caFile }
        let outcome = try hammer(transport, url: try url("/json", https: true), threads: 4, requests: 10)
        XCTAssertEqual(outcome.successes, 40)
        XCTAssertEqual(outcome.failures, [])
        XCTAssertLessThanOrEqual(transport.connectionsOpened, 4)
    }

    private func hammer(_ transport: CurlTransport, url: String, threads: Int, requests: Int) throws -> Outcome {
        let outcome = Outcome()
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                for _ in 0..<requests {
                    do {
                        let response = try transport.send(HTTPRequest(url: url))
                        outcome.record(
                            response.status == 200 && response.body.count > 10 ? nil : "HTTP \(response.status)")
                    } catch {
                        outcome.record("\(error)")
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        return outcome
    }
}

/// Results gathered from several threads.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var ok = 0
    private var errors: [String] = []

    func record(_ failure: String?) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { errors.append(failure) } else { ok += 1 }
    }

    var successes: Int { lock.lock(); defer { lock.unlock() }; return ok }
    var failures: [String] { lock.lock(); defer { lock.unlock() }; return errors }
}
