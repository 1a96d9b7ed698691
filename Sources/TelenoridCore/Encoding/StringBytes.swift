extension String {
    /// Whether the string's UTF-8 holds `byte`, searched in its contiguous storage: the UTF8View's
    /// generic `contains` walks it a code unit at a time, which shows on every authorization URL.
    func containsByte(_ byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { $0.contains(byte) }
    }
}
