import BeaconCore
import CBluetooth

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real system calls: a raw `AF_BLUETOOTH`/`BTPROTO_HCI` socket, the `HCIGETDEVLIST` and
/// `HCIGETDEVINFO` ioctls, `SOL_HCI`/`HCI_FILTER`, and `poll` + `recv` for reads.
///
/// ``read(from:into:timeout:)``, ``write(_:to:)`` and ``close(_:)`` work on any packet socket,
/// so tests drive the same read path through a `socketpair(AF_UNIX, SOCK_SEQPACKET)`.
public struct LinuxHCITransport: HCITransport {
    /// Creates the transport.
    public init() {}

    public func open() throws(HCISystemError) -> HCISocket {
        let fd = cbt_open_raw_socket()
        guard fd >= 0 else { throw HCISystemError(.socket, errno: errno) }
        return HCISocket(descriptor: fd)
    }

    public func adapters(using socket: HCISocket) throws(HCISystemError) -> [HCIAdapterInfo] {
        let capacity = Int(HCI_MAX_DEV)
        var ids = [UInt16](repeating: 0, count: capacity)
        var flags = [UInt32](repeating: 0, count: capacity)
        let count = cbt_get_device_list(socket.descriptor, &ids, &flags, Int32(capacity))
        guard count >= 0 else { throw HCISystemError(.ioctl, errno: errno) }
        var adapters: [HCIAdapterInfo] = []
        for i in 0..<Int(count) {
            var info = hci_dev_info()
            var name: String?
            var address: BluetoothAddress?
            if cbt_get_device_info(socket.descriptor, ids[i], &info) == 0 {
                name = withUnsafeBytes(of: info.name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                address = withUnsafeBytes(of: info.bdaddr) { BluetoothAddress(wireBytes: $0, at: 0) }
            }
            adapters.append(
                HCIAdapterInfo(
                    index: ids[i], name: name?.isEmpty == false ? name : nil,
                    address: address, isUp: cbt_flags_is_up(flags[i]) != 0))
        }
        return adapters.sorted { $0.index < $1.index }
    }

    public func bind(_ socket: HCISocket, toAdapter index: UInt16) throws(HCISystemError) {
        guard cbt_bind_raw(socket.descriptor, index) == 0 else { throw HCISystemError(.bind, errno: errno) }
    }

    public func filter(of socket: HCISocket) throws(HCISystemError) -> HCIFilter {
        var raw = hci_filter()
        guard cbt_get_filter(socket.descriptor, &raw) == 0 else { throw HCISystemError(.getsockopt, errno: errno) }
        return HCIFilter(typeMask: raw.type_mask, eventMask: (raw.event_mask.0, raw.event_mask.1), opcode: raw.opcode)
    }

    public func setFilter(_ filter: HCIFilter, on socket: HCISocket) throws(HCISystemError) {
        var raw = hci_filter()
        raw.type_mask = filter.typeMask
        raw.event_mask = (filter.eventMask.0, filter.eventMask.1)
        raw.opcode = filter.opcode
        guard cbt_set_filter(socket.descriptor, &raw) == 0 else { throw HCISystemError(.setsockopt, errno: errno) }
    }

    public func write(_ packet: [UInt8], to socket: HCISocket) throws(HCISystemError) {
        while true {
            let written = packet.withUnsafeBytes { Glibc.write(socket.descriptor, $0.baseAddress, $0.count) }
            if written >= 0 { return }
            if errno == EINTR { continue }
            throw HCISystemError(.write, errno: errno)
        }
    }

    public func read(
        from socket: HCISocket, into buffer: UnsafeMutableRawBufferPointer,
        timeout: Duration
    ) throws(HCISystemError) -> Int? {
        var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: (max(timeout, .zero).nanoseconds + 999_999) / 1_000_000)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw HCISystemError(.poll, errno: errno)
            }
            if ready == 0 { return nil }
            let count = recv(socket.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return count }
            if count == 0 { throw HCISystemError(.read, errno: EPIPE) } // peer closed (socket pair)
            if errno == EINTR || errno == EAGAIN { return nil }
            throw HCISystemError(.read, errno: errno)
        }
    }

    public func close(_ socket: HCISocket) {
        _ = Glibc.close(socket.descriptor)
    }
}
