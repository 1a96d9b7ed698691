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
        try self.init(
            withExtendedLifetime(document) { () throws(TelenoridError) in
                try Self.settings(json: document.bytes, environment: environment)
            })
    }

    /// The secret settings' member names: read straight into wiping storage wherever settings are.
    private static let secretNames = Set(Setting.allCases.filter { $0.isSecret }.map { $0.name })

    private static func settings(json bytes: [UInt8], environment: String?) throws(TelenoridError) -> Settings {
        // Top-level secrets go straight into wiping storage, never into Strings; so does "environments",
        // as its JSON text, whose environments are read the same way below.
        let (root, secrets) = try object(bytes, secretMembers: secretNames, secretObjectMembers: ["environments"])
        if let environments = secrets["environments"] {
            for key in Array(root.keys) + Array(secrets.keys)
            where key != "environments" && key != "default_environment" {
                throw TelenoridError(
                    .configuration, "unknown member \"\(DisplayText.escaping(key))\" beside \"environments\"")
            }
            // Each environment comes back as its JSON text, still unread.
            let (others, table) = try withExtendedLifetime(environments) { () throws(TelenoridError) in
                try object(environments.bytes, secretMembers: [], secretObjectMembers: .all)
            }
            if let name = others.keys.first {
                throw TelenoridError(
                    .configuration, "environment \"\(DisplayText.escaping(name))\" must be an object of settings")
            }
            let names = table.keys.joined(separator: ", ")
            guard let name = environment ?? root["default_environment"]?.stringValue else {
                throw TelenoridError(
                    .configuration,
                    "no environment chosen and no \"default_environment\"; have: \(DisplayText.escaping(names))")
            }
            guard let chosen = table[name] else {
                throw TelenoridError(
                    .configuration,
                    "no environment \"\(DisplayText.escaping(name))\"; have: \(DisplayText.escaping(names))")
            }
            var settings = try withExtendedLifetime(chosen) { () throws(TelenoridError) in
                let (object, secrets) = try object(chosen.bytes, secretMembers: secretNames, secretObjectMembers: [])
                return try parseSettings(from: object, secrets: secrets)
            }
            if settings[.environment] == nil { settings[.environment] = name }
            return settings
        }
        if root["environments"] != nil {
            throw TelenoridError(.configuration, "\"environments\" must be an object of named settings")
        }
        if let environment {
            throw TelenoridError(
                .configuration,
                """
                environment "\(DisplayText.escaping(environment))" asked for, \
                but the document has no "environments"
                """
            )
        }
        return try parseSettings(from: root, secrets: secrets)
    }

    private static func object(
        _ bytes: [UInt8], secretMembers: Set<String>,
        secretObjectMembers: SecretObjectMembers
    ) throws(TelenoridError) -> (JSONObject, [String: SecretBytes]) {
        let parsed: (JSONValue, [String: SecretBytes])
        do {
            parsed = try JSON.parse(bytes, secretMembers: secretMembers, secretObjectMembers: secretObjectMembers)
        } catch {
            throw TelenoridError(.malformed, "configuration is not valid JSON: \(error.message)")
        }
        guard let object = parsed.0.objectValue else {
            throw TelenoridError(.configuration, "configuration must be a JSON object")
        }
        return (object, parsed.1)
    }

    private static func setting(named name: String) throws(TelenoridError) -> Setting {
        guard let setting = Setting(named: name) else {
            throw TelenoridError(.configuration, "unknown configuration member \"\(DisplayText.escaping(name))\"")
        }
        return setting
    }

    /// The settings of `object`, and the secret ones the parser kept aside in wiping storage.
    private static func parseSettings(from object: JSONObject, secrets: [String: SecretBytes]) throws(TelenoridError)
        -> Settings
    {
        var settings = Settings()
        for (name, secret) in secrets { settings[secret: try setting(named: name)] = secret }
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
            let setting = try setting(named: key)
            if setting == .scope && settings[.scope] != nil {
                throw TelenoridError(.configuration, "give \"scope\" or \"scopes\", not both")
            }
            switch value {
            case .string(let text): settings[setting] = text
            case .bool(let flag) where setting.kind == .flag: settings[setting] = flag ? "true" : "false"
            case .number(let number) where setting.isNumber: settings[setting] = number.text
            case .array(let items) where setting.kind == .list:
                var words: [String] = []
                for item in items {
                    guard let word = item.stringValue else {
                        throw TelenoridError(
                            .configuration, "\"\(DisplayText.escaping(key))\" must be an array of strings")
                    }
                    words.append(word)
                }
                settings[setting] = words.joined(separator: " ")
            default: throw TelenoridError(.configuration, "\"\(DisplayText.escaping(key))\" has the wrong type")
            }
        }
        return settings
    }
}
