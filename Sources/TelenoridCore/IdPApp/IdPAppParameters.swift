/// How the IdP-app flow reads the pairs other apps send: names it doesn't know are skipped (RFC 6749
/// §3.1: "The authorization server MUST ignore unrecognized request parameters"; the Salesforce Mobile
/// SDK identity provider's own SP sends `app_name`), names it knows may appear once.
extension FormParameters {
    /// Refuses a known name that appears twice: a second `state` or `code` could be read differently by
    /// two layers of a host. Parsed queries never repeat a name; pairs built in Swift can.
    func refuseRepeats(of names: Set<String>, in what: String) throws(TelenoridError) {
        var seen = Set<String>()
        for pair in pairs where names.contains(pair.name) && !seen.insert(pair.name).inserted {
            throw TelenoridError(.malformed, "\(what) repeats parameter \"\(pair.name)\"")
        }
    }

    /// The pairs whose names satisfy `keep`, in order.
    func keeping(_ keep: (String) -> Bool) -> FormParameters {
        var out = FormParameters(capacity: pairs.count)
        for pair in pairs where keep(pair.name) { out.appendUnique(pair.name, pair.value) }
        return out
    }

    /// The pairs as a URL on an app's URI (a custom scheme, iOS), which may have neither query nor fragment.
    public func url(onAppURI appURI: String) throws(TelenoridError) -> String {
        let base = try URI(parsing: appURI)
        guard base.query == nil, base.fragment == nil else {
            throw TelenoridError(.invalidArgument, "the app's URI must have neither query nor fragment")
        }
        return encoded(after: appURI + "?")
    }

    /// The response pairs of `redirect`, which must have arrived at `redirectURI`. A redirect URI may have
    /// a query of its own that "MUST be retained when adding additional query parameters" (RFC 6749
    /// §3.1.2), so the redirect's query is the redirect URI's pairs plus the response's. The redirect URI's
    /// pairs are part of where the redirect arrived: one missing or changed is another URI
    /// (`mismatch`), and they are not part of the response.
    init(redirect: String, arrivingAt redirectURI: URI, mismatch: String) throws(TelenoridError) {
        let uri = try URI(parsing: redirect)
        guard uri.hasSameOriginAndPath(as: redirectURI) else {
            throw TelenoridError(.redirectMismatch, mismatch)
        }
        let received = try FormParameters(parsing: (uri.query ?? "")[...])
        let own = try FormParameters(parsing: (redirectURI.query ?? "")[...])
        guard own.pairs.allSatisfy({ received[$0.name] == $0.value }) else {
            throw TelenoridError(.redirectMismatch, mismatch)
        }
        self = received.keeping { own[$0] == nil }
    }
}
