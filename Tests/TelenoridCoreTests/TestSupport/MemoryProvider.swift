import XCTest
@testable import TelenoridCore

/// An OpenID provider served from memory. Its discovery document (OIDC Discovery 1.0 §4) is built from members
/// the test sets; each other endpoint under the issuer answers the status and JSON body the test set for it (404
/// when nothing was set); every request is recorded, and `failure`, when set, makes every request fail as a
/// transport would. With `checksDPoPProofs` it checks a request's DPoP proof as RFC 9449 §4.3 asks of a server
/// (typ, signature by the header's key) and refuses a bad one with `invalid_dpop_proof`.
final class MemoryProvider: HTTPTransport, Sendable {
    /// The endpoints, as paths under the issuer.
    enum Endpoint: String, Sendable {
        case discovery = "/.well-known/openid-configuration"
        /// RFC 8414 §3 metadata at the issuer-appended location, as providers mounted under a path serve it.
        case authorizationServerMetadata = "/.well-known/oauth-authorization-server"
        case jwks = "/jwks"
        case token = "/token"
        case userinfo = "/userinfo"
        /// RFC 9126 §2.
        case par = "/par"
        /// RFC 7009 §2.
        case revocation = "/revoke"
        /// RFC 8628 §3.1.
        case device = "/device"
        /// OpenID CIBA Core 1.0 §7.1.
        case backchannel = "/bc-authorize"
    }

    let issuer: String
    /// The discovery document's members in order, each value as JSON text; nil: no discovery document (404).
    let metadata: Locked<[(name: String, json: String)]?>
    /// What each endpoint other than discovery answers: a status and a JSON body.
    let answers = Locked<[Endpoint: (status: Int, body: String)]>([:])
    /// Answers given once each, in order, before `answers` (a token endpoint polled through a grant).
    let queued = Locked<[Endpoint: [HTTPResponse]]>([:])
    /// Lasting answers made per request from its number among all requests (1 for the first), e.g. a
    /// new access token each time; taken before `answers`.
    let responders = Locked<[Endpoint: @Sendable (Int) -> HTTPResponse]>([:])
    let requests = Locked<[HTTPRequest]>([])
    let failure = Locked<TelenoridError?>(nil)
    let checksDPoPProofs: Bool

    /// A provider whose discovery document names the issuer, its authorization and its token endpoint; with
    /// `discovery` false it serves none.
    init(issuer: String = "https://id.example.com", discovery: Bool = true, checksDPoPProofs: Bool = false) {
        self.issuer = issuer
        self.checksDPoPProofs = checksDPoPProofs
        let members = [
            ("issuer", Self.quoted(issuer)), ("authorization_endpoint", Self.quoted(issuer + "/authorize")),
            ("token_endpoint", Self.quoted(issuer + "/token"))
        ]
        metadata = Locked(discovery ? members : nil)
    }

    func url(_ endpoint: Endpoint) -> String { issuer + endpoint.rawValue }

    /// Sets the discovery member `name` to the JSON text `json`, in its place when it is there already.
    func advertise(_ name: String, json: String) {
        metadata.withLock { members in
            guard var list = members else { return XCTFail("advertising \(name) on a provider without discovery") }
            if let index = list.firstIndex(where: { $0.name == name }) {
                list[index].json = json
            } else {
                list.append((name, json))
            }
            members = list
        }
    }

    func advertise(_ name: String, string: String) { advertise(name, json: Self.quoted(string)) }

    func advertise(_ name: String, strings: [String]) {
        advertise(name, json: "[" + strings.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// Advertises `endpoint`'s URL under `name`.
    func advertise(_ name: String, endpoint: Endpoint) { advertise(name, string: url(endpoint)) }

    func answer(_ endpoint: Endpoint, status: Int, body: String) { answers.withLock { $0[endpoint] = (status, body) } }

    /// Queues answers `endpoint` gives one by one, before its lasting answer.
    func queue(_ endpoint: Endpoint, _ list: [(status: Int, body: String)]) {
        queue(endpoint, responses: list.map { Self.json($0.status, $0.body) })
    }

    func queue(_ endpoint: Endpoint, responses: [HTTPResponse]) {
        queued.withLock { $0[endpoint, default: []] += responses }
    }

    func answer(_ endpoint: Endpoint, _ responder: @escaping @Sendable (Int) -> HTTPResponse) {
        responders.withLock { $0[endpoint] = responder }
    }

    /// The last request and its DPoP proof's header and claims (nil without a proof).
    var last: (request: HTTPRequest, proof: (header: JSONObject, claims: JSONObject)?) {
        get throws {
            let request = try XCTUnwrap(requests.withLock { $0.last })
            let proof = try request.headers.first { $0.name == "DPoP" }.map { try Self.verifiedProof($0.value) }
            return (request, proof)
        }
    }

    var count: Int { requests.withLock { $0.count } }

    /// A DPoP proof's header and claims once its type and signature (by the key in its header) check out.
    static func verifiedProof(_ proof: String) throws -> (header: JSONObject, claims: JSONObject) {
        let jws = try JWS(compact: proof)
        guard jws.header["typ"]?.stringValue == "dpop+jwt", let jwk = jws.header["jwk"]?.objectValue else {
            throw TelenoridError(.tokenInvalid, "not a DPoP proof")
        }
        try jws.verify(with: try JWK(jwk))
        return (jws.header, try JSON.parse(jws.payload).objectValue ?? JSONObject())
    }

    func requests(to endpoint: Endpoint) -> [HTTPRequest] {
        requests.withLock { $0.filter { $0.url == url(endpoint) } }
    }

    /// The form of the last request to `endpoint`.
    func lastForm(to endpoint: Endpoint) throws -> FormParameters {
        let request = try XCTUnwrap(requests(to: endpoint).last)
        return try FormParameters(parsing: try XCTUnwrap(request.body).string[...])
    }

    func send(_ request: HTTPRequest) throws(TelenoridError) -> HTTPResponse {
        let number = requests.withLock {
            $0.append(request)
            return $0.count
        }
        if let failure = failure.withLock({ $0 }) { throw failure }
        if checksDPoPProofs, let proof = request.headers.first(where: { $0.name == "DPoP" }),
            (try? Self.verifiedProof(proof.value)) == nil
        {
            return Self.json(400, #"{"error":"invalid_dpop_proof"}"#)
        }
        let path = request.url.hasPrefix(issuer) ? String(request.url.dropFirst(issuer.count)) : nil
        let endpoint = path.flatMap(Endpoint.init(rawValue:))
        if endpoint == .discovery, let members = metadata.withLock({ $0 }) {
            let document = members.map { "\(Self.quoted($0.name)):\($0.json)" }.joined(separator: ",")
            return Self.json(200, "{" + document + "}")
        }
        guard let endpoint else { return HTTPResponse(status: 404, headers: [], body: []) }
        if let next = queued.withLock({ queue in
            queue[endpoint]?.isEmpty == false ? queue[endpoint]?.removeFirst() : nil
        }) {
            return next
        }
        if let responder = responders.withLock({ $0[endpoint] }) { return responder(number) }
        guard let answer = answers.withLock({ $0[endpoint] }) else {
            return HTTPResponse(status: 404, headers: [], body: [])
        }
        return Self.json(answer.status, answer.body)
    }

    static func json(_ status: Int, _ body: String, _ headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "application/json")] + headers, body: Array(body.utf8))
    }

    /// `text` as a JSON string; the tests' values need no escapes.
    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
