extension String {
    /// Whether the string's UTF-8 holds `byte`, searched in its contiguous storage: the UTF8View's
    /// generic `contains` walks it a code unit at a time, which shows on every authorization URL.
    func containsByte(_ byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { $0.contains(byte) }
    }
}

extension String {
    /// What `String(decoding: bytes, as: UTF8.self)` gives, the bytes copied with one memmove.
    ///
    /// Not `String(decoding:as:)` itself: the Embedded standard library (Swift 6.3) copies the bytes into the
    /// new storage one element at a time (see `ByteCopy`), about ten instructions a byte, and every string a
    /// caller passes in, every JSON member and the claims an ID token check hands back are made here.
    /// `init(unsafeUninitializedCapacity:)` validates what was written (its all-ASCII test takes eight bytes
    /// at a time) and repairs invalid UTF-8 with U+FFFD as `String(decoding:as:)` does, so callers that
    /// checked the bytes lose nothing and those that did not get the same string as before.
    public init(copyingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self.init(unsafeUninitializedCapacity: bytes.count) { out in
            if let to = out.baseAddress { ByteCopy.copy(bytes, to: to) }
            return bytes.count
        }
    }

    /// `init(copyingUTF8:)` for bytes in an array slice.
    public init(copyingUTF8 bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBufferPointer { String(copyingUTF8: $0) }
    }
}
