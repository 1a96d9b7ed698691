/// The FAPI 2.0 Security Profile (final, February 2025), as far as a client configuration can break it.
///
/// Refusing a configuration when it is built puts the fault in front of the developer who wrote it, not
/// in front of a user at the first sign-in. The rules that hold at run time are enforced where they
/// apply: `iss` in the callback (`handleCallback`), the signing algorithms of provider JWSs
/// (`ClientConfiguration.acceptedAlgorithms`) and the TLS 1.2 cipher suites (`HTTPSettings`).
///
/// One departure, deliberate: §5.1.1 leaves public clients out of the profile's scope, and §5.3.3.1
/// item 2 asks for private_key_jwt or MTLS client authentication. A native app has no secret to keep,
/// so `none` is accepted too, but only with DPoP: the tokens it gets are then bound to a key that never
/// leaves the device, which is the property the profile's sender-constraining asks for.
enum FAPI2Profile {
    /// §5.4.1 item 1: JWTs are signed with PS256, ES256 or EdDSA (Ed25519), whoever creates them.
    static let algorithms: Set<String> = ["PS256", "ES256", "EdDSA"]

    /// §5.2.2 item 2: with TLS 1.2 a client permits only the cipher suites BCP 195 recommends (RFC 9325
    /// §4.2), here in OpenSSL's names. TLS 1.3 suites are all acceptable and are left alone; §5.2.1
    /// item 2's "TLS 1.2 or later" is what the transport always asks of libcurl.
    static let tls12CipherList =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
        + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384"

    /// §5.3.2.2: the provider issues `request_uri`s "with expires_in values of less than 600 seconds". A
    /// longer one would let a request pushed long before the user arrives (pre-generated, or leaked) still
    /// be redeemed, so a push answered with one is refused. The profile's other lifetime, authorization
    /// codes of at most 60 seconds (§5.3.2.2 too), is the provider's to enforce: the library cannot know
    /// when a code was issued, and exchanges it when the host hands over the callback.
    static let maxRequestURILifetime: Int64 = 600

    /// §5.4.1 item 1 for a key the host holds, checked when the host hands it over: the client's key (its
    /// assertions and request objects) and the DPoP key (its proofs are JWTs too, RFC 9449 §4.2), the
    /// `role` the message names.
    static func checkHostKey(algorithm: String, role: String) throws(TelenoridError) {
        guard algorithms.contains(algorithm) else {
            throw TelenoridError(
                .configuration,
                "FAPI 2.0 Security Profile §5.4.1 item 1: JWTs are signed with PS256, ES256 or EdDSA, "
                    + "and the \(role) signs \(algorithm)")
        }
    }

    /// §5.3.3.1 item 1 at sign-in, when the client knows whether the host set a DPoP signer: access tokens
    /// are sender-constrained, which this library does with DPoP (RFC 9449), for public clients too (above).
    static func checkSenderConstraint(hasDPoP: Bool) throws(TelenoridError) {
        guard hasDPoP else {
            throw TelenoridError(
                .configuration,
                """
                FAPI 2.0 Security Profile §5.3.3.1 item 1: access tokens are sender-constrained, \
                and this library does it with DPoP (RFC 9449): set dpop_signing_alg or a DPoP signer on the client
                """
            )
        }
    }

    /// Throws `.configuration` naming the first rule of the profile the configuration breaks.
    static func check(_ configuration: ClientConfiguration) throws(TelenoridError) {
        let method = configuration.clientAuthMethod
        // The algorithm client assertions (and request objects) are signed with, when the client has a
        // key; a host-held key is checked when the host sets it (`OIDCClient.setClientSigner`).
        let keyAlgorithm = configuration.clientPrivateKey?.algorithm
        let idTokenAlgorithms = configuration.idTokenAlgorithms ?? []

        let rules: [(broken: Bool, section: String, rule: String)] = [
            (
                configuration.allowPlainPKCE, "§5.3.3.2 item 3",
                "PKCE uses S256 only, so allow_plain_pkce must not be set"
            ),
            (
                method.name.hasPrefix("client_secret"), "§5.3.3.1 item 2",
                """
                clients authenticate with private_key_jwt (or MTLS, which this library does not do), \
                not \(method.name)
                """
            ),
            (
                configuration.allowBearerDowngrade, "§5.3.3.1 item 1",
                "access tokens are sender-constrained, so allow_bearer_downgrade must not be set"
            ),
            (
                configuration.clientAssertionAudience != .issuer, "§5.3.3.1 item 5",
                """
                a private_key_jwt assertion's aud is the issuer identifier, \
                so client_assertion_audience must be issuer
                """
            ),
            (
                keyAlgorithm.map { !algorithms.contains($0) } ?? false, "§5.4.1 item 1",
                "JWTs are signed with PS256, ES256 or EdDSA, and client_private_key signs \(keyAlgorithm ?? "")"
                    + " (an RSA key signs PS256 as a JWK with \"alg\":\"PS256\")"
            ),
            (
                !idTokenAlgorithms.isSubset(of: algorithms), "§5.4.1 item 1",
                "JWTs are signed with PS256, ES256 or EdDSA, so id_token_signing_algs must not list "
                    + idTokenAlgorithms.subtracting(algorithms).sorted().joined(separator: ", ")
            )
        ]
        if let broken = rules.first(where: { $0.broken }) {
            throw TelenoridError(.configuration, "FAPI 2.0 Security Profile \(broken.section): \(broken.rule)")
        }
    }
}
