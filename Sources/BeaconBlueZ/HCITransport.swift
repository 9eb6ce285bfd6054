/// The system calls the scanner makes, behind a protocol so that tests can inject a fake
/// controller, a socket pair, or any `errno`.
///
/// Every method is synchronous and may block (only ``read(from:into:timeout:)`` for long); the
/// scanner calls them from its own dedicated thread, never from the Swift concurrency pool.
/// ``LinuxHCITransport`` is the real implementation.
public protocol HCITransport: Sendable {
    /// Opens a raw HCI socket (`socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)`).
    func open() throws(HCISystemError) -> HCISocket

    /// The adapters the kernel knows about (`HCIGETDEVLIST` + `HCIGETDEVINFO`), in index order.
    func adapters(using socket: HCISocket) throws(HCISystemError) -> [HCIAdapterInfo]

    /// Binds the socket to adapter `index` on the raw channel.
    func bind(_ socket: HCISocket, toAdapter index: UInt16) throws(HCISystemError)

    /// Reads the socket's event filter (`getsockopt(SOL_HCI, HCI_FILTER)`).
    func filter(of socket: HCISocket) throws(HCISystemError) -> HCIFilter

    /// Sets the socket's event filter (`setsockopt(SOL_HCI, HCI_FILTER)`).
    func setFilter(_ filter: HCIFilter, on socket: HCISocket) throws(HCISystemError)

    /// Writes one H4 packet (an HCI command: `0x01`, opcode, length, parameters).
    func write(_ packet: [UInt8], to socket: HCISocket) throws(HCISystemError)

    /// Waits up to `timeout` for one packet and reads it into `buffer`.
    ///
    /// - Returns: the packet's length, or `nil` when nothing arrived within `timeout`
    ///   (`.zero` polls without waiting).
    func read(
        from socket: HCISocket, into buffer: UnsafeMutableRawBufferPointer,
        timeout: Duration
    ) throws(HCISystemError) -> Int?

    /// Closes the socket. Never fails (errors on close are not actionable).
    func close(_ socket: HCISocket)
}
