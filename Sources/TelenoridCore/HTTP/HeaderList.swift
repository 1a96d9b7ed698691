import CCurl

/// A curl_slist of request header lines. Freed on every exit, and each line is wiped first: an
/// Authorization header or client credentials would otherwise stay in freed heap memory.
struct HeaderList: ~Copyable {
    private(set) var head: UnsafeMutablePointer<curl_slist>? = nil

    /// Appends "name: value", or "name;" for an empty value (libcurl's syntax for sending an empty
    /// header; "name:" would remove it instead).
    mutating func append(name: String, value: String) throws(TelenoridError) {
        var value = value  // withUTF8 needs it mutable; no copy of the bytes
        try append(name: name, appended: value.withUTF8 { appendLine(name, UnsafeRawBufferPointer($0)) })
    }

    /// "name: value" for a secret value, copied from its wiping storage straight into the wiped line.
    mutating func append(name: String, value: SecretBytes) throws(TelenoridError) {
        try append(name: name, appended: value.withUnsafeBytes { appendLine(name, $0) })
    }

    /// "name:" tells libcurl not to send a header it would add by itself.
    mutating func appendRemoval(of name: String) throws(TelenoridError) {
        try append(name: name, appended: appendLine(name, nil))
    }

    private mutating func append(name: String, appended: UnsafeMutablePointer<curl_slist>?) throws(TelenoridError) {
        guard let appended else { throw TelenoridError(.network, "out of memory building request headers") }
        head = appended
    }

    /// The list with "name: value" (or "name;" for an empty value, "name:" for a nil one) appended, or nil
    /// when libcurl is out of memory. The line is built in a temporary buffer wiped before it goes.
    private func appendLine(_ name: String, _ value: UnsafeRawBufferPointer?) -> UnsafeMutablePointer<curl_slist>? {
        let separator: StaticString = value == nil ? ":" : value!.isEmpty ? ";" : ": "
        let value = value ?? UnsafeRawBufferPointer(start: nil, count: 0)
        var name = name  // withUTF8 needs it mutable; no copy of the bytes
        return name.withUTF8 { name in
            let count = name.count + separator.utf8CodeUnitCount + value.count + 1
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count) { line in
                defer { Crypto.wipe(line.baseAddress, count) }
                var end = UnsafeMutableRawPointer(line.baseAddress!)
                func copy(_ bytes: UnsafeRawPointer?, _ count: Int) {
                    guard let bytes, count > 0 else { return }
                    end.copyMemory(from: bytes, byteCount: count)
                    end += count
                }
                copy(name.baseAddress, name.count)
                copy(separator.utf8Start, separator.utf8CodeUnitCount)
                copy(value.baseAddress, value.count)
                end.storeBytes(of: 0, as: CChar.self)
                // libcurl copies the line into the new node.
                return curl_slist_append(head, line.baseAddress)
            }
        }
    }

    deinit {
        var node = head
        while let current = node {
            if let data = current.pointee.data { Crypto.wipe(data, strlen(data)) }
            node = current.pointee.next
        }
        curl_slist_free_all(head)
    }
}
