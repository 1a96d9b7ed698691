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
