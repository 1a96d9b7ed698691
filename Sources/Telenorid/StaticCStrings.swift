import CTelenorid
import TelenoridCore

/// NUL-terminated strings that live as long as the library: the version and the status names. They are
/// static string literals, whose storage is immortal, so the pointers handed out never dangle.
enum StaticCStrings {
    // Must equal TELENORID_VERSION_STRING (imported only as a String, which has no immortal pointer):
    // scripts/check_facts.py and the C tests compare the two.
    static var version: UnsafePointer<CChar> { pointer("0.8.0") }
    static var noError: UnsafePointer<CChar> { pointer("no error") }

    /// The name of a status: its error kind's (`TelenoridError.Kind.name`, the one home of the names).
    static func status(_ status: telenorid_status) -> UnsafePointer<CChar> {
        if status == TELENORID_OK { return pointer("ok") }
        guard let kind = errorKind(status) else { return pointer("unknown status") }
        return pointer(kind.name)
    }

    private static func pointer(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
