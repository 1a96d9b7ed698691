/// An `authorization_details` value (RFC 9396 §2): a non-empty JSON array of objects, each naming its
/// kind of authorization in a string `type`; every other member is the provider's and the API's business
/// and passes through untouched. The same type holds what the host asks for and what the token response
/// says was granted (RFC 9396 §7), so the two can be compared.
public final class AuthorizationDetails: Sendable, Equatable {
    /// The compact serialization, as it goes out in the request and into a saved pending authorization.
    public let text: String
    /// The parsed array.
    public let value: JSONValue

    /// Far above what real authorization details hold (RFC 9396's examples are a few hundred bytes), and
    /// small enough for a URL or a state file. The depth leaves room for the pending authorization that
    /// nests the value one level deeper and is read back under the parser's default limits.
    static let limits = JSONLimits(maxDepth: 32, maxBytes: 64 * 1024, maxStringBytes: 64 * 1024)

    /// The host's value, as JSON text.
    public convenience init(json text: String) throws(TelenoridError) {
        let value: JSONValue
        do { value = try JSON.parse(text, limits: Self.limits) } catch {
            throw TelenoridError(.invalidArgument, "authorization_details is not valid JSON: \(error.message)")
        }
        try self.init(value, kind: .invalidArgument, what: "authorization_details")
    }

    /// The value a token response carries (RFC 9396 §7).
    public convenience init(response value: JSONValue) throws(TelenoridError) {
        try self.init(value, kind: .invalidResponse, what: "the response's authorization_details")
    }

    /// Checks `value` against RFC 9396 §2 and the size bounds, failing with `kind`; `what` names the value's
    /// source in the message.
    init(_ value: JSONValue, kind: TelenoridError.Kind, what: String) throws(TelenoridError) {
        guard let items = value.arrayValue, !items.isEmpty else {
            throw TelenoridError(kind, "\(what) must be a non-empty JSON array (RFC 9396 §2)")
        }
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw TelenoridError(kind, "\(what)[\(index)] is not a JSON object (RFC 9396 §2)")
            }
            guard object["type"]?.stringValue != nil else {
                throw TelenoridError(kind, "\(what)[\(index)] has no string \"type\" (RFC 9396 §2)")
            }
        }
        // A value that did not come through `init(json:)` was parsed under the looser default limits.
        guard Self.fits(value, depth: Self.limits.maxDepth) else {
            throw TelenoridError(kind, "\(what) is nested deeper than \(Self.limits.maxDepth) levels")
        }
        let text = JSON.serialize(value)
        guard text.utf8.count <= Self.limits.maxBytes else {
            throw TelenoridError(kind, "\(what) is longer than \(Self.limits.maxBytes) bytes")
        }
        self.text = text
        self.value = value
    }

    /// Whether `value` nests no deeper than `depth` arrays and objects; the walk stops at the bound.
    private static func fits(_ value: JSONValue, depth: Int) -> Bool {
        switch value {
        case .array(let items): depth > 0 && items.allSatisfy { fits($0, depth: depth - 1) }
        case .object(let object): depth > 0 && object.members.allSatisfy { fits($0.value, depth: depth - 1) }
        default: true
        }
    }

    public static func == (lhs: AuthorizationDetails, rhs: AuthorizationDetails) -> Bool { lhs.value == rhs.value }
}
