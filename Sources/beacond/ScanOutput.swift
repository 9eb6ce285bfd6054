import BeaconCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where `beacond scan` writes what it hears. PROVISIONAL: prints each H4 packet as a JSON line
/// with its hex bytes until the `beacond parse` formatter is merged.
final class ScanOutput: @unchecked Sendable {
    // @unchecked: used by one task at a time (the scan task).
    private var buffer: [UInt8] = []

    init(format: String, recordPath: String?) throws {}

    func write(_ batch: borrowing PacketBatch) throws {
        batch.forEachPacket { record, bytes in
            buffer.append(contentsOf: Array("{\"time\":\(record.timestamp.unixSecondsString),\"hci\":\"".utf8))
            for byte in bytes {
                let digits = Array("0123456789abcdef".utf8)
                buffer.append(digits[Int(byte >> 4)])
                buffer.append(digits[Int(byte & 15)])
            }
            buffer.append(contentsOf: Array("\"}\n".utf8))
        }
        flush()
    }

    func finish() throws { flush() }

    private func flush() {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
