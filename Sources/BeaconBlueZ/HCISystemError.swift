#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call behind an ``HCITransport``: which call, and the `errno` it set.
///
/// The scanner turns these into ``BlueZScannerError``s that say what to do; this type only
/// records what happened.
public struct HCISystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system calls an ``HCITransport`` makes.
    public enum Call: String, Sendable {
        case socket, bind, getsockopt, setsockopt, ioctl, read, write, poll
    }

    /// The call that failed.
    public var call: Call
    /// The `errno` value it set.
    public var errno: Int32

    /// Records a failure of `call` with `errno`.
    public init(_ call: Call, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The C library's message for ``errno``, e.g. `Address family not supported by protocol`.
    public var message: String { String(cString: strerror(errno)) }

    /// `socket: Address family not supported by protocol (errno 97)`.
    public var description: String { "\(call.rawValue): \(message) (errno \(errno))" }
}
