#if canImport(Glibc)
import Glibc
#endif

/// The controller side of a ``SocketPairTransport`` on its own thread: answers each command
/// with a Command Complete (success; Read Local Version says HCI 4.2), and once scanning is
/// enabled (or the command `startOn` enabled something) sends `packets`, one `send` each. Stops when the scanner closes its end.
final class SocketPairController: @unchecked Sendable {
    // @unchecked: `commands` is written by the controller thread and read after `finished`.
    private let descriptor: Int32
    private let packets: [[UInt8]]
    private let startOn: UInt16
    private(set) var commands: [[UInt8]] = []
    private var thread = pthread_t()

    init(descriptor: Int32, packets: [[UInt8]], startOn: UInt16 = 0x200C) {
        self.descriptor = descriptor
        self.packets = packets
        self.startOn = startOn
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let controller = Unmanaged<SocketPairController>.fromOpaque(context!).takeRetainedValue()
                controller.serve()
                return nil
            }, context)
    }

    /// Waits for the controller thread to end (the scanner closed its end), then closes ours.
    func join() -> [[UInt8]] {
        pthread_join(thread, nil)
        close(descriptor)
        return commands
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 300)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            let command = Array(buffer[0..<count])
            commands.append(command)
            let returned: [UInt8] =
                command[1] == 0x01 && command[2] == 0x10
                ? [0x08, 0x00, 0x00, 0x08, 0x02, 0x00, 0x00, 0x00] // Read Local Version: HCI 4.2
                : []
            send([0x04, 0x0E, UInt8(4 + returned.count), 0x01, command[1], command[2], 0x00] + returned)
            if UInt16(command[1]) | UInt16(command[2]) << 8 == startOn, command[4] == 0x01 {
                for packet in packets { send(packet) }
            }
        }
    }

    private func send(_ packet: [UInt8]) {
        _ = packet.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
