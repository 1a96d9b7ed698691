/// The two JSON bodies of the Aloha line authentication exchange (TelenorID+ SDK guide, "Line
/// authentication"): the prepare answer naming the inject path, and the session answer at the end.
/// Both come from the network, so every member is checked for type and range; nothing here traps.
public enum AlohaMessages {
    /// Bodies are tiny; anything larger is not Aloha.
    static let limits = JSONLimits(maxDepth: 8, maxBytes: 16 << 10, maxStringBytes: 4 << 10)
    /// A session valid for longer than a day is not what Aloha issues; refusing it keeps the expiry
    /// arithmetic far from overflow whatever the server sends.
    public static let maxValiditySeconds: Int64 = 86_400

    /// `injectPath` from the prepare response.
    public static func injectPath(fromPrepare body: [UInt8]) throws(TelenoridError) -> String {
        let object = try object(body, "prepare")
        guard let member = object["injectPath"] else {
            throw TelenoridError(.invalidResponse, "Aloha prepare response has no \"injectPath\"")
        }
        guard let path = member.stringValue, !path.isEmpty else {
            throw TelenoridError(.invalidResponse, "Aloha prepare response's \"injectPath\" is not a non-empty string")
        }
        return path
    }

    /// The session id (`uuid`) and its validity in seconds (`exp`) from the final response.
    public static func session(from body: [UInt8]) throws(TelenoridError) -> (uuid: String, validSeconds: Int64) {
        let object = try object(body, "session")
        guard let uuid = object["uuid"]?.stringValue, !uuid.isEmpty else {
            throw TelenoridError(.invalidResponse, "Aloha session response has no \"uuid\" string")
        }
        // It becomes a URL parameter value: printable ASCII only, so nothing odd reaches the authorize URL.
        guard uuid.utf8.count <= 256, uuid.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw TelenoridError(.invalidResponse, "Aloha session \"uuid\" is not a printable ASCII token")
        }
        guard let exp = object["exp"] else {
            throw TelenoridError(.invalidResponse, "Aloha session response has no \"exp\"")
        }
        // "exp" is the number of seconds the session is valid; some servers send it as a string of digits.
        let seconds: Int64?
        if let number = exp.int64Value {
            seconds = number
        } else if let text = exp.stringValue {
            seconds = Int64(text)
        } else {
            seconds = nil
        }
        guard let seconds else {
            throw TelenoridError(.invalidResponse, "Aloha session \"exp\" is not a whole number of seconds")
        }
        guard seconds > 0 else {
            throw TelenoridError(.invalidResponse, "Aloha session is already expired (\"exp\" is \(seconds))")
        }
        guard seconds <= maxValiditySeconds else {
            throw TelenoridError(
                .invalidResponse, "Aloha session \"exp\" of \(seconds) s is beyond the \(maxValiditySeconds) s accepted"
            )
        }
        return (uuid, seconds)
    }

    private static func object(_ body: [UInt8], _ what: String) throws(TelenoridError) -> JSONObject {
        let value: JSONValue
        do { value = try JSON.parse(body, limits: limits) } catch {
            throw TelenoridError(.invalidResponse, "Aloha \(what) response is not JSON: \(error.message)")
        }
        guard let object = value.objectValue else {
            throw TelenoridError(.invalidResponse, "Aloha \(what) response is not a JSON object")
        }
        return object
    }
}
