import XCTest
@testable import TelenoridCore

/// Rich authorization requests (RFC 9396) and resource indicators (RFC 8707) in the authorization request,
/// the pending authorization, the code exchange and the token response.
final class RichAuthorizationTests: XCTestCase {
    /// RFC 9396 §2's example of authorization details of two types.
    private let example = """
        [
           {
              "type": "account_information",
              "actions": [
                 "list_accounts",
                 "read_balances",
                 "read_transactions"
              ],
              "locations": [
                 "https://example.com/accounts"
              ]
           },
           {
              "type": "payment_initiation",
              "actions": [
                 "initiate",
                 "status",
                 "cancel"
              ],
              "locations": [
                 "https://example.com/payments"
              ],
              "instructedAmount": {
                 "currency": "EUR",
                 "amount": "123.50"
              },
              "creditorName": "Merchant A",
              "creditorAccount": {
                 "iban": "DE02100100109307118603"
              },
              "remittanceInformationUnstructured": "Ref Number Merchant"
           }
        ]
        """

    private let compactExample =
        #"[{"type":"account_information","actions":["list_accounts","read_balances","read_transactions"],"locations":["https://example.com/accounts"]},{"type":"payment_initiation","actions":["initiate","status","cancel"],"locations":["https://example.com/payments"],"instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A","creditorAccount":{"iban":"DE02100100109307118603"},"remittanceInformationUnstructured":"Ref Number Merchant"}]"#

    private func assertKind<T>(
        _ kind: TelenoridError.Kind, _ expression: @autoclosure () throws -> T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) {
            XCTAssertEqual(($0 as? TelenoridError)?.kind, kind, "\($0)", file: file, line: line)
        }
    }

    /// The query's pairs in order, repeats kept (`FormParameters(parsing:)` refuses them, as a callback must).
    private func pairs(of url: String) throws -> [(name: String, value: String)] {
        let query = try XCTUnwrap(try URI(parsing: url).query)
        return try Array(query.utf8).split(separator: UInt8(ascii: "&")).map { part in
            let equals = try XCTUnwrap(part.firstIndex(of: UInt8(ascii: "=")))
            return (
                try XCTUnwrap(PercentEncoding.decode(part[..<equals], plusIsSpace: true)),
                try XCTUnwrap(PercentEncoding.decode(part[(equals + 1)...], plusIsSpace: true))
            )
        }
    }

    func testTheRFCExampleRoundTrips() throws {
        let details = try AuthorizationDetails(json: example)
        XCTAssertEqual(details.text, compactExample)
        XCTAssertEqual(
            details.value.arrayValue?.compactMap { $0["type"]?.stringValue },
            ["account_information", "payment_initiation"])
        let payment = try XCTUnwrap(details.value.arrayValue?[1].objectValue)
        XCTAssertEqual(payment["instructedAmount"]?["amount"]?.stringValue, "123.50")
        XCTAssertEqual(payment["creditorAccount"]?["iban"]?.stringValue, "DE02100100109307118603")
        XCTAssertEqual(try AuthorizationDetails(json: details.text), details)
        XCTAssertEqual(try AuthorizationDetails(response: JSON.parse(example)), details)
    }

    func testInvalidDetailsAreRefused() {
        for text in [
            #"{"type":"payment_initiation"}"#,  // not an array
            "[]",  // empty
            #"[{"type":"a"},"payment_initiation"]"#,  // a member that is not an object
            #"[{"type":"a"},{"actions":["read"]}]"#,  // no type
            #"[{"type":42}]"#,  // a type that is not a string
            #"[{"type":null}]"#,
            #"[{"type":"a"}"#,  // not JSON
            ""
        ] {
            assertKind(.invalidArgument, try AuthorizationDetails(json: text))
            if let value = try? JSON.parse(text) {
                assertKind(.invalidResponse, try AuthorizationDetails(response: value))
            }
        }
        // Bounded in size and depth, whichever way the value comes in.
        let long = #"[{"type":"a","x":""# + String(repeating: "x", count: 64 * 1024) + #""}]"#
        assertKind(.invalidArgument, try AuthorizationDetails(json: long))
        assertKind(.invalidResponse, try AuthorizationDetails(response: JSON.parse(long)))
        func nested(_ depth: Int) -> String {
            #"[{"type":"a","x":"# + String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2)
                + "}]"
        }
        XCTAssertNoThrow(try AuthorizationDetails(json: nested(32)))
        XCTAssertNoThrow(try AuthorizationDetails(response: JSON.parse(nested(32))))
        assertKind(.invalidArgument, try AuthorizationDetails(json: nested(33)))
        assertKind(.invalidResponse, try AuthorizationDetails(response: JSON.parse(nested(33))))
    }

    func testTheURLCarriesDetailsAndEveryResource() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        request.setAuthorizationDetails(try AuthorizationDetails(json: example))
        try request.addResource("https://api.example.com/payments")
        try request.addResource("https://api.example.com/accounts?region=eu")
        try request.set(.loginHint, "+4799999999")
        let pending = try request.build()

        let pairs = try pairs(of: pending.url)
        XCTAssertEqual(
            pairs.filter { $0.name == "resource" }.map(\.value),
            ["https://api.example.com/payments", "https://api.example.com/accounts?region=eu"])
        let sent = try XCTUnwrap(pairs.first { $0.name == "authorization_details" }?.value)
        XCTAssertEqual(sent, compactExample)
        XCTAssertEqual(try JSON.parse(sent), try JSON.parse(example))
        XCTAssertEqual(pairs.filter { $0.name == "authorization_details" }.count, 1)
        XCTAssertEqual(pairs.first { $0.name == "login_hint" }?.value, "+4799999999")

        // Removing the details takes the parameter out; without resources there is no resource parameter.
        var plain = AuthorizationRequest(configuration: try testConfiguration())
        plain.setAuthorizationDetails(try AuthorizationDetails(json: example))
        plain.setAuthorizationDetails(nil)
        let names = try self.pairs(of: plain.build().url).map(\.name)
        XCTAssertFalse(names.contains("authorization_details"))
        XCTAssertFalse(names.contains("resource"))
    }

    func testResourcesAreAbsoluteURIsWithoutFragmentAddedOnce() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        try request.addResource("https://api.example.com/")
        try request.addResource("urn:example:resource-server")
        assertKind(.invalidArgument, try request.addResource("https://api.example.com/"))
        assertKind(.invalidArgument, try request.addResource("https://api.example.com/app#section"))
        assertKind(.invalidArgument, try request.addResource("/relative/path"))
        assertKind(.invalidArgument, try request.addResource("api.example.com"))
        assertKind(.invalidArgument, try request.addResource(""))
        assertKind(.invalidArgument, try request.addResource("https://api.example.com/a b"))
        XCTAssertEqual(request.resources, ["https://api.example.com/", "urn:example:resource-server"])
    }

    func testAuthorizationDetailsIsRefusedAsAnExtraButResourceStaysOne() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        assertKind(.parameterConflict, try request.addParameter("authorization_details", compactExample))
        XCTAssertTrue(request.extras.pairs.isEmpty)
        // RFC 8707 lets resource repeat, so an extra one (the way before addResource) goes out beside them.
        try request.addParameter("resource", "https://legacy.example.com/")
        try request.addResource("https://api.example.com/")
        XCTAssertEqual(
            try pairs(of: try request.build().url).filter { $0.name == "resource" }.map(\.value),
            ["https://api.example.com/", "https://legacy.example.com/"])
    }

    func testEssentialACRValuesComeFromTheIDTokenClaimsRequest() throws {
        func essentialValues(_ claim: ClaimsRequest.Claim, to target: ClaimsRequest.Target = .idToken) throws
            -> [String]?
        {
            var request = AuthorizationRequest(configuration: try testConfiguration())
            try request.addClaim(claim, to: target)
            return try request.build().essentialACRValues
        }
        XCTAssertEqual(
            try essentialValues(.init(name: "acr", essential: true, values: [.string("urn:a"), .string("urn:b")])),
            ["urn:a", "urn:b"])
        XCTAssertEqual(try essentialValues(.init(name: "acr", essential: true, value: .string("urn:a"))), ["urn:a"])
        XCTAssertEqual(try essentialValues(.init(name: "acr", essential: true)), [])
        XCTAssertNil(try essentialValues(.init(name: "acr", essential: false, values: [.string("urn:a")])))
        XCTAssertNil(try essentialValues(.init(name: "acr", values: [.string("urn:a")])))
        XCTAssertNil(
            try essentialValues(.init(name: "acr", essential: true, values: [.string("urn:a")]), to: .userinfo))
        XCTAssertNil(try essentialValues(.init(name: "amr", essential: true, values: [.string("pwd")])))
        XCTAssertNil(try AuthorizationRequest(configuration: try testConfiguration()).build().essentialACRValues)

        var request = AuthorizationRequest(configuration: try testConfiguration())
        assertKind(
            .invalidArgument,
            try request.addClaim(.init(name: "acr", essential: true, values: [.number(JSONNumber(2))]), to: .idToken))
        assertKind(
            .invalidArgument,
            try request.addClaim(.init(name: "acr", essential: true, value: .bool(true)), to: .idToken))
        assertKind(
            .invalidArgument, try request.addClaim(.init(name: "acr", essential: true, values: []), to: .idToken))
    }

    func testPendingAuthorizationKeepsTheNewMembers() throws {
        var request = AuthorizationRequest(configuration: try testConfiguration())
        request.setAuthorizationDetails(try AuthorizationDetails(json: example))
        try request.addResource("https://api.example.com/payments")
        try request.addResource("https://api.example.com/accounts")
        try request.addClaim(
            .init(name: "acr", essential: true, values: [.string("urn:a"), .string("urn:b")]), to: .idToken)
        let pending = try request.build()
        XCTAssertEqual(pending.resources, ["https://api.example.com/payments", "https://api.example.com/accounts"])
        XCTAssertEqual(pending.authorizationDetails, try AuthorizationDetails(json: example))
        XCTAssertEqual(pending.essentialACRValues, ["urn:a", "urn:b"])

        let text = pending.serialized()
        let restored = try PendingAuthorization(restoring: text, configuration: pending.configuration)
        XCTAssertEqual(restored.resources, pending.resources)
        XCTAssertEqual(restored.authorizationDetails, pending.authorizationDetails)
        XCTAssertEqual(restored.essentialACRValues, pending.essentialACRValues)
        XCTAssertEqual(restored.serialized().bytes, text.bytes)

        // A document written before these members existed restores, with none of them.
        var older = JSONObject()
        for member in try XCTUnwrap(JSON.parse(text.string).objectValue).members
        where !["resources", "authorization_details", "essential_acr_values"].contains(member.key) {
            older.set(member.key, member.value)
        }
        let old = try PendingAuthorization(
            restoring: SecretBytes(Array(JSON.serialize(.object(older)).utf8)), configuration: pending.configuration)
        XCTAssertEqual(old.state, pending.state)
        XCTAssertEqual(old.resources, [])
        XCTAssertNil(old.authorizationDetails)
        XCTAssertNil(old.essentialACRValues)

        // Malformed members are refused, not dropped.
        for (key, value) in [
            ("resources", #""https://api.example.com/""#), ("resources", "[1]"),
            ("authorization_details", "[]"), ("authorization_details", #"[{"actions":[]}]"#),
            ("essential_acr_values", #""urn:a""#)
        ] {
            var broken = try XCTUnwrap(JSON.parse(text.string).objectValue)
            broken.set(key, try JSON.parse(value))
            assertKind(
                .malformed,
                try PendingAuthorization(
                    restoring: SecretBytes(Array(JSON.serialize(.object(broken)).utf8)),
                    configuration: pending.configuration))
        }
    }

    func testTokenResponseAuthorizationDetails() throws {
        func parse(_ extra: String) throws -> TokenResponse {
            let text =
                #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"Bearer","expires_in":3600"# + extra + "}"
            return try TokenResponse(try XCTUnwrap(JSON.parse(text).objectValue))
        }
        XCTAssertNil(try parse("").authorizationDetails)
        XCTAssertNil(try parse(#","authorization_details":null"#).authorizationDetails)
        let granted = try XCTUnwrap(try parse(#","authorization_details":"# + example).authorizationDetails)
        XCTAssertEqual(granted, try AuthorizationDetails(json: example))
        XCTAssertEqual(granted.text, compactExample)
        for bad in [#""payment_initiation""#, "[]", "{}", #"[{"type":1}]"#, #"["payment_initiation"]"#] {
            assertKind(.invalidResponse, try parse(#","authorization_details":"# + bad))
        }
    }

    /// RFC 9396 §6.1: the code exchange asks for particular details only when the host set them, and never
    /// by repeating the authorization request's (the user may have consented to less).
    func testTheCodeExchangeCarriesOnlyTheTokenDetailsSet() throws {
        let provider = MemoryProvider(discovery: false)
        provider.answer(.token, status: 200, body: #"{"access_token":"at","token_type":"Bearer","expires_in":300}"#)
        // No openid: the exchange is about the token request, not the ID token.
        let configuration = try testConfiguration([.scope: "payments", .tokenEndpoint: provider.url(.token)])
        let client = try OIDCClient(configuration: configuration, transport: provider)
        let subset = #"[{"type":"payment_initiation","actions":["initiate"]}]"#
        let request = SharedAuthorizationRequest(configuration: configuration)
        try request.setAuthorizationDetails(json: example)

        func exchange(_ pending: PendingAuthorization) throws -> FormParameters {
            _ = try client.exchangeCode(
                try pending.handleCallback("telenorid-example://authcallback/?code=c0de&state=\(pending.state)"))
            return try provider.lastForm(to: .token)
        }
        let before = try request.build()
        XCTAssertNil(try exchange(before)["authorization_details"])

        try request.setTokenAuthorizationDetails(json: subset)
        let pending = try request.build()
        // Not part of the authorization request: its URL names the authorized details only.
        XCTAssertEqual(try query(of: pending.url)["authorization_details"], compactExample)
        func unchanging(_ url: String) throws -> [String] {
            try pairs(of: url).filter { !["state", "nonce", "code_challenge"].contains($0.name) }.map {
                "\($0.name)=\($0.value)"
            }
        }
        XCTAssertEqual(try unchanging(pending.url), try unchanging(before.url))
        XCTAssertEqual(pending.tokenAuthorizationDetails, try AuthorizationDetails(json: subset))
        XCTAssertEqual(try exchange(pending)["authorization_details"], subset)

        // Saved while the browser is open and restored: still asked for.
        let saved = pending.serialized()
        let text = saved.string
        XCTAssertEqual(
            try XCTUnwrap(JSON.parse(text).objectValue)["token_authorization_details"], try JSON.parse(subset))
        let restored = try PendingAuthorization(restoring: saved, configuration: configuration)
        XCTAssertEqual(restored.tokenAuthorizationDetails, pending.tokenAuthorizationDetails)
        XCTAssertEqual(try exchange(restored)["authorization_details"], subset)
        var broken = try XCTUnwrap(JSON.parse(text).objectValue)
        broken.set("token_authorization_details", try JSON.parse("[]"))
        assertKind(
            .malformed,
            try PendingAuthorization(restoring: secret(JSON.serialize(.object(broken))), configuration: configuration))

        // Bad JSON is refused and leaves the request as it was; nil clears.
        for bad in ["[]", #"[{"actions":[]}]"#, "[{", ""] {
            assertKind(.invalidArgument, try request.setTokenAuthorizationDetails(json: bad))
        }
        XCTAssertEqual(request.current.tokenAuthorizationDetails, try AuthorizationDetails(json: subset))
        try request.setTokenAuthorizationDetails(json: nil)
        XCTAssertNil(try exchange(try request.build())["authorization_details"])
    }
}
