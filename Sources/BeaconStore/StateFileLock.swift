#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process's exclusive hold on a state file: an advisory lock (`flock`) on `FILE.lock`, held
/// while the value lives and released by the kernel when the process ends, however it ends. The
/// daemon holds it for its lifetime, and `beacond forget` takes it before it erases anything, so
/// that neither writes under the other. The file holds the holder's pid, for the message.
public final class StateFileLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock of the state file at `statePath`, without waiting.
    /// - Throws: ``AlertStoreError/inUse(path:holder:)`` when another process holds it, naming its
    ///   pid; ``AlertStoreError/notWritable(path:reason:)`` when the lock file cannot be made.
    public init(statePath: String) throws {
        path = statePath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AlertStoreError.notWritable(
                path: statePath, reason: "its lock file \(path) cannot be made (\(String(cString: strerror(errno))))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, 31, 0)
            close(descriptor)
            let pid = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).filter(\.isNumber) : ""
            throw AlertStoreError.inUse(path: statePath, holder: pid.isEmpty ? "another process" : "another beacond (pid \(pid))")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }
}
