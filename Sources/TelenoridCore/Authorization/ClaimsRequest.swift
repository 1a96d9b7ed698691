/// The OIDC `claims` request parameter (OIDC Core §5.5), with the per-claim and top-level `purpose`
/// that identity-assurance providers ask for (OIDC Core §5.5).
public struct ClaimsRequest: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case idToken, userinfo
        var member: String { self == .idToken ? "id_token" : "userinfo" }
    }

    public struct Claim: Sendable, Equatable {
        public var name: String
        public var essential: Bool?
        public var purpose: String?
        public var value: JSONValue?
        public var values: [JSONValue]?

        public init(
            name: String, essential: Bool? = nil, purpose: String? = nil, value: JSONValue? = nil,
            values: [JSONValue]? = nil
        ) {
            self.name = name
            self.essential = essential
            self.purpose = purpose
            self.value = value
            self.values = values
        }

        /// `null` when nothing qualifies the claim: OIDC Core's way to request it "in default manner".
        var json: JSONValue {
            var object = JSONObject()
            if let essential { object.set("essential", .bool(essential)) }
            if let value { object.set("value", value) }
            if let values { object.set("values", .array(values)) }
            if let purpose { object.set("purpose", .string(purpose)) }
            return object.count == 0 ? .null : .object(object)
        }
    }

    public private(set) var idToken: [Claim] = []
    public private(set) var userinfo: [Claim] = []
    public var purpose: String?

    public init() {}

    public var isEmpty: Bool { idToken.isEmpty && userinfo.isEmpty && purpose == nil }

    public mutating func add(_ claim: Claim, to target: Target) throws(TelenoridError) {
        guard !claim.name.isEmpty else { throw TelenoridError(.invalidArgument, "a claim needs a name") }
        if claim.value != nil && claim.values != nil {
            throw TelenoridError(
                .invalidArgument, "claim \"\(DisplayText.escaping(claim.name))\" has both value and values")
        }
        let existing = target == .idToken ? idToken : userinfo
        if existing.contains(where: { $0.name == claim.name }) {
            throw TelenoridError(
                .parameterConflict,
                "claim \"\(DisplayText.escaping(claim.name))\" is already requested for \(target.member)")
        }
        if target == .idToken { idToken.append(claim) } else { userinfo.append(claim) }
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let purpose { object.set("purpose", .string(purpose)) }
        for (target, claims) in [(Target.idToken, idToken), (.userinfo, userinfo)] where !claims.isEmpty {
            var members = JSONObject()
            for claim in claims { members.set(claim.name, claim.json) }
            object.set(target.member, .object(members))
        }
        return .object(object)
    }
}
