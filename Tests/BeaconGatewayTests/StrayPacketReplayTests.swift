import BeaconCore
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// A capture in which a neighbour's tag is heard once, at the edge of range, while a visitor's tag
/// is heard steadily (issue 26: an `enter` was fired by a single stray packet). Replayed through
/// `beacond replay` with and without `ranging.enter`.
@Suite("A stray packet in a capture")
struct StrayPacketReplayTests {
    static let visitor = UUID(uuidString: "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9")!
    static let neighbour = UUID(uuidString: "F9E8D7C6-B5A4-4392-8170-6F5E4D3C2B1A")!

    /// 20 s of the visitor every 200 ms at −65 dBm; the neighbour once, at 5 s, at −93 dBm.
    static func writeCapture(to path: String) throws {
        let writer = try BtsnoopFileWriter(path: path)
        let start = Timestamp(rfc3339: "2025-06-01T12:00:00Z")!
        var packets: [(Timestamp, [UInt8])] = (0..<100).map { i in
            (start + .milliseconds(Int64(i) * 200 + 50), HCIReportBuilder.iBeacon(uuid: visitor, major: 1, minor: 1, rssi: -65))
        }
        packets.append((start + .seconds(5), HCIReportBuilder.iBeacon(uuid: neighbour, major: 9, minor: 9, rssi: -93)))
        packets.sort { $0.0 < $1.0 }
        for (time, packet) in packets {
            try packet.withUnsafeBytes { try writer.append(h4Packet: $0, direction: .received, timestamp: time) }
        }
        try writer.close()
    }

    static func replay(_ capture: String, ranging: String, in directory: String) async throws -> [String] {
        let config = directory + "/stray-\(UUID().uuidString).yaml"
        try """
        \(ranging)
        alerts:
          - {id: arrival, strategy: enter}

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["replay", capture, "--config", config])
        #expect(run.status == 0, "\(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init).filter { $0.contains(#""event":"created""#) }
    }

    @Test("without ranging.enter the stray packet is an arrival; with minSightings 3 within 2 s only the visitor arrives")
    func strayPacket() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-stray-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capture = directory + "/stray.btsnoop"
        try Self.writeCapture(to: capture)
        let before = try await Self.replay(capture, ranging: "", in: directory)
        #expect(before.count == 2)
        #expect(before.contains { $0.contains(Self.neighbour.uuidString) })
        let after = try await Self.replay(capture, ranging: "ranging: {enter: {minSightings: 3, within: 2s}}", in: directory)
        #expect(after.count == 1)
        #expect(after.first?.contains(Self.visitor.uuidString) == true)
        let loud = try await Self.replay(capture, ranging: "ranging: {enter: {minRSSI: -90}}", in: directory)
        #expect(loud.count == 1 && loud.first?.contains(Self.visitor.uuidString) == true, "\(loud)")
    }
}
