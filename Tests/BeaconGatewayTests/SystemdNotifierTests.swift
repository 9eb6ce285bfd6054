import BeaconCore
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconGateway

#if canImport(Glibc)
import Glibc
#endif

/// `sd_notify`'s protocol, spoken to a real datagram socket, and a real `beacond run` that says
/// `READY=1` to it before its held scenario starts (`startFile:`), then runs the scenario from
/// the time the file gives.
@Suite("systemd notifications and the held scenario")
struct SystemdNotifierTests {
    /// A datagram socket bound at a path (or in the abstract namespace), as systemd listens.
    final class NotifySocket: @unchecked Sendable {
        let fd: Int32
        let name: String

        init(abstract: Bool = false) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            let unique = "beacond-notify-\(UUID().uuidString.prefix(8))"
            name = abstract ? "@" + unique : FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
            guard let unix = SystemdNotifier.unixAddress(name) else { throw POSIXError(.ENAMETOOLONG) }
            var address = unix.0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, unix.1) }
            }
            guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            // Only a hang reaches this: a datagram comes or the test fails.
            var timeout = timeval(tv_sec: 180, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }

        /// The next datagram (nil after the ceiling).
        func receive() async -> String? {
            await onOwnThread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(self.fd, &buffer, buffer.count, 0)
                return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
            }
        }
    }

    @Test("READY=1 with its status, STOPPING=1, STATUS= reach a socket at a path and one in the abstract namespace")
    func messages() async throws {
        for abstract in [false, true] {
            let socket = try NotifySocket(abstract: abstract)
            let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
            #expect(notifier.ready(status: "ready: source running"))
            #expect(await socket.receive() == "READY=1\nSTATUS=ready: source running")
            #expect(notifier.stopping())
            #expect(await socket.receive() == "STOPPING=1")
            #expect(notifier.status("draining"))
            #expect(await socket.receive() == "STATUS=draining")
        }
    }

    @Test("without NOTIFY_SOCKET, or with nobody listening, nothing is sent and nothing fails")
    func nobodyListens() {
        #expect(SystemdNotifier(environment: [:]).socketPath == nil)
        #expect(!SystemdNotifier(environment: [:]).ready(status: "x"))
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).ready(status: "x"))
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"]).ready(status: "x"))
    }

    @Test("WATCHDOG_USEC is the watchdog's period, for this process only; WATCHDOG=1 and RELOADING=1 reach the socket")
    func watchdog() async throws {
        let own = Int(getpid())
        #expect(SystemdNotifier.watchdogInterval(microseconds: "30000000", pid: nil, ownPID: own) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(microseconds: "30000000", pid: "\(own)", ownPID: own) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(microseconds: "30000000", pid: "\(own + 1)", ownPID: own) == nil)
        #expect(SystemdNotifier.watchdogInterval(microseconds: "0", pid: nil, ownPID: own) == nil)
        #expect(SystemdNotifier.watchdogInterval(microseconds: "soon", pid: nil, ownPID: own) == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "500000"]).watchdogInterval == .milliseconds(500))
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)

        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        #expect(notifier.watchdog())
        #expect(await socket.receive() == "WATCHDOG=1")
        #expect(notifier.reloading())
        let reloading = try #require(await socket.receive())
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(Int64(reloading.split(separator: "=").last ?? "").map { $0 > 0 } == true, "\(reloading)")
    }

    @Test("a listener that never reads does not hold the daemon: a full queue drops the notification")
    func fullQueue() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        // A Unix datagram socket queues a few datagrams (net.unix.max_dgram_qlen, 10 by default)
        // and then a blocking send would wait for the reader for ever.
        let sent = (0..<64).map { _ in notifier.watchdog() }
        #expect(sent.first == true)
        #expect(sent.contains(false), "every send returned: the queue never filled or a send blocked")
    }

    @Test("a start file that holds something other than a time is an error that says what to write")
    func badStartFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ReleasedSimulation.startTime(in: file.path) == nil)
        try "soon".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: GatewayError.self) { try ReleasedSimulation.startTime(in: file.path) }
        do {
            _ = try ReleasedSimulation.startTime(in: file.path)
        } catch {
            #expect("\(error)".contains("not a time: write one in RFC 3339"), "\(error)")
        }
        try "2025-01-01T09:00:00Z\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try ReleasedSimulation.startTime(in: file.path) == Timestamp(rfc3339: "2025-01-01T09:00:00Z"))
        try "".write(to: file, atomically: true, encoding: .utf8)
        let modified = try #require(try ReleasedSimulation.startTime(in: file.path))
        #expect(abs(modified.secondsSinceEpoch - Date().timeIntervalSince1970) < 600)
    }

    @Test("beacond run says READY=1 while its scenario is held, and runs it from the time the start file gives")
    func heldScenarioStartsWhenReleased() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("desk.yaml")
        try """
        name: desk
        start: 2025-01-01T09:00:00Z
        duration: 3s
        seed: 1
        gateways:
          - {name: desk, position: [0, 0, 2]}
        beacons:
          - {name: tag, ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}, interval: 100ms, position: [1, 0, 1]}

        """.write(to: scenario, atomically: true, encoding: .utf8)
        let startFile = directory.appendingPathComponent("start")
        let events = directory.appendingPathComponent("events.jsonl")
        let configuration = directory.appendingPathComponent("gw.yaml")
        try """
        source: {simulate: \(scenario.path), speed: wall, startFile: \(startFile.path)}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: arrived, match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}, strategy: enter}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let socket = try NotifySocket()
        let log = directory.appendingPathComponent("gw.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = ["run", "--config", configuration.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": socket.name]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // First what it waits for, then that it is ready.
        let starting = await socket.receive()
        #expect(starting == "STATUS=starting: waiting for source running", "\(SiteProcesses.lines(log))")
        let ready = await socket.receive()
        #expect(ready == "READY=1\nSTATUS=ready: source running", "\(SiteProcesses.lines(log))")
        // Its log says so too (the line may follow READY=1 by a moment: waited for, as an event).
        let waiting = await realWorkFinishes(within: SiteProcesses.hang) {
            SiteProcesses.lines(log).contains { $0.contains("waiting for \(startFile.path) to start the scenario") }
        }
        #expect(waiting, "\(SiteProcesses.lines(log))")
        // Held: nothing is heard, so nothing is decided, however long it waits.
        #expect(SiteProcesses.lines(events).isEmpty)
        let start = try await SiteProcesses.release(startFile, watching: [log])
        await waitForExit(process)
        #expect(process.terminationStatus == 0, "\(SiteProcesses.lines(log).suffix(10))")
        let created = SiteProcesses.lines(events).filter { $0.contains(#""event":"created""#) }
        #expect(created.count == 1, "\(SiteProcesses.lines(events))")
        // On the wall clock from the released start, not from the scenario's 2025 start.
        let time = try #require(created.first.flatMap(SiteProcesses.time(of:)))
        #expect(time >= start && time <= start + .seconds(3), "\(time.rfc3339String) against \(start.rfc3339String)")
    }
}
