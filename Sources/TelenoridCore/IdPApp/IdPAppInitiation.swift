/// IdP-initiated sign-in (Salesforce Mobile SDK identity provider flow): the IdP app launches an SP app for
/// a user the person chose among those signed in to it, with `user_hint` ("a loop-back param for a selected
/// user") and the `login_host` that user signs in at. The SP app starts its own request (`IdPAppRequest`)
/// with that hint looped back, and the IdP app, recognising the user, asks the provider for the code without
/// a login screen. Nothing secret travels: the hint names a user, it proves nothing.
public enum IdPAppInitiation {
    /// The IdP side: the message for the chosen user, as pairs (the Android intent bundle).
    public static func parameters(userHint: String, loginHost: String) throws(TelenoridError) -> FormParameters {
        try check(userHint, loginHost, .invalidArgument)
        var out = FormParameters()
        out.appendUnique("user_hint", userHint)
        out.appendUnique("login_host", loginHost)
        return out
    }

    /// The same as a URL on the SP app's URI (iOS custom scheme), e.g. `spapp://idp-initiated`.
    public static func url(spAppURI: String, userHint: String, loginHost: String) throws(TelenoridError) -> String {
        try parameters(userHint: userHint, loginHost: loginHost).url(onAppURI: spAppURI)
    }

    /// The SP side, Android: the hint and login host from the IdP app's pairs. Unknown pairs are ignored
    /// (RFC 6749 §3.1, as everywhere in this flow); each known one must be there once.
    public static func read(_ parameters: FormParameters) throws(TelenoridError) -> (
        userHint: String, loginHost: String
    ) {
        var hint: String?, host: String?, repeated = false
        for pair in parameters.pairs {
            if pair.name == "user_hint" {
                repeated = repeated || hint != nil
                hint = pair.value
            } else if pair.name == "login_host" {
                repeated = repeated || host != nil
                host = pair.value
            }
        }
        guard !repeated, let hint, let host else {
            throw TelenoridError(.malformed, "the IdP app's initiation must carry user_hint and login_host once each")
        }
        try check(hint, host, .malformed)
        return (hint, host)
    }

    /// The SP side, iOS: the IdP app's URL, which must be on the SP app's own URI `spAppURI`.
    public static func read(url: String, spAppURI: String) throws(TelenoridError) -> (
        userHint: String, loginHost: String
    ) {
        try read(
            FormParameters(
                redirect: url, arrivingAt: URI(parsing: spAppURI),
                mismatch: "the IdP app's initiation did not arrive at the SP app's URI"))
    }

    /// A hint is a handle to an account (the Salesforce Mobile SDK's is "orgId:userId"), not free text:
    /// 1 to 255 printable ASCII characters (RFC 6749's VSCHAR, %x20-7E), as the SP shows it, logs it and
    /// sends it on as login_hint, so no control character or line break may ride along.
    static func check(_ userHint: String, _ loginHost: String, _ kind: TelenoridError.Kind) throws(TelenoridError) {
        var printable = (1...255).contains(userHint.utf8.count)
        for byte in userHint.utf8 where byte < 0x20 || byte > 0x7E { printable = false }
        guard printable else { throw TelenoridError(kind, "user_hint must be 1 to 255 printable ASCII characters") }
        try IdPAppRequest.checkLoginHost(loginHost, kind)
    }
}
