import Foundation
import XCTest
@testable import TelenoridCore

/// The configuration's key table (`ClientConfiguration.Setting`) against the header it mirrors, and what each
/// kind of row makes the documents, the checks and discovery do.
final class SettingTableTests: XCTestCase {
    typealias Setting = ClientConfiguration.Setting

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T, _ context: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), context, file: file, line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\(context): \($0)", file: file, line: line)
        }
    }

    /// Every `#define TELENORID_CONFIG_<NAME> <number>` of include/telenorid.h, read from the file.
    private static func headerKeys() throws -> [(name: String, number: Int32)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let header = try String(contentsOf: root.appendingPathComponent("include/telenorid.h"), encoding: .utf8)
        let define = try NSRegularExpression(
            pattern: #"^#define TELENORID_CONFIG_([A-Z0-9_]+)\s+(-?\d+)\b"#,
            options: .anchorsMatchLines)
        return define.matches(in: header, range: NSRange(header.startIndex..., in: header)).compactMap { match in
            guard let name = Range(match.range(at: 1), in: header), let number = Range(match.range(at: 2), in: header)
            else { return nil }
            return (String(header[name]), Int32(header[number])!)
        }
    }

    /// The table has one row per header key, under the header's number and the key's name in lower case, and
    /// nothing else: the export layer hands a C key to the core as its number.
    func testTheTableHoldsEveryHeaderKeyUnderItsNumberAndName() throws {
        let keys = try Self.headerKeys()
        XCTAssertGreaterThanOrEqual(keys.count, 40, "the header's keys were not found")
        for key in keys {
            guard let setting = Setting(number: key.number) else {
                XCTFail("TELENORID_CONFIG_\(key.name) (\(key.number)) has no row")
                continue
            }
            XCTAssertEqual(setting.name, key.name.lowercased(), "TELENORID_CONFIG_\(key.name)")
            XCTAssertEqual(Setting(named: key.name.lowercased()), setting)
        }
        let numbers = Setting.allCases.map { $0.number }
        XCTAssertEqual(Set(numbers).count, numbers.count, "two rows under one number")
        XCTAssertEqual(Set(numbers), Set(keys.map { $0.number }), "rows that are no header key")
        XCTAssertNil(Setting(number: 0))
    }

    /// Every `..._ENDPOINT` key of the header, and the key set's `jwks_uri`, is a provider endpoint (OIDC
    /// Discovery 1.0 §3, RFC 8414 §2): a client that was not given it takes it from the provider's metadata.
    func testEveryEndpointKeyOfTheHeaderIsDiscovered() throws {
        for key in try Self.headerKeys() where key.name.hasSuffix("_ENDPOINT") || key.name == "JWKS_URI" {
            XCTAssertEqual(Setting(number: key.number)?.kind, .discoveredEndpoint, "TELENORID_CONFIG_\(key.name)")
        }
        XCTAssertEqual(Setting.discoveredEndpoints, Setting.allCases.filter { $0.kind == .discoveredEndpoint })
    }

    /// Each discovered endpoint is read from the metadata under its member name, checked like any endpoint
    /// (https, or http on a loopback host), and filled into a configuration that does not set it.
    func testEachDiscoveredEndpointIsReadFromTheMetadataAndFilledIn() throws {
        let provider = MemoryProvider()
        for setting in Setting.discoveredEndpoints {
            provider.advertise(setting.name, string: "\(provider.issuer)/\(setting.name)")
        }
        var settings = ClientConfiguration.Settings()
        settings[.issuer] = provider.issuer
        settings[.clientID] = "tv-app"
        let client = try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
        let metadata = try client.discover()
        XCTAssertEqual(metadata.endpoints.count, Setting.discoveredEndpoints.count)
        let effective = try client.effectiveConfiguration()
        for setting in Setting.discoveredEndpoints {
            XCTAssertEqual(metadata.endpoints[setting], "\(provider.issuer)/\(setting.name)", setting.name)
            XCTAssertEqual(effective.settings[setting], "\(provider.issuer)/\(setting.name)", setting.name)
            XCTAssertEqual(try client.endpoint(setting), "\(provider.issuer)/\(setting.name)", setting.name)

            let document = #"{"issuer":"https://id.example.com","\#(setting.name)":"http://id.example.com/x"}"#
            assertKind(
                .insecure, try ProviderMetadata(json: Array(document.utf8), expectedIssuer: "https://id.example.com"),
                setting.name)
        }
        // The host's own setting wins over the discovered one.
        settings[.tokenEndpoint] = "https://id.example.com/own-token"
        let own = try OIDCClient(configuration: try ClientConfiguration(settings), transport: provider)
        XCTAssertEqual(try own.effectiveConfiguration().settings[.tokenEndpoint], "https://id.example.com/own-token")
    }

    /// A JSON document gives each row its type: booleans for flags, numbers in the row's range for numbers,
    /// arrays of strings for lists; endpoints must be secure URLs. Secrets are held in wiping storage only.
    func testEachKindIsReadAndCheckedAsItsRowSays() throws {
        let base = #""issuer":"https://id.example.com","client_id":"c""#
        func configuration(_ member: String) throws -> ClientConfiguration {
            try ClientConfiguration(json: "{\(base),\(member)}", environment: nil)
        }
        for setting in Setting.allCases where setting != .issuer && setting != .clientID {
            let name = setting.name
            switch setting.kind {
            case .flag:
                XCTAssertEqual(try configuration("\"\(name)\":false").settings[setting], "false", name)
                assertKind(.configuration, try configuration("\"\(name)\":\"yes\""), name)
            case .number(let range):
                XCTAssertEqual(
                    try configuration("\"\(name)\":\(range.lowerBound)").settings[setting], "\(range.lowerBound)", name)
                assertKind(.configuration, try configuration("\"\(name)\":\(range.lowerBound - 1)"), name)
                assertKind(.configuration, try configuration("\"\(name)\":\(range.upperBound + 1)"), name)
            case .list:
                XCTAssertEqual(try configuration("\"\(name)\":[\"RS256\",\"ES256\"]").settings[setting], "RS256 ES256")
            case .secret:  // each in a field of its own
                var settings = ClientConfiguration.Settings()
                settings[setting] = "s"
                XCTAssertNil(settings.values[setting], name)
                XCTAssertEqual(settings[secret: setting]?.string, "s", name)
            case .endpoint, .discoveredEndpoint:
                XCTAssertEqual(
                    try configuration("\"\(name)\":\"https://id.example.com/\(name)\"").settings[setting],
                    "https://id.example.com/\(name)")
                assertKind(.insecure, try configuration("\"\(name)\":\"http://id.example.com/\(name)\""), name)
                assertKind(.configuration, try configuration("\"\(name)\":\"https://id.example.com/x#f\""), name)
            case .string:
                assertKind(.configuration, try configuration("\"\(name)\":true"), name)
            }
        }
    }
}
