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
    /// when libcurl is out of memory. The line is built in a buffer wiped before it is freed.
    private func appendLine(_ name: String, _ value: UnsafeRawBufferPointer?) -> UnsafeMutablePointer<curl_slist>? {
        let separator = value == nil ? ":" : value!.isEmpty ? ";" : ": "
        let count = name.utf8.count + separator.utf8.count + (value?.count ?? 0) + 1
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer {
            Crypto.wipe(line, count)
            line.deallocate()
        }
        var offset = 0
        for byte in name.utf8 { line[offset] = byte; offset += 1 }
        for byte in separator.utf8 { line[offset] = byte; offset += 1 }
        for byte in value ?? UnsafeRawBufferPointer(start: nil, count: 0) { line[offset] = byte; offset += 1 }
        line[offset] = 0
        // libcurl copies the line into the new node.
        return line.withMemoryRebound(to: CChar.self, capacity: count) { curl_slist_append(head, $0) }
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
