import XCTest
@testable import TelenoridCore

/// The Aloha exchange's parsers and URL policy (the network exchange itself is tested against the
/// stand-in server from C and Python).
final class LineAuthenticationTests: XCTestCase {
    private func kind<T>(_ body: () throws(TelenoridError) -> T) -> TelenoridError.Kind? {
        do { _ = try body(); return nil } catch { return error.kind }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testPrepareResponse() throws {
        XCTAssertEqual(try AlohaMessages.injectPath(fromPrepare: bytes(#"{"injectPath":"/i/1","other":2}"#)), "/i/1")
        for body in [#"{"injectPath":""}"#, #"{"injectPath":5}"#, #"{}"#, #"[]"#, #"{"injectPath":"#, ""] {
            XCTAssertEqual(
                kind { () throws(TelenoridError) in try AlohaMessages.injectPath(fromPrepare: bytes(body)) },
                .invalidResponse, body)
        }
    }

    func testSessionResponse() throws {
        let session = try AlohaMessages.session(from: bytes(#"{"uuid":"5b0e3e0c-9a8f-4c1e","exp":300}"#))
        XCTAssertEqual(session.uuid, "5b0e3e0c-9a8f-4c1e")
        XCTAssertEqual(session.validSeconds, 300)
        XCTAssertEqual(try AlohaMessages.session(from: bytes(#"{"uuid":"a","exp":"86400"}"#)).validSeconds, 86_400)
        for body in [
            #"{"exp":300}"#, #"{"uuid":"a"}"#, #"{"uuid":"a","exp":0}"#, #"{"uuid":"a","exp":-5}"#,
            #"{"uuid":"a","exp":86401}"#, #"{"uuid":"a","exp":1.5}"#, #"{"uuid":"a","exp":"soon"}"#,
            #"{"uuid":"a b","exp":1}"#, #"{"uuid":"a\nb","exp":1}"#, #"{"uuid":"","exp":1}"#,
            #"{"uuid":7,"exp":1}"#, #"{"uuid":"a","exp":99999999999999999999999}"#, "[1,"
        ] {
            XCTAssertEqual(
                kind { () throws(TelenoridError) in try AlohaMessages.session(from: bytes(body)) },
                .invalidResponse, body)
        }
    }

    func testConfiguredURL() throws {
        let policy = try AlohaPolicy(alohaURL: "https://aloha.example/base//")
        XCTAssertEqual(policy.prepareURL(logID: "x"), "https://aloha.example/base/hr/v1/prepare/x")
        XCTAssertEqual(
            kind { () throws(TelenoridError) in try AlohaPolicy(alohaURL: "http://aloha.example") }, .insecure)
        XCTAssertEqual(kind { () throws(TelenoridError) in try AlohaPolicy(alohaURL: "http://127.0.0.1") }, .insecure)
        XCTAssertEqual(
            kind { () throws(TelenoridError) in try AlohaPolicy(alohaURL: "https://a.example/?q=1") }, .configuration)
        XCTAssertEqual(
            kind { () throws(TelenoridError) in try AlohaPolicy(alohaURL: "https://u@a.example/") }, .configuration)
        XCTAssertEqual(kind { () throws(TelenoridError) in try AlohaPolicy(alohaURL: "not a url") }, .configuration)
    }

    func testInjectURL() throws {
        let policy = try AlohaPolicy(alohaURL: "https://aloha.example:8443")
        XCTAssertEqual(try policy.injectURL("/inject/1?a=b"), "http://aloha.example/inject/1?a=b")
        XCTAssertEqual(try policy.injectURL("http://aloha.example:8080/i"), "http://aloha.example:8080/i")
        XCTAssertEqual(try policy.injectURL("https://aloha.example/i"), "https://aloha.example/i")
        for path in [
            "//evil.example/i", "http://evil.example/i", "http://u@aloha.example/i", "ftp://aloha.example/i",
            "http://aloha.example/i#f"
        ] {
            XCTAssertEqual(kind { () throws(TelenoridError) in try policy.injectURL(path) }, .insecure, path)
        }
        XCTAssertNotNil(kind { () throws(TelenoridError) in try policy.injectURL("inject") })
    }

    func testRedirectURL() throws {
        let policy = try AlohaPolicy(alohaURL: "https://aloha.example:8443/x")
        XCTAssertEqual(try policy.redirectURL("https://aloha.example:8443/s/1"), "https://aloha.example:8443/s/1")
        for location in [
            "http://aloha.example:8443/s", "https://aloha.example/s", "https://aloha.example.evil:8443/s",
            "https://u@aloha.example:8443/s"
        ] {
            XCTAssertEqual(kind { () throws(TelenoridError) in try policy.redirectURL(location) }, .insecure, location)
        }
        XCTAssertEqual(kind { () throws(TelenoridError) in try policy.redirectURL("/relative") }, .invalidResponse)
        // The default port counts as the same port.
        let defaultPort = try AlohaPolicy(alohaURL: "https://aloha.example")
        XCTAssertNoThrow(try defaultPort.redirectURL("https://aloha.example:443/s"))
    }

    func testLogIDsAreFreshVersion4UUIDs() throws {
        var seen = Set<String>()
        for _ in 0..<64 {
            let id = try AlohaPolicy.logID()
            let bytes = Array(id.utf8)
            XCTAssertEqual(bytes.count, 36)
            XCTAssertEqual([bytes[8], bytes[13], bytes[18], bytes[23]], Array("----".utf8))
            XCTAssertEqual(bytes[14], UInt8(ascii: "4"))
            XCTAssertTrue(Array("89ab".utf8).contains(bytes[19]))
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 64)
    }

    func testConfigurationKey() throws {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = "https://id.example"
        settings[.clientID] = "app"
        settings[.redirectURI] = "app:/cb"
        XCTAssertEqual(
            kind { () throws(TelenoridError) in try LineAuthenticator(configuration: try ClientConfiguration(settings))
            },
            .lineAuthUnavailable)
        settings[.alohaURL] = "https://aloha.example"
        let authenticator = try LineAuthenticator(configuration: try ClientConfiguration(settings), clock: { 1_000 })
        XCTAssertNil(authenticator.validSession)
        XCTAssertEqual(authenticator.validFor, 0)
        let json = try ClientConfiguration(
            json:
                #"{"issuer":"https://id.example","client_id":"a","redirect_uri":"app:/cb","aloha_url":"https://aloha.example/"}"#,
            environment: nil)
        XCTAssertEqual(json.settings[.alohaURL], "https://aloha.example/")
    }
}
