/// Byte copies as one `memmove`.
///
/// Not `UnsafeMutablePointer<UInt8>.update(from:count:)`: the standard library makes that one memmove, but
/// the Embedded standard library (Swift 6.3), which the shipped library is built with, copies element by
/// element through an outlined value-witness call per byte. That was a tenth of an authorization URL's
/// instructions and made `telenorid_pkce_generate` slower than in the standard build (README, "Speed").
public enum ByteCopy {
    /// Copies all of `source` to `target`, which must have room for it.
    @inline(__always)
    public static func copy(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let from = source.baseAddress else { return }
        UnsafeMutableRawPointer(target).copyMemory(from: from, byteCount: source.count)
    }
}
