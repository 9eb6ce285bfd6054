import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client that sends raw bytes and reads with a bound (`SO_RCVTIMEO`): a test that
/// waits for a server to answer or to close waits no longer than it says, and no longer than
/// the server takes. Its reads block: call them with `onOwnThread`.
final class BoundedSocket: @unchecked Sendable {
    /// What a read brought: the bytes (as text), whether the server closed its side (or reset
    /// the connection), and how long the read took.
    struct Reading: Sendable {
        var text: String
        var closed: Bool
        var elapsed: Duration
    }

    private var fd: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close()
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close() }

    /// Sends `text`; false when the server no longer takes it (closed, reset).
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Sends `bytes`; false when the server no longer takes them (closed, reset).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads until the server closes the connection, `marker` has arrived (if given) or `limit`
    /// has passed, whichever is first.
    func read(until marker: String? = nil, within limit: Duration) -> Reading {
        let start = ContinuousClock.now
        let deadline = start + limit
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var closed = false
        func arrived() -> Bool { marker.map { String(decoding: received, as: UTF8.self).contains($0) } ?? false }
        while !closed, !arrived(), ContinuousClock.now < deadline {
            setReceiveTimeout(ContinuousClock.now.duration(to: deadline))
            let count = Glibc.recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                closed = true
            }
        }
        return Reading(
            text: String(decoding: received, as: UTF8.self), closed: closed, elapsed: start.duration(to: .now))
    }

    /// Closes the socket.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func setReceiveTimeout(_ duration: Duration) {
        let (seconds, attoseconds) = max(duration, .milliseconds(1)).components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}
