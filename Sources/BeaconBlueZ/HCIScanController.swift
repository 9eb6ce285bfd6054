#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The synchronous half of the scanner: opens the adapter, sends the commands that switch
/// scanning on, reads packets, and undoes it all in order. Runs only on the scanner's dedicated
/// thread (it blocks in system calls), one instance per session.
final class HCIScanController {
    /// What ``start()`` found and did.
    struct Started: Sendable {
        var adapter: HCIAdapterInfo
        var version: LocalVersion
        var commands: ScanCommandSet
        /// Whether the configured advertisement is on air (false when none is configured).
        var advertising: Bool = false
        /// Why the controller refused to advertise, when it did (scanning goes on regardless).
        var advertisingRefusal: BlueZScannerError?
    }

    /// The most unrelated events skipped while waiting for one command's answer.
    static let maxSkippedEvents = 4_096
    /// Room for the largest HCI event (255 parameter bytes) plus H4 and event headers.
    static let packetBufferSize = 1_024

    private let transport: any HCITransport
    private let configuration: BlueZScannerConfiguration
    private let log: @Sendable (ScannerEvent) -> Void
    private let commandBuffer: UnsafeMutableRawBufferPointer
    private var socket: HCISocket?
    private var savedFilter: HCIFilter?
    private var enabledCommands: ScanCommandSet?
    private var advertisingCommands: ScanCommandSet?
    /// The adapter's name once chosen (the requested one before).
    private(set) var adapterName: String

    init(
        transport: any HCITransport, configuration: BlueZScannerConfiguration,
        log: @escaping @Sendable (ScannerEvent) -> Void
    ) {
        self.transport = transport
        self.configuration = configuration
        self.log = log
        self.adapterName = configuration.adapter.description
        commandBuffer = .allocate(byteCount: Self.packetBufferSize, alignment: 8)
    }

    deinit { commandBuffer.deallocate() }

    /// Opens and binds the socket, picks the command set and switches scanning on, then leaves
    /// the socket filtering LE Meta events. On failure everything done so far is undone.
    func start() throws(BlueZScannerError) -> Started {
        do {
            return try startSteps()
        } catch {
            stop(logging: false)
            throw error
        }
    }

    private func startSteps() throws(BlueZScannerError) -> Started {
        let socket = try system { () throws(HCISystemError) in try transport.open() }
        self.socket = socket
        let adapters = try system { () throws(HCISystemError) in try transport.adapters(using: socket) }
        let adapter = try configuration.adapter.choose(from: adapters)
        adapterName = adapter.name
        try system { () throws(HCISystemError) in try transport.bind(socket, toAdapter: adapter.index) }
        savedFilter = try system { () throws(HCISystemError) in try transport.filter(of: socket) }
        try system { () throws(HCISystemError) in try transport.setFilter(.commandResponses, on: socket) }

        let versionParameters = try send(.readLocalVersion)
        let version = try decode { () throws(HCIEventError) in try LocalVersion(returnParameters: versionParameters) }
        var features: LEFeatures?
        if version.hciVersion >= LocalVersion.bluetooth5 {
            do {
                let parameters = try send(.leReadLocalSupportedFeatures)
                features = try decode { () throws(HCIEventError) in try LEFeatures(returnParameters: parameters) }
            } catch .commandFailed {
                features = nil // no LE feature page: stay with the legacy commands
            }
        }
        let preferred = configuration.commandSet ?? ScanCommandSet.preferred(version: version, features: features)
        let otherAvailable = preferred == .extended || features?.supportsExtendedAdvertising == true
        let commands = try enableScanning(preferred, otherAvailable: otherAvailable)
        var started = Started(adapter: adapter, version: version, commands: commands)
        if let advertising = configuration.advertising {
            do {
                try startAdvertising(advertising, with: commands)
                started.advertising = true
            } catch .adapterLost(let adapter, let error) {
                throw .adapterLost(adapter: adapter, error)
            } catch {
                started.advertisingRefusal = error
            }
        }
        try system { () throws(HCISystemError) in try transport.setFilter(.leMeta, on: socket) }
        return started
    }

    /// Sets up and enables advertising with the command set scanning uses (a controller refuses
    /// to mix legacy and extended commands). A refusal leaves advertising off; the caller goes on
    /// scanning.
    private func startAdvertising(_ advertising: BeaconAdvertising, with commands: ScanCommandSet)
        throws(BlueZScannerError)
    {
        for command in commands.advertisingCommands(advertising) { _ = try send(command) }
        advertisingCommands = commands
    }

    /// Sets parameters and enables scanning with `preferred`; on Command Disallowed (or, for
    /// extended, Unknown Command) tries the other set once.
    private func enableScanning(_ preferred: ScanCommandSet, otherAvailable: Bool) throws(BlueZScannerError)
        -> ScanCommandSet
    {
        do {
            try configure(preferred)
            return preferred
        } catch .commandFailed(let adapter, let command, let status)
            where status == .commandDisallowed || (preferred == .extended && status == .unknownCommand)
        {
            guard otherAvailable else {
                throw status == .commandDisallowed
                    ? .adapterBusy(adapter: adapter, detail: "\(command) answered \(status)")
                    : .commandFailed(adapter: adapter, command: command, status: status)
            }
            log(.fellBack(from: preferred, to: preferred.other, command: command, status: status))
            do {
                try configure(preferred.other)
                return preferred.other
            } catch .commandFailed(let adapter, let second, .commandDisallowed) {
                throw .adapterBusy(
                    adapter: adapter,
                    detail: "\(command) and \(second) both answered "
                        + "\(HCIStatus.commandDisallowed)")
            }
        }
    }

    private func configure(_ commands: ScanCommandSet) throws(BlueZScannerError) {
        _ = try send(commands.parametersCommand(configuration.scan))
        _ = try send(commands.enableCommand(true))
        enabledCommands = commands
    }

    /// Reads one packet while scanning (`nil`: nothing within `timeout`).
    func readPacket(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) throws(BlueZScannerError) -> Int? {
        guard let socket else { throw .adapterLost(adapter: adapterName, HCISystemError(.read, errno: EBADF)) }
        return try system { () throws(HCISystemError) in
            try transport.read(from: socket, into: buffer, timeout: timeout)
        }
    }

    /// Stops advertising and disables scanning (those that were on), restores the socket's
    /// previous filter and closes the socket. Each failed step is logged; none stops the others.
    func stop(logging: Bool = true) {
        guard let socket else { return }
        var clean = true
        let (advertised, scanned) = (advertisingCommands, enabledCommands)
        (advertisingCommands, enabledCommands) = (nil, nil)
        if advertised != nil || scanned != nil {
            // Advertising stops first (it started last), then scanning; both need the answers.
            do {
                try system { () throws(HCISystemError) in try transport.setFilter(.commandResponses, on: socket) }
                if let advertised {
                    do {
                        _ = try send(advertised.advertisingDisableCommand)
                        if logging { log(.advertisingStopped(adapter: adapterName)) }
                    } catch {
                        clean = false
                        log(.teardownFailed(step: "stop advertising on \(adapterName)", error))
                    }
                }
                if let scanned { _ = try send(scanned.enableCommand(false)) }
            } catch {
                clean = false
                log(.teardownFailed(step: "disable scanning on \(adapterName)", error))
            }
        }
        if let savedFilter {
            self.savedFilter = nil
            do {
                try system { () throws(HCISystemError) in try transport.setFilter(savedFilter, on: socket) }
            } catch {
                clean = false
                log(.teardownFailed(step: "restore the socket filter on \(adapterName)", error))
            }
        }
        transport.close(socket)
        self.socket = nil
        if logging && clean { log(.stopped(adapter: adapterName)) }
    }

    /// Sends `command` and waits for its Command Complete, skipping unrelated events.
    ///
    /// - Returns: the return parameters after the status.
    func send(_ command: HCICommand) throws(BlueZScannerError) -> [UInt8] {
        guard let socket else { throw .adapterLost(adapter: adapterName, HCISystemError(.write, errno: EBADF)) }
        try system { () throws(HCISystemError) in try transport.write(command.packet, to: socket) }
        for _ in 0...Self.maxSkippedEvents {
            let count = try system { () throws(HCISystemError) in
                try transport.read(from: socket, into: commandBuffer, timeout: configuration.commandTimeout)
            }
            guard let count else {
                throw .commandTimedOut(
                    adapter: adapterName, command: command.opcode,
                    timeout: configuration.commandTimeout)
            }
            let packet = UnsafeRawBufferPointer(rebasing: commandBuffer[..<count])
            let parsed = try decode { () throws(HCIEventError) in try HCICommandResponse.parse(packet) }
            guard let response = parsed, response.opcode == command.opcode else { continue }
            guard response.status == .success else {
                throw .commandFailed(adapter: adapterName, command: command.opcode, status: response.status)
            }
            if response.kind == .complete { return response.returnParameters }
        }
        throw .commandTimedOut(adapter: adapterName, command: command.opcode, timeout: configuration.commandTimeout)
    }

    private func system<T>(_ body: () throws(HCISystemError) -> T) throws(BlueZScannerError) -> T {
        do { return try body() } catch { throw BlueZScannerError(error, adapter: adapterName) }
    }

    private func decode<T>(_ body: () throws(HCIEventError) -> T) throws(BlueZScannerError) -> T {
        do { return try body() } catch { throw .malformedResponse(adapter: adapterName, error) }
    }
}
