import CTelenorid
import TelenoridCore

// The process-wide log callback (the header's "Logging" section).

/// The host's callback and its user data. The header makes the host responsible for the callback being
/// callable from any thread the library runs on, with this pointer, which is why it may be sent.
private struct HostLogCallback: @unchecked Sendable {
    let function: telenorid_log_callback
    let userData: UnsafeMutableRawPointer?

    func deliver(_ level: Log.Level, _ event: StaticString, _ message: String) {
        // Event names are literals: their storage is immortal and NUL-terminated.
        let eventPointer = UnsafeRawPointer(event.utf8Start).assumingMemoryBound(to: CChar.self)
        message.withCString { text in
            HostCallbackDepth.around { function(userData, level.rawValue, eventPointer, text) }
        }
    }
}

@c @implementation
public func telenorid_set_log_callback(
    _ callback: telenorid_log_callback?, _ userData: UnsafeMutableRawPointer?, _ minLevel: Int32
) -> telenorid_status {
    exportCall { () throws(TelenoridError) in
        guard let callback else { return Log.setSink(nil, minimumLevel: minLevel) }
        let host = HostLogCallback(function: callback, userData: userData)
        Log.setSink({ level, event, message in host.deliver(level, event, message) }, minimumLevel: minLevel)
    }
}
