import BeaconBlueZ
import BeaconCore
import Dispatch
import Synchronization

/// A fake controller behind ``HCITransport``: answers commands with Command Complete events,
/// plays a script of packets/errors per scanning session, fails chosen system calls with a
/// chosen `errno`, and records every call.
final class FakeHCITransport: HCITransport, Sendable {
    /// One step of a scanning session's reads.
    enum Step: Sendable {
        /// Read returns these bytes.
        case packet([UInt8])
        /// Read fails with this errno.
        case fail(Int32)
        /// Read times out after the clock moved on by this much.
        case idle(Duration)
        /// Read blocks until the semaphore is signalled (then goes on with the next step).
        case wait(DispatchSemaphore)
        /// Calls the closure, then goes on with the next step.
        case run(@Sendable () -> Void)
    }

    /// The controller's identity and answers.
    struct Controller: Sendable {
        var hciVersion: UInt8 = 0x06 // 4.0
        var leFeatures: UInt64 = 0x0000_0000_0000_0001
        /// Status returned for these opcodes (others: success).
        var statuses: [UInt16: UInt8] = [:]
    }

    private struct State {
        var calls: [String] = []
        var pending: [[UInt8]] = []
        var sessions: [[Step]]
        var current: [Step] = []
        var scanning = false
        var opens = 0
        var adapterLists: [[HCIAdapterInfo]]
        var filter = HCIFilter(typeMask: 0x0000_0010, eventMask: (0xFFFF_FFFF, 0xFFFF_FFFF), opcode: 0)
    }

    let controller: Controller
    /// errno to fail each call with (every time).
    let failures: [HCISystemError.Call: Int32]
    let clock: AutoAdvancingClock?
    /// Called whenever a session's script has been played to its end.
    let onExhausted: @Sendable () -> Void
    private let state: Mutex<State>
    private let wakeup = DispatchSemaphore(value: 0)

    /// The filter the socket starts with (what the scanner must restore).
    static let initialFilter = HCIFilter(typeMask: 0x0000_0010, eventMask: (0xFFFF_FFFF, 0xFFFF_FFFF), opcode: 0)

    init(
        controller: Controller = Controller(), sessions: [[Step]] = [],
        adapterLists: [[HCIAdapterInfo]] = [[HCIAdapterInfo(index: 0, isUp: true)]],
        failures: [HCISystemError.Call: Int32] = [:], clock: AutoAdvancingClock? = nil,
        onExhausted: @escaping @Sendable () -> Void = {}
    ) {
        self.controller = controller
        self.failures = failures
        self.clock = clock
        self.onExhausted = onExhausted
        state = Mutex(State(sessions: sessions, adapterLists: adapterLists))
    }

    /// Every call, e.g. `open`, `bind 0`, `write 01 0b 20 …`, `setFilter …`, `close`.
    var calls: [String] { state.withLock { $0.calls } }
    /// Opcodes of the commands written, in order.
    var commandOpcodes: [UInt16] {
        calls.compactMap { call -> UInt16? in
            guard call.hasPrefix("write ") else { return nil }
            let bytes = call.dropFirst(6).split(separator: " ").compactMap { UInt8($0, radix: 16) }
            return UInt16(bytes[1]) | UInt16(bytes[2]) << 8
        }
    }
    /// The socket's filter now.
    var currentFilter: HCIFilter { state.withLock { $0.filter } }

    private func record(_ call: String) { state.withLock { $0.calls.append(call) } }

    private func check(_ call: HCISystemError.Call) throws(HCISystemError) {
        if let errno = failures[call] { throw HCISystemError(call, errno: errno) }
    }

    func open() throws(HCISystemError) -> HCISocket {
        record("open")
        try check(.socket)
        state.withLock { $0.opens += 1 }
        return HCISocket(descriptor: 42)
    }

    func adapters(using socket: HCISocket) throws(HCISystemError) -> [HCIAdapterInfo] {
        try check(.ioctl)
        return state.withLock { state in
            let index = min(state.opens - 1, state.adapterLists.count - 1)
            return index >= 0 ? state.adapterLists[index] : []
        }
    }

    func bind(_ socket: HCISocket, toAdapter index: UInt16) throws(HCISystemError) {
        record("bind \(index)")
        try check(.bind)
    }

    func filter(of socket: HCISocket) throws(HCISystemError) -> HCIFilter {
        try check(.getsockopt)
        return state.withLock { $0.filter }
    }

    func setFilter(_ filter: HCIFilter, on socket: HCISocket) throws(HCISystemError) {
        record("setFilter \(filter)")
        try check(.setsockopt)
        state.withLock { $0.filter = filter }
    }

    func write(_ packet: [UInt8], to socket: HCISocket) throws(HCISystemError) {
        record("write " + packet.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))
        try check(.write)
        let opcode = UInt16(packet[1]) | UInt16(packet[2]) << 8
        let status = controller.statuses[opcode] ?? 0
        var returned: [UInt8] = []
        if status == 0 {
            switch opcode {
            case 0x1001: returned = [controller.hciVersion, 0x00, 0x00, controller.hciVersion, 0x5F, 0x00, 0x00, 0x00]
            case 0x2003: returned = (0..<8).map { UInt8(truncatingIfNeeded: controller.leFeatures >> (8 * UInt64($0))) }
            default: break
            }
        }
        let parameters: [UInt8] = [0x01, packet[1], packet[2], status] + returned
        let event: [UInt8] = [0x04, 0x0E, UInt8(parameters.count)] + parameters
        state.withLock { state in
            state.pending.append(event)
            if status == 0, opcode == 0x200C || opcode == 0x2042 {
                if packet[4] == 1, !state.scanning {
                    state.scanning = true
                    state.current = state.sessions.isEmpty ? [] : state.sessions.removeFirst()
                } else if packet[4] == 0 {
                    state.scanning = false
                }
            }
        }
    }

    func read(
        from socket: HCISocket, into buffer: UnsafeMutableRawBufferPointer,
        timeout: Duration
    ) throws(HCISystemError) -> Int? {
        try check(.read)
        while true {
            enum Next { case bytes([UInt8]), step(Step), exhausted }
            let next: Next = state.withLock { state in
                if !state.pending.isEmpty { return .bytes(state.pending.removeFirst()) }
                if state.scanning, !state.current.isEmpty { return .step(state.current.removeFirst()) }
                return .exhausted
            }
            switch next {
            case .bytes(let bytes), .step(.packet(let bytes)):
                buffer.copyBytes(from: bytes)
                return bytes.count
            case .step(.fail(let errno)):
                throw HCISystemError(.read, errno: errno)
            case .step(.idle(let duration)):
                clock?.advance(by: duration)
                return nil
            case .step(.wait(let semaphore)):
                semaphore.wait()
            case .step(.run(let body)):
                body()
            case .exhausted:
                onExhausted()
                // Like poll(2) with nothing to read: wait out the timeout (the reader's poll
                // interval), unless someone wakes us.
                _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds)))
                return nil
            }
        }
    }

    func close(_ socket: HCISocket) {
        record("close")
        state.withLock { $0.scanning = false }
    }
}
