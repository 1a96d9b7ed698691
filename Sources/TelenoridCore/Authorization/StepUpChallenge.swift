/// A resource server's refusal of an access token because the sign-in behind it was too weak or too old
/// (RFC 9470): its 401 carries `WWW-Authenticate: Bearer error="insufficient_user_authentication"` (or
/// the `DPoP` scheme, for a DPoP-bound token: RFC 9449 §7.1), with the authentication level it wants in
/// `acr_values` and/or the freshness in `max_age` (§3).
///
/// A refreshed token would carry the same authentication, so the only way on is a new sign-in:
///
///     if response.status == 401, let header = response.header("WWW-Authenticate"),
///        let stepUp = try StepUpChallenge.parse(wwwAuthenticate: header) {
///         var request = AuthorizationRequest(configuration: configuration)
///         try request.applyStepUp(stepUp)
///         let pending = try request.build()   // then sign in again with pending.url
///     }
///
/// and call the resource again with the access token that sign-in gives (§4).
public struct StepUpChallenge: Sendable, Equatable {
    /// The authentication context classes the resource accepts, in its order of preference; nil when it
    /// named none.
    public var acrValues: [String]?
    /// How many seconds ago the user may at most have authenticated; nil when the resource set no limit.
    public var maxAge: Int64?
    /// The resource server's human-readable explanation, for logs: not for the user, as it is the
    /// server's wording and language.
    public var errorDescription: String?

    public init(acrValues: [String]? = nil, maxAge: Int64? = nil, errorDescription: String? = nil) {
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.errorDescription = errorDescription
    }

    /// The largest max_age an authorization request carries (10 digits, over 300 years): a longer one
    /// would be refused when applied, and asks for nothing a shorter one does not.
    static let maxAgeLimit: Int64 = 9_999_999_999

    /// The step-up challenge among the challenges of a `WWW-Authenticate` value (RFC 9110 §11.6.1), the
    /// first when there are several; nil when none is one: the 401 then means another problem (RFC 6750
    /// §3.1), which a new sign-in at a higher level would not solve. A step-up challenge whose `max_age`
    /// is not a non-negative decimal integer (RFC 9470 §3) is `.invalidResponse`: the resource's demand
    /// can't be known, so it can't be met.
    public static func parse(wwwAuthenticate: String) throws(TelenoridError) -> StepUpChallenge? {
        let found = AuthenticationChallenge.parse(wwwAuthenticate).first {
            ($0.scheme == "bearer" || $0.scheme == "dpop")
                && $0.parameter("error") == "insufficient_user_authentication"
        }
        guard let challenge = found else { return nil }
        var stepUp = StepUpChallenge(errorDescription: challenge.parameter("error_description"))
        if let text = challenge.parameter("acr_values") {
            // RFC 9470 §3: space-separated, as the authorization request's acr_values (OIDC Core §3.1.2.1).
            // Split on the byte: as Characters, a space followed by a combining mark is no space.
            let values = text.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
            stepUp.acrValues = values.isEmpty ? nil : values
        }
        if let text = challenge.parameter("max_age") {
            guard !text.isEmpty, text.utf8.allSatisfy(ASCII.isDigit), let seconds = Int64(text), seconds <= maxAgeLimit
            else {
                throw TelenoridError(
                    .invalidResponse,
                    """
                    the step-up challenge's max_age "\(DisplayText.escaping(String(text.prefix(32))))" \
                    is not a number of seconds of at most 10 digits (RFC 9470 §3)
                    """
                )
            }
            stepUp.maxAge = seconds
        }
        return stepUp
    }
}

extension AuthorizationRequest {
    /// Asks the new sign-in for what a step-up challenge demands (RFC 9470 §4): its acr values as
    /// `acr_values` and its `max_age`. The acr values also go into the `claims` parameter as an essential
    /// `acr` of the ID token, so the provider must meet one of them rather than treat them as a hint
    /// (OIDC Core §5.5.1.1), and the ID token's `acr` shows which it met. A request that already asks for
    /// the `acr` claim is refused (`.parameterConflict`): the two requests could disagree. Nothing is
    /// changed when it throws.
    public mutating func applyStepUp(_ challenge: StepUpChallenge) throws(TelenoridError) {
        var stepped = self
        if let acrValues = challenge.acrValues {
            try stepped.addClaim(
                ClaimsRequest.Claim(name: "acr", essential: true, values: acrValues.map { .string($0) }), to: .idToken)
            try stepped.set(.acrValues, acrValues.joined(separator: " "))
        }
        if let maxAge = challenge.maxAge { try stepped.set(.maxAge, String(maxAge)) }
        self = stepped
    }
}
