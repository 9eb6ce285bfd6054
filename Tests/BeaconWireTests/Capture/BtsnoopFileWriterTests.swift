import BeaconCore
import BeaconWire
import Foundation
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
