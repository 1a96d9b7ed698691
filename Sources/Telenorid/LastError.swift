import CTelenorid
import TelenoridCore

/// The thread-local "last error" (libgit2's git_error_last): each thread keeps the error of its own last
/// failing call until its next failing call.
enum LastError {
    private final class Slot { var error: TelenoridError? }

    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { slot in
            guard let slot else { return }
            Unmanaged<AnyObject>.fromOpaque(slot).release()
        }
        return created == 0 ? key : nil
    }()

    private static func slot() -> Slot? {
        guard let key else { return nil }
        if let existing = pthread_getspecific(key) {
            return Unmanaged<AnyObject>.fromOpaque(existing).takeUnretainedValue() as? Slot
        }
        let slot = Slot()
        let pointer = Unmanaged.passRetained(slot as AnyObject).toOpaque()
        guard pthread_setspecific(key, pointer) == 0 else {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            return nil
        }
        return slot
    }

    static func record(_ error: TelenoridError) { slot()?.error = error }

    static var current: TelenoridError? { slot()?.error }
}

/// An immutable copy of one error whose strings stay valid as long as the copy lives: the value of a
/// `telenorid_error` handle, so the strings are freed when the handle is.
final class ErrorCopy {
    let status: telenorid_status
    let httpStatus: Int32
    let retryAfter: Int64
    let message: UnsafeMutablePointer<CChar>?
    let oauthError: UnsafeMutablePointer<CChar>?
    let oauthDescription: UnsafeMutablePointer<CChar>?
    let oauthURI: UnsafeMutablePointer<CChar>?

    init(_ error: TelenoridError) {
        // A message with a NUL in it (from a hostile server's description) is handed out cut at the NUL
        // rather than lost.
        func copy(_ text: String?) -> UnsafeMutablePointer<CChar>? {
            guard let text else { return nil }
            let safe = String(decoding: text.utf8.prefix { $0 != 0 }, as: UTF8.self)
            return try? allocateCString(safe)
        }
        status = statusCode(error.kind)
        httpStatus = error.httpStatus.flatMap { Int32(exactly: $0) } ?? 0
        retryAfter = error.retryAfterSeconds ?? -1
        message = copy(error.message)
        oauthError = copy(error.oauthError)
        oauthDescription = copy(error.oauthErrorDescription)
        oauthURI = copy(error.oauthErrorURI)
    }

    deinit {
        for pointer in [message, oauthError, oauthDescription, oauthURI] { freeCString(pointer) }
    }
}
