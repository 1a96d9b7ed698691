import Foundation
import XCTest

@testable import TelenoridCore

/// The registry of accounts in a directory store, with a client against the in-memory provider: accounts
/// named by issuer and subject (OIDC Core §2), listed most recently used first, selected from their records,
/// removed with a revocation (RFC 7009), and a registry record from another process checked entry by entry.
final class AccountRegistryTests: XCTestCase {
    private var directory = ""
    private let provider = MemoryProvider()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("telenorid-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        provider.advertise("revocation_endpoint", endpoint: .revocation)
        provider.answer(.revocation, status: 200, body: "{}")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func client() throws -> OIDCClient {
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tnn-example"
        settings[.redirectURI] = "telenorid-example://authcallback/"
        return try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
    }

    private func registry(_ client: OIDCClient, _ name: String = "app") throws -> AccountRegistry {
        try AccountRegistry(client: client, store: .directory(directory), name: name)
    }

    /// A signed-in state whose ID token names `subject` (its signature is not checked once signed in).
    private func signedIn(_ client: OIDCClient, _ subject: String, _ claims: String = "") -> ClientAuthState {
        let payload = Base64URL.encode(Array("{\"iss\":\"\(provider.issuer)\",\"sub\":\"\(subject)\"\(claims)}".utf8))
        let tokens = TokenSet(
            accessToken: SecretBytes(Array("access-\(subject)".utf8)), tokenType: "Bearer", accessTokenExpiresAt: nil,
            refreshToken: SecretBytes(Array("refresh-\(subject)".utf8)), idToken: "e30.\(payload).c2ln", scope: nil)
        return ClientAuthState(state: client.authState(tokens), client: client)
    }

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\($0)", line: line)
        }
    }

    func testTheSameUserSigningInAgainReplacesTheirAccountAndTheLatestComesFirst() throws {
        let client = try client()
        let accounts = try registry(client)
        let alice = try accounts.add(signedIn(client, "alice", ",\"name\":\"Alice\",\"email\":\"a@example.com\""))
        let bob = try accounts.add(signedIn(client, "bob", ",\"name\":\"\(String(repeating: "b", count: 300))\""))
        XCTAssertEqual(alice, AccountRegistry.id(issuer: provider.issuer, subject: "alice"))
        XCTAssertEqual(alice.utf8.count, 12)
        XCTAssertEqual(try accounts.add(signedIn(client, "alice")), alice)
        let listed = try registry(client).accounts()
        XCTAssertEqual(listed.map { $0["id"]?.stringValue }, [alice, bob])
        XCTAssertNil(listed[0]["name"])  // replaced by the later sign-in, which had no name
        XCTAssertNil(listed[1]["name"])  // over 256 bytes: left out
        XCTAssertEqual(listed[1]["subject"]?.stringValue, "bob")
    }

    func testSelectOpensTheAccountsRecordAndRemoveRevokesAndDrops() throws {
        let client = try client()
        let accounts = try registry(client)
        let alice = try accounts.add(signedIn(client, "alice"))
        let bob = try accounts.add(signedIn(client, "bob"))
        let selected = try registry(client).select(alice)
        XCTAssertEqual(selected.state.tokens?.refreshToken?.bytes, Array("refresh-alice".utf8))
        XCTAssertEqual(try accounts.accounts().map { $0["id"]?.stringValue }, [alice, bob])

        try accounts.remove(alice)
        XCTAssertEqual(try provider.lastForm(to: .revocation)["token"], "refresh-alice")
        XCTAssertEqual(try accounts.accounts().map { $0["id"]?.stringValue }, [bob])
        assertKind(.notSignedIn, try selected.state.forceRefresh())
        assertKind(.notSignedIn, try accounts.select(alice))
        assertKind(.notSignedIn, try accounts.remove(alice))
        assertKind(.notSignedIn, try accounts.remove("../../etc"))

        // A revocation the provider refuses still drops the account, and is reported.
        provider.answer(.revocation, status: 503, body: "{}")
        XCTAssertThrowsError(try accounts.remove(bob))
        XCTAssertEqual(try accounts.accounts().count, 0)
    }

    func testOnlyASignedInStateWithAnIDTokenOfThisClientIsAdded() throws {
        let client = try client()
        let accounts = try registry(client)
        assertKind(.notSignedIn, try accounts.add(ClientAuthState(state: client.authState(nil), client: client)))
        var tokens = try XCTUnwrap(signedIn(client, "alice").state.tokens)
        tokens.idToken = nil
        assertKind(.invalidArgument, try accounts.add(ClientAuthState(state: client.authState(tokens), client: client)))
        assertKind(.invalidArgument, try registry(client, "a/b"))
        assertKind(.invalidArgument, try registry(client, String(repeating: "a", count: 116)))
    }

    func testARegistryRecordIsCheckedEntryByEntry() throws {
        let id = AccountRegistry.id(issuer: "https://id.example.com", subject: "1")
        let entry = "{\"id\":\"\(id)\",\"issuer\":\"https://id.example.com\",\"subject\":\"1\",\"last_used\":1}"
        func entries(_ text: String) throws -> [JSONObject] { try AccountRegistry.entries(Array(text.utf8)) }
        XCTAssertEqual(try entries("{\"version\":1,\"accounts\":[\(entry)]}").count, 1)
        let refused = [
            "{\"version\":2,\"accounts\":[]}", "{\"version\":1}", "[]",
            "{\"version\":1,\"accounts\":[\(entry),\(entry)]}",
            "{\"version\":1,\"accounts\":[\(entry.replacingOccurrences(of: id, with: "../../etc/x"))]}",
            "{\"version\":1,\"accounts\":[\(entry.replacingOccurrences(of: "\"last_used\":1", with: "\"name\":7"))]}",
            "{\"version\":1,\"accounts\":[\(Array(repeating: "{}", count: 101).joined(separator: ","))]}",
            "{\"version\":1,\"accounts\":[[[[]]]]}"
        ]
        for text in refused { assertKind(.malformed, try entries(text)) }
        try Data("{\"version\":1,\"accounts\":7}".utf8).write(
            to: URL(fileURLWithPath: directory + "/bad.accounts.json"))
        assertKind(.malformed, try registry(try client(), "bad"))
    }
}
