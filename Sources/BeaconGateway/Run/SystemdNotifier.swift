#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager how the daemon is doing, by `sd_notify(3)`'s protocol: one datagram
/// of `KEY=value` lines to the Unix socket named by `NOTIFY_SOCKET` (a path, or `@name` in the
/// abstract namespace). systemd sets the variable for a unit with `Type=notify`; anything else
/// may too (a test that waits for a daemon to be ready). Without it, nothing is sent.
///
/// Written against the protocol rather than linking libsystemd: a datagram is all it takes, and
/// the static build that ships stays free of another shared library.
public struct SystemdNotifier: Sendable {
    /// The socket's address as the variable gives it; `nil`: no service manager listens.
    public let socketPath: String?

    /// A notifier for `NOTIFY_SOCKET` of `environment` (the process's own by default).
    public init(environment: [String: String]? = nil) {
        let variable: (String) -> String? = { name in
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        socketPath = variable("NOTIFY_SOCKET").flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = Self.watchdogInterval(
            microseconds: variable("WATCHDOG_USEC"), pid: variable("WATCHDOG_PID"), ownPID: Int(getpid()))
    }

    /// `WATCHDOG_USEC` as a duration, when it is a positive number and `WATCHDOG_PID` is absent
    /// or names `ownPID`.
    static func watchdogInterval(microseconds: String?, pid: String?, ownPID: Int) -> Duration? {
        guard let microseconds, let value = Int64(microseconds), value > 0 else { return nil }
        if let pid, Int(pid) != ownPID { return nil }
        return .microseconds(value)
    }

    /// `READY=1`, with a status line for `systemctl status`.
    @discardableResult
    public func ready(status: String) -> Bool { send("READY=1\nSTATUS=\(status)") }

    /// `RELOADING=1` with the monotonic time (`Type=notify-reload`'s protocol, harmless to an
    /// older systemd): the daemon re-reads its configuration; ``ready(status:)`` follows.
    @discardableResult
    public func reloading() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return send("RELOADING=1\nMONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)")
    }

    /// `WATCHDOG=1`: the daemon is alive (``watchdogInterval``).
    @discardableResult
    public func watchdog() -> Bool { send("WATCHDOG=1") }

    /// How often systemd expects ``watchdog()`` (`WatchdogSec=`, given as `WATCHDOG_USEC`), when
    /// it expects it of this process (`WATCHDOG_PID`, when set, is this process's id); `nil`:
    /// no watchdog.
    public let watchdogInterval: Duration?

    /// `STOPPING=1`: the daemon has begun its graceful stop.
    @discardableResult
    public func stopping() -> Bool { send("STOPPING=1") }

    /// `STATUS=…`: a line for `systemctl status`.
    @discardableResult
    public func status(_ line: String) -> Bool { send("STATUS=\(line)") }

    /// Sends `message` as one datagram; false when no socket is named, it cannot be reached or
    /// its queue is full (a notification is advice: the daemon goes on either way, and never
    /// waits for a listener that does not read).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath, let unix = Self.unixAddress(socketPath) else { return false }
        var address = unix.0
        let length = unix.1
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), socketAddress, length)
                }
            }
        }
        return sent == bytes.count
    }

    /// The Unix socket address of `name` as `NOTIFY_SOCKET` writes it (a path, or `@name` in the
    /// abstract namespace) and its length; `nil` for an empty name or one too long for it.
    static func unixAddress(_ name: String) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 } // the abstract namespace
        guard !path.isEmpty, path.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        // A path ends with its NUL; an abstract name is exactly its bytes.
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path[0] == 0 ? 0 : 1)))
    }
}
