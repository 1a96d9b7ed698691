
/// An auth state store in a file: created with mode 0600, replaced atomically (a new file renamed over
/// the old), and locked with `flock` on a companion `<path>.lock` that is never replaced, since a lock on
/// the state file itself would be lost with the inode each save renames away.
public final class AuthStateFile: AuthStateStore {
    public let path: String
    private let lockPath: String
    /// flock excludes other open files, so threads of this process, each opening its own, exclude each
    /// other too; the mutex only spares them the system calls while one of them holds the file.
    private let inProcess = Locked<Bool>(false)  // the value is unused: the lock is the gate
    /// A state is a few kilobytes; anything far larger is not one.
    static let maximumBytes = 1 << 20

    public init(path: String) throws(TelenoridError) {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw TelenoridError(.invalidArgument, "the state file path is empty or holds a NUL")
        }
        self.path = path
        lockPath = path + ".lock"
    }

    public func withExclusiveAccess<T>(_ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
        try inProcess.withLock { _ throws(TelenoridError) -> T in
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw failure("cannot open the lock file \(lockPath)") }
            defer { close(descriptor) }  // closing releases the lock
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { throw failure("cannot lock \(lockPath)") }
            }
            return try body()
        }
    }

    public func load() throws(TelenoridError) -> SecretBytes? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open the state file \(path)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        // The buffer holds the refresh token: wiped before it is released.
        defer { Crypto.wipe(&bytes) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { Crypto.wipe(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the state file \(path)")
            }
            if count == 0 { break }
            guard bytes.count + count <= AuthStateFile.maximumBytes else {
                throw TelenoridError(.malformed, "the state file \(path) is larger than an auth state can be")
            }
            if bytes.capacity < bytes.count + count { bytes.reserveCapacity(AuthStateFile.maximumBytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard !bytes.isEmpty else { return nil }
        // Not checked for UTF-8 here: the JSON parser refuses any other encoding when it is restored.
        return SecretBytes(count: bytes.count) { out in
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(out).copyMemory(from: $0) }
        }
    }

    /// Writes the bytes in place: no copy of the tokens is made on the way to the file.
    public func save(_ serialized: SecretBytes) throws(TelenoridError) {
        var template = Array((path + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // mode 0600
        guard descriptor >= 0 else { throw failure("cannot create a file beside \(path)") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // a host's child processes get no copy of the tokens
        let temporary = String(cString: template)
        var written = false
        defer {
            close(descriptor)
            if !written { unlink(temporary) }
        }
        let complete = serialized.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard complete, fsync(descriptor) == 0 else { throw failure("cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure("cannot replace \(path)") }
        written = true
    }

    private func failure(_ what: String) -> TelenoridError {
        TelenoridError(.configuration, "\(what): \(String(cString: strerror(errno)))")
    }
}
