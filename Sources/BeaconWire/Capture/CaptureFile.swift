#if canImport(Glibc)
import BeaconCore
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture file held in memory: btsnoop v1 (datalinks 1001, 1002, 2001), pcap (either byte
/// order, µs or ns) or pcapng. Creating one reads and checks the file header; ``forEachItem(_:)``
/// then walks the records without allocating per record.
///
/// ```swift
/// let capture = try CaptureFile(path: "scan.btsnoop")
/// capture.forEachItem { item in
///     if case .record(let record) = item { print(record.timestamp, record.bytes.count) }
/// }
/// ```
public struct CaptureFile: Sendable {
    /// The whole file.
    public let bytes: [UInt8]
    /// The container format.
    public let format: CaptureFormat
    private let reader: Reader

    private enum Reader: Sendable {
        case btsnoop(BtsnoopDatalink)
        case pcap(bigEndian: Bool, nanosecond: Bool, linkType: UInt32, snapLength: Int)
        case pcapng
    }

    /// Reads the file at `path` and checks its header.
    /// - Throws: ``CaptureError`` with kind `unreadableFile`, `badMagic`, `unsupportedVersion`,
    ///   `unknownDatalink`, `unsupportedLinkType` (pcap) or `truncated` (no complete file header).
    public init(path: String) throws(CaptureError) {
        try self.init(bytes: Self.readFile(atPath: path))
    }

    /// Checks the header of a capture already in memory.
    public init(bytes: [UInt8]) throws(CaptureError) {
        self.bytes = bytes
        let result: Result<(CaptureFormat, Reader), CaptureError> = bytes.withUnsafeBytes { file in
            do throws(CaptureError) {
                return .success(try Self.detect(file))
            } catch {
                return .failure(error)
            }
        }
        (format, reader) = try result.get()
    }

    private static func detect(_ file: UnsafeRawBufferPointer) throws(CaptureError) -> (CaptureFormat, Reader) {
        guard file.count >= 4 else {
            throw CaptureError(.badMagic, at: 0, in: file, detail: "only \(file.count) bytes", isFileLevel: true)
        }
        if file.count >= 8, (0..<8).allSatisfy({ file[$0] == BtsnoopReader.magic[$0] }) {
            let reader = try BtsnoopReader(file: file)
            return (.btsnoop(reader.datalink), .btsnoop(reader.datalink))
        }
        switch file.bigEndianUInt32(at: 0) {
        case 0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1:
            let reader = try PcapReader(file: file)
            return (
                .pcap(reader.linkType),
                .pcap(
                    bigEndian: reader.bigEndian, nanosecond: reader.nanosecond,
                    linkType: reader.linkType.rawValue, snapLength: reader.snapLength)
            )
        case PcapngReader.sectionHeaderType:
            _ = try PcapngReader(file: file)
            return (.pcapng, .pcapng)
        default:
            throw CaptureError(.badMagic, at: 0, in: file, isFileLevel: true)
        }
    }

    /// Calls `body` with every record in file order, or with the error that stands in for a
    /// record that cannot be read. Records are borrowed views valid only during the call.
    /// Throwing from `body` stops the walk and rethrows.
    public func forEachItem(_ body: (CaptureItem) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { file in
            try PacketFraming.withFraming { framing in
                switch reader {
                case .btsnoop(let datalink):
                    try BtsnoopReader(datalink: datalink).forEachItem(in: file, framing: framing, body)
                case .pcap(let bigEndian, let nanosecond, let linkType, let snapLength):
                    try PcapReader(
                        bigEndian: bigEndian, nanosecond: nanosecond,
                        linkType: .init(rawValue: linkType), snapLength: snapLength
                    )
                    .forEachItem(in: file, framing: framing, body)
                case .pcapng:
                    try PcapngReader().forEachItem(in: file, framing: framing, body)
                }
            }
        }
    }

    /// The contents of the file at `path`.
    static func readFile(atPath path: String) throws(CaptureError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CaptureError(unreadable: path, reason: Self.systemError()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw CaptureError(unreadable: path, reason: Self.systemError()) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw CaptureError(unreadable: path, reason: "is a directory") }
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CaptureError(unreadable: path, reason: Self.systemError())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
