import BeaconCore
import BeaconWire
import Foundation
import Synchronization
import Testing

@testable import BeaconTestSupport

@Suite("BtsnoopFileWriter: appending, reopening, and reading back with tshark and btmon")
struct BtsnoopFileWriterTests {
    /// The first `count` H4 packets of the synthetic capture with their timestamps.
    static func packets(_ count: Int) throws -> [(Timestamp, [UInt8])] {
        var out: [(Timestamp, [UInt8])] = []
        try CaptureFile(path: CaptureFixtures.path("hci_2k_seed1.btsnoop")).forEachItem { item in
            if case .record(let record) = item, out.count < count { out.append((record.timestamp, Array(record.bytes))) }
        }
        return out
    }

    static func write(_ packets: ArraySlice<(Timestamp, [UInt8])>, to path: String) throws {
        let writer = try BtsnoopFileWriter(path: path, datalink: .linuxMonitor)
        for (timestamp, bytes) in packets {
            try bytes.withUnsafeBytes { try writer.append(h4Packet: $0, direction: .received, timestamp: timestamp) }
        }
        try writer.close()
    }

    @Test("records written in two sessions read back in order")
    func appendAcrossSessions() throws {
        let packets = try Self.packets(300)
        let path = CaptureFixtures.temporaryPath("append.btsnoop")
        try Self.write(packets[0..<100], to: path)
        try Self.write(packets[100...], to: path)
        let walk = CaptureWalk(try CaptureFile(path: path))
        #expect(walk.errors.isEmpty)
        #expect(walk.records.map(\.bytes) == packets.map(\.1))
        #expect(walk.records.map(\.nanoseconds) == packets.map(\.0.nanosecondsSinceEpoch))
        #expect(try CaptureFile(path: path).format == .btsnoop(.linuxMonitor))
    }

    @Test("a file of another datalink or format is not appended to")
    func incompatible() throws {
        let path = CaptureFixtures.temporaryPath("h4.btsnoop")
        try Data(try CaptureFixtures.bytes("hci_2k_seed1.btsnoop")).write(to: URL(fileURLWithPath: path))
        #expect { try BtsnoopFileWriter(path: path, datalink: .linuxMonitor) } throws: {
            ($0 as? CaptureWriteError)?.kind == .incompatibleFile
        }
        #expect(
            try CaptureFixtures.bytes("hci_2k_seed1.btsnoop").count == (try Data(contentsOf: URL(fileURLWithPath: path))).count)
        #expect { try BtsnoopFileWriter(path: "/nonexistent/dir/x.btsnoop") } throws: {
            ($0 as? CaptureWriteError)?.kind == .io
        }
    }

    /// What the canary thread of ``refusedFileClosedOnce()`` shares with the test.
    final class Canary: Sendable {
        let stop = Atomic(false)
        /// Pipes the canary found no longer its own (closed, or another file under their number).
        let lost = Atomic(0)
        let checked = Atomic(0)
        /// Signalled once the first pipe has been checked: the canary is running.
        let running = DispatchSemaphore(value: 0)

        /// Opens pipes until told to stop, each checked to be still its own (the same pipe inode
        /// under both numbers) before it is closed; one that is not is counted and left alone.
        func run() {
            while !stop.load(ordering: .relaxed) {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { continue }
                var status = stat()
                guard fstat(ends[0], &status) == 0 else { continue }
                let inode = status.st_ino
                sched_yield()
                let own = ends.allSatisfy { end in
                    var now = stat()
                    return fstat(end, &now) == 0 && now.st_ino == inode
                }
                if own {
                    close(ends[0])
                    close(ends[1])
                } else {
                    lost.add(1, ordering: .relaxed)
                }
                if checked.add(1, ordering: .relaxed).newValue == 1 { running.signal() }
            }
        }
    }

    /// A writer refused a file closes it, once. A second close (the deinit of the half-made
    /// writer, as it was) closes whatever descriptor took the number meanwhile: another thread's
    /// pipe or socket. It showed in one CI run as `btmon` failing to start with EBADF, while
    /// ``incompatible()`` ran beside it. A thread opens and checks pipes while this one, once
    /// that thread runs, is refused a file 5,000 times; with the second close back, 630–1,954
    /// pipes of 20,000 refusals were lost a run here, and of these 5,000, 21–662 in each of five.
    @Test("a refused file is closed once: descriptors other threads open meanwhile stay theirs")
    func refusedFileClosedOnce() async throws {
        let path = CaptureFixtures.temporaryPath("refused.btsnoop")
        try Data(try CaptureFixtures.bytes("hci_2k_seed1.btsnoop")).write(to: URL(fileURLWithPath: path))
        let canary = Canary()
        async let watched: Void = onOwnThread { canary.run() }
        let refusals = await onOwnThread { () -> Int in
            // Only a hang reaches the ceiling: the canary's first check is its first loop.
            defer { canary.stop.store(true, ordering: .relaxed) }
            guard canary.running.wait(timeout: .now() + .seconds(180)) == .success else { return 0 }
            return (0..<5_000).count { _ in (try? BtsnoopFileWriter(path: path, datalink: .linuxMonitor)) == nil }
        }
        await watched
        #expect(refusals == 5_000)
        #expect(canary.lost.load(ordering: .relaxed) == 0, "pipes closed under the canary by the refusals")
    }

    /// Runs `tool` with `arguments` (waited for on a thread of its own, not the cooperative
    /// pool); `nil` when the tool is not installed.
    static func run(_ tool: String, _ arguments: [String]) async throws -> String? {
        try await onOwnThread { try blockingRun(tool, arguments) }
    }

    private static func blockingRun(_ tool: String, _ arguments: [String]) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        blockUntilExit(process)
        return String(decoding: output, as: UTF8.self)
    }

    @Test("tshark reads the written monitor file: every frame an LE Advertising Report")
    func tsharkReadsBack() async throws {
        let packets = try Self.packets(50)
        let path = CaptureFixtures.temporaryPath("tshark.btsnoop")
        try Self.write(packets[...], to: path)
        guard
            let output = try await Self.run("/usr/bin/tshark", ["-r", path, "-T", "fields", "-e", "bthci_evt.le_meta_subevent"])
        else {
            print("tshark is not installed (apt package tshark): skipping the tshark read-back check")
            return
        }
        let lines = output.split(separator: "\n")
        #expect(lines.count == 50)
        #expect(lines.allSatisfy { $0 == "0x02" })
    }

    @Test("btmon reads the written monitor file")
    func btmonReadsBack() async throws {
        let packets = try Self.packets(20)
        let path = CaptureFixtures.temporaryPath("btmon.btsnoop")
        try Self.write(packets[...], to: path)
        guard let output = try await Self.run("/usr/bin/btmon", ["-r", path]) else {
            print("btmon is not installed (apt package bluez): skipping the btmon read-back check")
            return
        }
        #expect(output.components(separatedBy: "LE Advertising Report").count - 1 == 20)
    }
}
