import CTelenorid
import TelenoridCore

// Values across the C boundary: the caller's strings and string arrays, read and checked; strings copied
// out into memory the caller frees with telenorid_string_free; the caller's out pointers. The string helpers
// are kept out of line (`@inline(never)`): nearly every export calls them, and the optimizer would otherwise
// copy them into many of the exports' bodies.

// MARK: Strings in

/// Reads a caller's string: NULL, more than TELENORID_MAX_INPUT bytes, or invalid UTF-8 are refused.
@inline(never)
func inputString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(TelenoridError) -> String {
    String(copyingUTF8: try inputBytes(pointer, what))
}

/// `inputString` for a secret (a client secret, a configuration document holding one), copied straight
/// into wiping storage: a String would leave it in freed memory.
@inline(never)
func inputSecret(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(TelenoridError) -> SecretBytes {
    let bytes = try inputBytes(pointer, what)
    return SecretBytes(count: bytes.count) {
        UnsafeMutableRawBufferPointer($0).copyMemory(from: UnsafeRawBufferPointer(bytes))
    }
}

/// The caller's bytes in place, checked as `inputString` describes.
private func inputBytes(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(TelenoridError) -> UnsafeBufferPointer<
    UInt8
> {
    guard let pointer else { throw TelenoridError(.invalidArgument, "\(what) is NULL") }
    let limit = Int(TELENORID_MAX_INPUT)
    // strnlen stops at the limit, so a missing terminator past it is never read further.
    let length = strnlen(pointer, limit + 1)
    guard length <= limit else {
        throw TelenoridError(.invalidArgument, "\(what) is longer than \(limit) bytes")
    }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length).assumingMemoryBound(to: UInt8.self)
    guard ValidUTF8.isValid(bytes) else {
        throw TelenoridError(.invalidArgument, "\(what) is not valid UTF-8")
    }
    return bytes
}

/// Like `inputString`, but NULL means "not given".
@inline(never)
func optionalInputString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(TelenoridError) -> String? {
    guard pointer != nil else { return nil }
    return try inputString(pointer, what)
}

/// Reads a caller's HTTP status code (`http_status`): 100 to 599 (RFC 9110 §15), anything else refused.
func inputHTTPStatus(_ status: Int32) throws(TelenoridError) -> Int {
    guard (100...599).contains(status) else {
        throw TelenoridError(.invalidArgument, "http_status \(status) is not an HTTP status code")
    }
    return Int(status)
}

/// Reads a caller's array of `count` strings; NULL is accepted only for an empty array.
@inline(never)
func inputStrings(_ pointer: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ what: String) throws(TelenoridError)
    -> [String]
{
    guard count > 0 else { return [] }
    guard let pointer else { throw TelenoridError(.invalidArgument, "\(what) is NULL") }
    guard count <= 4096 else { throw TelenoridError(.invalidArgument, "\(what) has more than 4096 entries") }
    var out: [String] = []
    for index in 0..<count { out.append(try inputString(pointer[index], "\(what)[\(index)]")) }
    return out
}

// MARK: Strings out

/// A copy of `text` in malloc'd memory for the caller, released by telenorid_string_free.
@inline(never)
func allocateCString(_ text: String) throws(TelenoridError) -> UnsafeMutablePointer<CChar> {
    var text = text
    return try text.withUTF8 { copyCString(UnsafeRawBufferPointer($0)) }.get()
}

/// The same for bytes held in memory of their own (a secret's storage), which are copied straight to
/// the caller's memory: no intermediate String is left behind in freed heap memory.
@inline(never)
func allocateCString(bytes: UnsafeRawBufferPointer) throws(TelenoridError) -> UnsafeMutablePointer<CChar> {
    try copyCString(bytes).get()
}

private func copyCString(_ bytes: UnsafeRawBufferPointer) -> Result<UnsafeMutablePointer<CChar>, TelenoridError> {
    // A NUL inside would make the C string silently shorter than the value (a "%00" in a callback, say).
    if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
        return .failure(
            TelenoridError(.malformed, "the value holds a NUL character and can't be handed out as a C string"))
    }
    guard let memory = malloc(bytes.count + 1) else {
        return .failure(TelenoridError(.invalidArgument, "out of memory copying a string"))
    }
    if let base = bytes.baseAddress { memcpy(memory, base, bytes.count) }
    memory.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
    return .success(memory.assumingMemoryBound(to: CChar.self))
}

func freeCString(_ pointer: UnsafeMutablePointer<CChar>?) {
    guard let pointer else { return }
    TelenoridCore.Crypto.wipe(pointer, strlen(pointer))
    free(pointer)
}

// MARK: Outputs

func outPointer<T>(_ pointer: UnsafeMutablePointer<T>?) throws(TelenoridError) -> UnsafeMutablePointer<T> {
    guard let pointer else { throw nullOutput() }
    return pointer
}

/// `outPointer`'s error, made once out of line rather than in each of its specializations.
@inline(never)
private func nullOutput() -> TelenoridError { TelenoridError(.invalidArgument, "out is NULL") }

/// Writes a string output: the copy is made first, so a failure writes nothing.
@inline(never)
func writeString(_ text: String?, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws(TelenoridError) {
    out.pointee = try text.map { value throws(TelenoridError) in try allocateCString(value) }
}

/// writeString for a secret (a verifier, a token), copied from its own storage.
@inline(never)
func writeSecret(_ secret: SecretBytes?, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
    throws(TelenoridError)
{
    guard let secret else {
        out.pointee = nil
        return
    }
    out.pointee = try secret.withUnsafeBytes { copyCString($0) }.get()
}
