import BeaconCore
import BeaconSimulator
import BeaconWire
import Foundation
import Synchronization
import Testing

/// A paced replay delivers each record at its capture time × speed: a sparse capture (records
/// 10 s apart) is not handed over in one batch ahead of its time.
@Suite("Capture replay pacing")
struct CaptureReplayPacingTests {
    /// A clock whose sleeps end at once at their deadline, recording when each delivery happens.
    final class JumpingClock: Clock, Sendable {
        typealias Instant = Timestamp
        typealias Duration = Swift.Duration
        let manual = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000))
        var now: Timestamp { manual.now }
        var minimumResolution: Swift.Duration { .nanoseconds(1) }
        func sleep(until deadline: Timestamp, tolerance: Swift.Duration?) async throws {
            if deadline > manual.now { manual.advance(to: deadline) }
        }
    }

    static func writeCapture(seconds: [Double]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sparse-\(UUID()).btsnoop").path
        let writer = try BtsnoopFileWriter(path: path)
        let start = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!
        let packet: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x00, 0x00, 0x00] // Command Complete, no-op
        for second in seconds {
            try packet.withUnsafeBytes { bytes in
                try writer.append(
                    h4Packet: bytes, direction: .received,
                    timestamp: start + .milliseconds(Int64(second * 1000)))
            }
        }
        try writer.close()
        return path
    }

    @Test("at speed 2, records 10 s apart are delivered 5 s apart, each in its own batch", arguments: [2.0, 1.0])
    func sparseCapture(_ speed: Double) async throws {
        let path = try Self.writeCapture(seconds: [0, 0.01, 10, 20, 20.02])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = JumpingClock()
        let source = try CaptureReplaySource(path: path, speed: speed, clock: clock)
        let origin = clock.now
        var deliveries: [(wall: Double, records: Int)] = []
        try await source.run { batch in
            deliveries.append(((clock.now - origin).secondsValue, batch.count))
        }
        // Records within 50 ms (× speed) share a batch; the others wait for their time.
        #expect(deliveries.map(\.records) == [2, 1, 2])
        #expect(deliveries.map(\.wall) == [0, 10 / speed, 20 / speed])
    }
}
