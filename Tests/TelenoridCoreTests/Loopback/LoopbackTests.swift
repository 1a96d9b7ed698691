import XCTest
@testable import TelenoridCore

/// How the loopback listener reads a request head (RFC 8252 §7.3): the request line, the Host, the state.
final class LoopbackRequestTests: XCTestCase {
    func outcome(_ text: String, state: String? = nil) -> LoopbackRequest.Outcome {
        LoopbackRequest.outcome(ofHead: Array(text.utf8), path: "/cb", port: 8123, state: state)
    }

    func testTheRequestLineDecides() {
        XCTAssertEqual(
            outcome("GET /cb?code=c&state=s HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n"),
            .redirect(target: "/cb?code=c&state=s"))
        XCTAssertEqual(outcome("GET /cb HTTP/1.0\nHost: 127.0.0.1:8123\n\n"), .redirect(target: "/cb"))
        XCTAssertEqual(outcome("GET /cb2?code=c HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n"), .notFound)
        XCTAssertEqual(outcome("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n"), .notFound)
        XCTAssertEqual(outcome("POST /cb HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n\r\n"), .notFound)
        for malformed in [
            "GET /cb\r\n\r\n", "GET  /cb HTTP/1.1\r\n\r\n", "GET cb HTTP/1.1\r\n\r\n", "GET /c\u{e9} HTTP/1.1\r\n\r\n",
            "GET /cb HTTP/2\r\n\r\n", "", "\r\n\r\n"
        ] {
            XCTAssertEqual(
                outcome(malformed.replacingOccurrences(of: "\r\n\r\n", with: "\r\nHost: 127.0.0.1:8123\r\n\r\n")),
                .badRequest, malformed)
        }
    }

    /// DNS rebinding: a page on another origin whose name now resolves to 127.0.0.1 sends its own name.
    func testOnlyTheListenersOwnHost() {
        for host in ["127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", " \t127.0.0.1:8123 "] {
            XCTAssertEqual(
                outcome("GET /cb?code=c HTTP/1.1\r\nHost:\(host)\r\n\r\n"), .redirect(target: "/cb?code=c"), host)
        }
        for fields in [
            "", "Host: evil.example:8123\r\n", "Host: evil.example\r\n", "Host: 127.0.0.1\r\n",
            "Host: 127.0.0.1:8124\r\n",
            "Host: 127.0.0.1:81230\r\n", "Host: localhost.:8123\r\n", "Host:\r\n",
            "Host: 127.0.0.1:8123\r\nhost: 127.0.0.1:8123\r\n", "Host : 127.0.0.1:8123\r\n",
            "A: b\r\n Host: evil.example\r\nHost: 127.0.0.1:8123\r\n", "Nonsense\r\nHost: 127.0.0.1:8123\r\n"
        ] {
            XCTAssertEqual(outcome("GET /cb?code=c HTTP/1.1\r\n\(fields)\r\n"), .badRequest, fields)
        }
        // Port 80 is the one a browser leaves out.
        XCTAssertEqual(
            LoopbackRequest.outcome(
                ofHead: Array("GET /cb HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), path: "/cb", port: 80, state: nil),
            .redirect(target: "/cb"))
    }

    func testTheExpectedState() {
        let host = "Host: 127.0.0.1:8123\r\n\r\n"
        XCTAssertEqual(
            outcome("GET /cb?code=c&state=s%2F1 HTTP/1.1\r\n\(host)", state: "s/1"),
            .redirect(target: "/cb?code=c&state=s%2F1"))
        XCTAssertEqual(
            outcome("GET /cb?state=s%2F1#x HTTP/1.1\r\n\(host)", state: "s/1"), .redirect(target: "/cb?state=s%2F1#x"))
        for target in [
            "/cb", "/cb?code=c", "/cb?state=s", "/cb?state=s%2F", "/cb?state=s%2F1&state=s%2F1",
            "/cb?state=s%2F1&code=a&code=b",
            "/cb?state=%ZZ", "/cb#state=s%2F1", "/cb?code=c#&state=s%2F1",
            "/cb#x?state=s%2F1"
        ] {  // a "?" inside the fragment starts no query (RFC 3986 §3.5)
            XCTAssertEqual(outcome("GET \(target) HTTP/1.1\r\n\(host)", state: "s/1"), .badRequest, target)
        }
        // The state is only checked on the redirect path: elsewhere it is just not found.
        XCTAssertEqual(outcome("GET /other HTTP/1.1\r\n\(host)", state: "s/1"), .notFound)
    }

    func testTheEndOfTheHead() {
        XCTAssertEqual(LoopbackRequest.endOfHead(Array("GET / HTTP/1.1\r\nA: b\r\n\r\nbody".utf8)), 24)
        XCTAssertEqual(LoopbackRequest.endOfHead(Array("GET / HTTP/1.1\n\n".utf8)), 16)
        XCTAssertNil(LoopbackRequest.endOfHead(Array("GET / HTTP/1.1\r\nA: b\r\n".utf8)))
        XCTAssertNil(LoopbackRequest.endOfHead(Array("\r\n".utf8)))
    }
}

/// The listener over real sockets, from the core: a flood of silent connections doesn't keep the redirect out.
final class LoopbackListenerTests: XCTestCase {
    func connect(_ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(connected, 0)
        return fd
    }

    func testThreeHundredSilentConnectionsThenTheRedirect() throws {
        let listener = try LoopbackListener(path: "/cb")
        let silent = (0..<300).map { _ in connect(listener.port) }
        defer { silent.forEach { close($0) } }
        let browser = connect(listener.port)
        defer { close(browser) }
        let request = "GET /cb?code=c HTTP/1.1\r\nHost: 127.0.0.1:\(listener.port)\r\n\r\n"
        XCTAssertEqual(request.withCString { send(browser, $0, strlen($0), 0) }, request.utf8.count)
        let started = Date()
        XCTAssertEqual(
            try listener.waitForRedirect(timeoutMilliseconds: 10_000), "http://127.0.0.1:\(listener.port)/cb?code=c")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    /// Connections that send one byte and stall, more than the listener keeps open, queued around the
    /// browser's: the one pushed out to make room is one idle longest, never the browser's fresh one.
    func testDribblersAroundTheBrowsersConnectionDoNotPushItOut() throws {
        for round in 0..<5 {
            let listener = try LoopbackListener(path: "/cb")
            func dribbler() -> Int32 {
                let fd = connect(listener.port)
                XCTAssertEqual(send(fd, "G", 1, 0), 1)
                return fd
            }
            let before = (0..<LoopbackConnections.limit + 6).map { _ in dribbler() }
            let browser = connect(listener.port)
            let request = "GET /cb?code=c\(round) HTTP/1.1\r\nHost: 127.0.0.1:\(listener.port)\r\n\r\n"
            XCTAssertEqual(request.withCString { send(browser, $0, strlen($0), 0) }, request.utf8.count)
            let after = (0..<LoopbackConnections.limit / 2).map { _ in dribbler() }
            defer { (before + [browser] + after).forEach { close($0) } }

            XCTAssertEqual(
                try listener.waitForRedirect(timeoutMilliseconds: 3000),
                "http://127.0.0.1:\(listener.port)/cb?code=c\(round)",
                "round \(round)")
            var page = [UInt8](repeating: 0, count: 4096)
            let count = page.withUnsafeMutableBytes { recv(browser, $0.baseAddress, $0.count, 0) }
            XCTAssertTrue(
                String(decoding: page.prefix(max(count, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"),
                "round \(round)")
        }
    }
}
