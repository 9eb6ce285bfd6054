#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered line output to standard output: one `write(2)` per 64 KiB rather than per line.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    /// Appends `line` and a newline; writes out when the buffer is full.
    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes everything buffered.
    mutating func flush() {
        writeAll(buffer, to: STDOUT_FILENO)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes `message` and a newline to standard error, unbuffered.
func printError(_ message: String) {
    writeAll(Array((message + "\n").utf8), to: STDERR_FILENO)
}

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
}

/// Writes all of `raw` to `descriptor`, retrying short writes and EINTR.
func writeAll(_ raw: UnsafeRawBufferPointer, to descriptor: Int32) {
    var offset = 0
    while offset < raw.count {
        let n = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += n
    }
}
