import XCTest
@testable import TelenoridCore

/// A saved document as the host hands it back: wiping storage holding its bytes.
func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

func query(of url: String) throws -> FormParameters {
    let uri = try URI(parsing: url)
    return try FormParameters(parsing: (uri.query ?? "")[...])
}

/// The kind of the TelenoridError `body` throws; nil when it throws none or another error.
func errorKind(_ body: () throws -> Void) -> TelenoridError.Kind? {
    do { try body(); return nil } catch { return (error as? TelenoridError)?.kind }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = self.firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}

/// A FAPI 2.0 client authenticating with private_key_jwt, with DPoP: what the profile's checks of host-held
/// keys run against.
let fapi2PrivateKeyJWTSettings: [ClientConfiguration.Setting: String] = [
    .securityProfile: "fapi2", .clientAuthMethod: "private_key_jwt", .dpopSigningAlgorithm: "ES256"
]

/// A host signer for RFC 7638's RSA key with RS256, an algorithm the FAPI 2.0 profile refuses; it signs nothing.
func rs256HostSigner() throws -> HostKeySigner {
    try HostKeySigner(algorithm: "RS256", publicJWK: try XCTUnwrap(try JSON.parse(DPoPTests.rfc7638Key).objectValue)) {
        _ throws(TelenoridError) in []
    }
}
