import BeaconBlueZ
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An ``HCITransport`` whose socket is one end of a `socketpair(AF_UNIX, SOCK_SEQPACKET)`:
/// reads, writes and close go through the real ``LinuxHCITransport`` code (poll + recv), so the
/// scanner's read loop runs unchanged; open, adapter listing, bind and the filter are faked
/// (AF_UNIX sockets have no HCI filter).
final class SocketPairTransport: HCITransport, Sendable {
    private let scannerEnd: Int32
    /// The other end, for the test's controller thread.
    let controllerEnd: Int32
    private let linux = LinuxHCITransport()
    private let filters = Mutex<[HCIFilter]>([])
    private let savedFilter = HCIFilter(typeMask: 0x0000_0016, eventMask: (0xFFFF_FFFF, 0xFFFF_FFFF), opcode: 0)

    init() {
        var ends: [Int32] = [0, 0]
        let result = socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        precondition(result == 0, "socketpair failed: errno \(errno)")
        scannerEnd = ends[0]
        controllerEnd = ends[1]
    }

    /// The filters set, in order (the last must be the one the socket started with).
    var filtersSet: [HCIFilter] { filters.withLock { $0 } }
    /// The filter the socket "had" before the scanner opened it.
    var originalFilter: HCIFilter { savedFilter }

    func open() throws(HCISystemError) -> HCISocket { HCISocket(descriptor: scannerEnd) }

    func adapters(using socket: HCISocket) throws(HCISystemError) -> [HCIAdapterInfo] {
        [HCIAdapterInfo(index: 0, isUp: true)]
    }

    func bind(_ socket: HCISocket, toAdapter index: UInt16) throws(HCISystemError) {}

    func filter(of socket: HCISocket) throws(HCISystemError) -> HCIFilter { savedFilter }

    func setFilter(_ filter: HCIFilter, on socket: HCISocket) throws(HCISystemError) {
        filters.withLock { $0.append(filter) }
    }

    func write(_ packet: [UInt8], to socket: HCISocket) throws(HCISystemError) {
        try linux.write(packet, to: socket)
    }

    func read(
        from socket: HCISocket, into buffer: UnsafeMutableRawBufferPointer,
        timeout: Duration
    ) throws(HCISystemError) -> Int? {
        try linux.read(from: socket, into: buffer, timeout: timeout)
    }

    func close(_ socket: HCISocket) { linux.close(socket) }
}
