/// Reads client configurations from JSON: one object of settings, or named environments such as
/// staging and production, each with its own issuer and client.
extension ClientConfiguration {
    public convenience init(json text: String, environment: String?) throws(TelenoridError) {
        try self.init(json: SecretBytes(Array(text.utf8)), environment: environment)
    }

    /// From a document held in wiping storage, as it may carry the client secret.
    public convenience init(json document: SecretBytes, environment: String?) throws(TelenoridError) {
        // The parser reads `document.bytes`, which shares the storage: the document must outlive it, or
        // its wipe would go to a copy of the storage and leave the original unwiped.
        try self.init(withExtendedLifetime(document) { () throws(TelenoridError) in
            try Self.settings(json: document.bytes, environment: environment)
        })
    }

    private static func settings(json bytes: [UInt8], environment: String?) throws(TelenoridError) -> Settings {
        let document: JSONValue
        let secrets: [String: SecretBytes]
        // A top-level client_secret goes straight into wiping storage, never into a String.
        do { (document, secrets) = try JSON.parse(bytes, secretMembers: [Setting.clientSecret.jsonName]) } catch {
            throw TelenoridError(.malformed, "configuration is not valid JSON: \(error.message)")
        }
        guard let root = document.objectValue else {
            throw TelenoridError(.configuration, "configuration must be a JSON object")
        }
        if let environments = root["environments"] {
            for key in Array(root.keys) + Array(secrets.keys) where key != "environments" && key != "default_environment" {
                throw TelenoridError(.configuration, "unknown member \"\(key)\" beside \"environments\"")
            }
            guard let table = environments.objectValue else {
                throw TelenoridError(.configuration, "\"environments\" must be an object of named settings")
            }
            guard let name = environment ?? root["default_environment"]?.stringValue else {
                throw TelenoridError(.configuration,
                                     "no environment chosen and no \"default_environment\"; have: \(table.keys.joined(separator: ", "))")
            }
            guard let chosen = table[name]?.objectValue else {
                throw TelenoridError(.configuration,
                                     "no environment \"\(name)\"; have: \(table.keys.joined(separator: ", "))")
            }
            var settings = try parseSettings(from: chosen)
            if settings[.environment] == nil { settings[.environment] = name }
            return settings
        }
        if let environment {
            throw TelenoridError(.configuration, "environment \"\(environment)\" asked for, but the document has no \"environments\"")
        }
        var settings = try parseSettings(from: root)
        settings.clientSecret = secrets[Setting.clientSecret.jsonName]
        return settings
    }

    static func parseSettings(from object: JSONObject) throws(TelenoridError) -> Settings {
        var settings = Settings()
        for (key, value) in object.members {
            if key == "scopes" {
                guard let scopes = value.stringArrayValue else {
                    throw TelenoridError(.configuration, "\"scopes\" must be an array of strings")
                }
                guard settings[.scope] == nil else {
                    throw TelenoridError(.configuration, "give \"scope\" or \"scopes\", not both")
                }
                settings[.scope] = scopes.joined(separator: " ")
                continue
            }
            guard let setting = Setting.allCases.first(where: { $0.jsonName == key }) else {
                throw TelenoridError(.configuration, "unknown configuration member \"\(key)\"")
            }
            if setting == .scope && settings[.scope] != nil {
                throw TelenoridError(.configuration, "give \"scope\" or \"scopes\", not both")
            }
            switch value {
            case .string(let text): settings[setting] = text
            case .bool(let flag) where setting.isFlag: settings[setting] = flag ? "true" : "false"
            case .number(let number) where setting.isNumeric: settings[setting] = number.text
            case .array(let items) where setting.isList:
                var words: [String] = []
                for item in items {
                    guard let word = item.stringValue else {
                        throw TelenoridError(.configuration, "\"\(key)\" must be an array of strings")
                    }
                    words.append(word)
                }
                settings[setting] = words.joined(separator: " ")
            default: throw TelenoridError(.configuration, "\"\(key)\" has the wrong type")
            }
        }
        return settings
    }
}
