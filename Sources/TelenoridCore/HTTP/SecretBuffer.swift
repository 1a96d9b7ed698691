/// The request body as libcurl reads it: one buffer, wiped and freed when the transfer is over.
struct SecretBuffer: ~Copyable {
    let pointer: UnsafeMutableRawPointer
    let count: Int
    private let capacity: Int

    init(copying bytes: SecretBytes?) {
        count = bytes?.count ?? 0
        // At least one byte, so the pointer handed to CURLOPT_POSTFIELDS is valid even for an empty body.
        capacity = Swift.max(count, 1)
        pointer = .allocate(byteCount: capacity, alignment: 1)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        bytes?.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
    }

    deinit {
        Crypto.wipe(pointer, capacity)
        pointer.deallocate()
    }
}
