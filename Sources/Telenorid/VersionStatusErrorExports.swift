import CTelenorid
import TelenoridCore

// Versions, status strings, the last error and string ownership.

@c @implementation
public func telenorid_version() -> UInt32 {
    UInt32(TELENORID_VERSION_MAJOR) << 16 | UInt32(TELENORID_VERSION_MINOR) << 8 | UInt32(TELENORID_VERSION_PATCH)
}

@c @implementation
public func telenorid_version_string() -> UnsafePointer<CChar>? {
    StaticCStrings.version
}

@c @implementation
public func telenorid_status_str(_ status: telenorid_status) -> UnsafePointer<CChar>? {
    StaticCStrings.status(status)
}

@c @implementation
public func telenorid_status_is_transient(_ status: telenorid_status) -> Int32 {
    errorKind(status)?.isTransient == true ? 1 : 0
}

@c @implementation
public func telenorid_error_last() -> OpaquePointer? {
    guard let error = LastError.current else { return nil }
    return retainedHandle(ErrorCopy(error))
}

@c @implementation
public func telenorid_error_status(_ error: OpaquePointer?) -> telenorid_status {
    (try? borrow(error, as: ErrorCopy.self, "error"))?.value.status ?? TELENORID_E_INVALID_ARGUMENT
}

@c @implementation
public func telenorid_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let copy = try? borrow(error, as: ErrorCopy.self, "error").value else { return StaticCStrings.noError }
    return UnsafePointer(copy.message) ?? StaticCStrings.noError
}

@c @implementation
public func telenorid_error_oauth_error(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    UnsafePointer((try? borrow(error, as: ErrorCopy.self, "error"))?.value.oauthError)
}

@c @implementation
public func telenorid_error_oauth_description(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    UnsafePointer((try? borrow(error, as: ErrorCopy.self, "error"))?.value.oauthDescription)
}

@c @implementation
public func telenorid_error_oauth_uri(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
    UnsafePointer((try? borrow(error, as: ErrorCopy.self, "error"))?.value.oauthURI)
}

@c @implementation
public func telenorid_error_http_status(_ error: OpaquePointer?) -> Int32 {
    (try? borrow(error, as: ErrorCopy.self, "error"))?.value.httpStatus ?? 0
}

@c @implementation
public func telenorid_error_retry_after(_ error: OpaquePointer?) -> Int64 {
    (try? borrow(error, as: ErrorCopy.self, "error"))?.value.retryAfter ?? -1
}

@c @implementation
public func telenorid_error_free(_ error: OpaquePointer?) {
    release(error)
}

@c @implementation
public func telenorid_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    freeCString(string)
}
