/// An auth state store in a file: created with mode 0600, replaced atomically (a new file renamed over
/// the old, then the directory synced so the rename survives a crash), and locked with `flock` on
/// companion files that are never replaced, since a lock on the state file itself would be lost with the
/// inode each save renames away: `<path>.lock` for the exclusive lock, `<path>.update.lock` for the
/// update lock (`AuthStateStore`).
///
/// The wait for the lock is bounded: a process stopped while it holds it (a debugger, Ctrl-Z, a signer
/// waiting for a fingerprint) makes the others fail with `.temporarilyUnavailable` after
/// `lockTimeoutMilliseconds`, naming the lock and its holder's pid, which each holder writes into the lock
/// file. A state or lock path that is not a regular file (a FIFO, a directory, a device, a symbolic link) is
/// refused at once rather than opened: opening a FIFO would block, and a symbolic link would be replaced
/// by the first save anyway.
public final class AuthStateFile: AuthStateStore {
    public let path: String
    let lockPath: String
    let updateLockPath: String
    /// How long to wait for another process to release a lock. The exports pass the client's total HTTP
    /// timeout: as long as one request of the refresh that holds the lock may take.
    public let lockTimeoutMilliseconds: Int
    /// A state is a few kilobytes; anything far larger is not one.
    static let maximumBytes = 1 << 20

    public init(path: String, lockTimeoutMilliseconds: Int = HTTPSettings().totalTimeoutMilliseconds)
        throws(TelenoridError)
    {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw TelenoridError(.invalidArgument, "the state file path is empty or holds a NUL")
        }
        self.path = path
        lockPath = path + ".lock"
        updateLockPath = path + ".update.lock"
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
    }

    public func withExclusiveAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError) {
        // flock excludes other open files, so threads of this process, each opening its own, exclude each
        // other too (and one auth state lets one of its threads at a time refresh).
        try holding(lockPath, body)
    }

    public func withUpdateAccess(_ body: () throws(TelenoridError) -> Void) throws(TelenoridError) {
        try holding(updateLockPath, body)
    }

    private func holding<T>(_ file: String, _ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
        // Nil only for ENOENT, which O_CREAT gives when the directory does not exist: errno still says so.
        guard let descriptor = try openRegular(file, O_RDWR | O_CREAT) else {
            throw failure("cannot create the lock file \(file)")
        }
        defer { close(descriptor) }  // closing releases the lock
        try lock(descriptor, file)
        recordHolder(descriptor)
        return try body()
    }

    /// Takes the flock without blocking, retrying every few milliseconds until the bound: a blocking
    /// flock can't be given up. The bound counts the pauses, so the wait is at least the timeout.
    private func lock(_ descriptor: Int32, _ file: String) throws(TelenoridError) {
        var waited = 0, pause = 1
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw failure("cannot lock \(file)") }
            guard waited < lockTimeoutMilliseconds else {
                let holder = AuthStateFile.holder(descriptor).map { " by process \($0)" } ?? ""
                throw TelenoridError(.temporarilyUnavailable, "the state file lock \(file) is held\(holder)")
            }
            pause = min(min(pause * 2, 50), lockTimeoutMilliseconds - waited)
            usleep(UInt32(pause) * 1000)
            waited += pause
        }
    }

    /// Writes this process's pid into the lock file, for a process that times out waiting to name. Best
    /// effort: the lock is held whether or not the pid could be written.
    private func recordHolder(_ descriptor: Int32) {
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }  // bionic declares the buffer non-null
            return pwrite(descriptor, base, bytes.count, 0)
        }
    }

    /// The pid the lock's holder wrote, when there is one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [CChar](repeating: 0, count: 16)  // the last stays NUL, for strtol
        let count = buffer.withUnsafeMutableBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }  // bionic declares the buffer non-null
            return pread(descriptor, base, bytes.count - 1, 0)
        }
        guard count > 0 else {
            return nil
        }
        let pid = strtol(buffer, nil, 10)
        return pid > 0 ? Int32(exactly: pid) : nil
    }

    /// Opens `file` without following a symbolic link and without blocking on a FIFO, then checks it is a
    /// regular file before anything reads or writes it. Nil when there is no such file.
    private func openRegular(_ file: String, _ flags: Int32) throws(TelenoridError) -> Int32? {
        let descriptor = open(file, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open \(file)")  // ELOOP: a symbolic link
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            close(descriptor)
            throw TelenoridError(.configuration, "\(file) is not a regular file")
        }
        return descriptor
    }

    public func load() throws(TelenoridError) -> SecretBytes? {
        guard let descriptor = try openRegular(path, O_RDONLY) else { return nil }
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

    /// Writes the bytes in place: no copy of the tokens is made on the way to the file. The temporary file
    /// is created with O_CLOEXEC in the one `open`, so no child a host forks meanwhile inherits it.
    public func save(_ serialized: SecretBytes) throws(TelenoridError) {
        let (descriptor, temporary) = try createTemporary()
        var written = false
        defer {
            close(descriptor)
            if !written { unlink(temporary) }
        }
        let complete = serialized.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, base + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard complete, fsync(descriptor) == 0 else { throw failure("cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure("cannot replace \(path)") }
        written = true
        try syncDirectory()
    }

    /// A new file beside the state, mode 0600, as mkostemp(3) makes one but with O_CLOEXEC in the same
    /// `open`: a random name opened with O_CREAT|O_EXCL.
    private func createTemporary() throws(TelenoridError) -> (Int32, String) {
        var random = SystemRandomNumberGenerator()  // getrandom(2)
        let temporary = "\(path).\(random.next() as UInt64)"
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a file beside \(path)") }
        return (descriptor, temporary)
    }

    /// fsync(2) of the directory, which makes the rename durable (a crash after it could otherwise bring
    /// back the old state, whose refresh token the provider may already have rotated away).
    private func syncDirectory() throws(TelenoridError) {
        var copy = Array(path.utf8CString)  // dirname(3) may write into its argument
        // bionic's dirname returns an optional pointer, glibc's does not.
        let directory: UnsafeMutablePointer<CChar>? = dirname(&copy)
        let descriptor = directory.map { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } ?? -1
        defer { if descriptor >= 0 { close(descriptor) } }
        // EINVAL: a file system that can't sync directories (some FUSE ones); the rename stands.
        guard descriptor >= 0, fsync(descriptor) == 0 || errno == EINVAL else {
            throw failure("cannot sync the directory of \(path)")
        }
    }

    private func failure(_ what: String) -> TelenoridError {
        TelenoridError(.configuration, "\(what): \(String(cString: strerror(errno)))")
    }
}
