/// An auth state store in a file: created with mode 0600, replaced atomically (a new file renamed over
/// the old, then the directory synced so the rename survives a crash), and locked with `flock` on a
/// companion `<path>.lock` that is never replaced, since a lock on the state file itself would be lost with
/// the inode each save renames away.
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
    /// How long to wait for another process to release the lock: the client's total HTTP timeout, so a
    /// refresh waiting for another process's refresh gives up no sooner than that refresh would.
    public let lockTimeoutMilliseconds: Int
    /// flock excludes other open files, so threads of this process, each opening its own, exclude each
    /// other too; the mutex only spares them the system calls while one of them holds the file.
    private let inProcess = Locked<Bool>(false)  // the value is unused: the lock is the gate
    /// A state is a few kilobytes; anything far larger is not one.
    static let maximumBytes = 1 << 20

    public init(path: String, lockTimeoutMilliseconds: Int = HTTPSettings().totalTimeoutMilliseconds) throws(TelenoridError) {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw TelenoridError(.invalidArgument, "the state file path is empty or holds a NUL")
        }
        self.path = path
        lockPath = path + ".lock"
        self.lockTimeoutMilliseconds = max(lockTimeoutMilliseconds, 1)
    }

    public func withExclusiveAccess<T>(_ body: () throws(TelenoridError) -> T) throws(TelenoridError) -> T {
        try inProcess.withLock { _ throws(TelenoridError) -> T in
            guard let descriptor = try openRegular(lockPath, O_RDWR | O_CREAT, "the lock file") else {
                throw TelenoridError(.configuration, "cannot create the lock file \(lockPath)")
            }
            defer { close(descriptor) }  // closing releases the lock
            try lock(descriptor)
            recordHolder(descriptor)
            return try body()
        }
    }

    /// Takes the flock without blocking, retrying every few milliseconds until the bound: a blocking
    /// flock can't be given up. The bound counts the pauses, so the wait is at least the timeout.
    private func lock(_ descriptor: Int32) throws(TelenoridError) {
        var waited = 0, pause = 1
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw failure("cannot lock \(lockPath)") }
            guard waited < lockTimeoutMilliseconds else {
                let holder = AuthStateFile.holder(descriptor).map { " by process \($0)" } ?? ""
                throw TelenoridError(.temporarilyUnavailable, "the state file lock \(lockPath) is held\(holder); "
                                     + "gave up after \(lockTimeoutMilliseconds) ms")
            }
            pause = min(pause * 2, 50, lockTimeoutMilliseconds - waited)
            usleep(UInt32(pause) * 1000)
            waited += pause
        }
    }

    /// Writes this process's pid into the lock file, for a process that times out waiting to name. Best
    /// effort: the lock is held whether or not the pid could be written.
    private func recordHolder(_ descriptor: Int32) {
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The pid the lock's holder wrote, when there is one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        var pid: Int32 = 0
        for byte in buffer.prefix(max(count, 0)) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), pid < 100_000_000 else { break }
            pid = pid * 10 + Int32(byte - UInt8(ascii: "0"))
        }
        return pid > 0 ? pid : nil
    }

    /// Opens `file` without following a symbolic link and without blocking on a FIFO, then checks it is a
    /// regular file before anything reads or writes it. Nil when there is no such file.
    private func openRegular(_ file: String, _ flags: Int32, _ what: String) throws(TelenoridError) -> Int32? {
        let descriptor = open(file, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure(errno == ELOOP ? "\(what) \(file) is a symbolic link" : "cannot open \(what) \(file)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw TelenoridError(.configuration, "\(what) \(file) is not a regular file")
        }
        return descriptor
    }

    public func load() throws(TelenoridError) -> SecretBytes? {
        guard let descriptor = try openRegular(path, O_RDONLY, "the state file") else { return nil }
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
    /// `open`: a random name (48 bits) opened with O_CREAT|O_EXCL.
    private func createTemporary() throws(TelenoridError) -> (Int32, String) {
        let random = try Crypto.randomBytes(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let temporary = path + "." + String(random, radix: 16)
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a file beside \(path)") }
        return (descriptor, temporary)
    }

    /// fsync(2) of the directory, which makes the rename durable (a crash after it could otherwise bring
    /// back the old state, whose refresh token the provider may already have rotated away).
    private func syncDirectory() throws(TelenoridError) {
        let descriptor = path.withCString { file -> Int32 in
            guard let slash = strrchr(file, Int32(UInt8(ascii: "/"))) else { return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            var directory = Array(UnsafeBufferPointer(start: file, count: file.distance(to: slash) + 1))
            directory.append(0)
            return open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw failure("cannot open the directory of \(path) to sync it") }
        defer { close(descriptor) }
        // EINVAL: a file system that can't sync directories (some FUSE ones); the rename stands.
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw failure("cannot sync the directory of \(path)") }
    }

    private func failure(_ what: String) -> TelenoridError {
        TelenoridError(.configuration, "\(what): \(String(cString: strerror(errno)))")
    }
}
