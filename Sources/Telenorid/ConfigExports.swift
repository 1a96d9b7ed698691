import CTelenorid
import TelenoridCore

// Client configuration: a mutable builder, an immutable configuration, and JSON documents.

/// The setting of a configuration key: the core's key table numbers its settings as the header does.
private func setting(_ key: telenorid_config_key) throws(TelenoridError) -> ClientConfiguration.Setting {
    guard let setting = ClientConfiguration.Setting(number: key) else {
        throw TelenoridError(.invalidArgument, "unknown configuration key \(key)")
    }
    return setting
}

@c @implementation
public func telenorid_config_builder_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        try outPointer(out).pointee = retainedHandle(ClientConfiguration.Settings())
    }
}

@c @implementation
public func telenorid_config_builder_set(
    _ builder: OpaquePointer?, _ key: telenorid_config_key,
    _ value: UnsafePointer<CChar>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(builder, as: ClientConfiguration.Settings.self, "builder")
        let setting = try setting(key)
        if setting.isSecret {
            handle.value[secret: setting] = value == nil ? nil : try inputSecret(value, "value")
        } else {
            handle.value[setting] = try optionalInputString(value, "value")
        }
    }
}

@c @implementation
public func telenorid_config_builder_build(
    _ builder: OpaquePointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let handle = try borrow(builder, as: ClientConfiguration.Settings.self, "builder")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientConfiguration(handle.value))
    }
}

@c @implementation
public func telenorid_config_builder_free(_ builder: OpaquePointer?) {
    release(builder)
}

@c @implementation
public func telenorid_config_from_json(
    _ json: UnsafePointer<CChar>?, _ environment: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        // The document may hold the client secret.
        let document = try inputSecret(json, "json")
        let name = try optionalInputString(environment, "environment")
        let out = try outPointer(out)
        out.pointee = retainedHandle(try ClientConfiguration(json: document, environment: name))
    }
}

@c @implementation
public func telenorid_config_get(
    _ config: OpaquePointer?, _ key: telenorid_config_key,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        let configuration = try borrow(config, as: ClientConfiguration.self, "config").value
        let setting = try setting(key)
        let out = try outPointer(out)
        let settings = configuration.settings
        if setting.isSecret {
            try writeSecret(settings[secret: setting], to: out)
        } else {
            try writeString(settings[setting], to: out)
        }
    }
}

@c @implementation
public func telenorid_config_free(_ config: OpaquePointer?) {
    release(config)
}
