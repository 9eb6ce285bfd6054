import BeaconCore
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// Spoofing and floods through `beacond replay`, on captures written here: one beacon id at
/// 10,000 advertisements a second, and 100,000 distinct ids at that rate (each capture holds
/// 100,000 records, 10 s). The memory checked is what the replay's summary says the ranging loop
/// reserved for its tracked beacons (its buffers never shrink: the most it held), against the
/// documented 512 bytes per beacon; the peak RSS is printed, not asserted (it moves by several
/// MB with the machine's load).
@Suite("beacond replay under a flood", .serialized)
struct ReplayFloodTests {
    static let uuid = UUID(uuidString: "F100D5E0-0000-4000-8000-00000000F100")!
    static let records = 100_000
    /// The documented ranging budget per tracked beacon (Docs/Ranging.md).
    static let bytesPerBeacon = 512.0

    struct Run {
        let created: Int
        let rangingBytes: Int
        let peakMebibytes: Double
        let refused: Int
        let evicted: Int
        let refusedNewcomers: Int
        let summary: String
    }

    /// A capture of `records` reports, 100 µs apart; `distinct` ids (minor and major count up).
    static func writeFlood(to path: String, distinct: Int) throws {
        let writer = try BtsnoopFileWriter(path: path)
        let start = Timestamp(rfc3339: "2025-06-01T12:00:00Z")!
        for index in 0..<records {
            let id = index % distinct
            let packet = HCIReportBuilder.iBeacon(
                uuid: uuid, major: UInt16(id / 50_000 + 1), minor: UInt16(id % 50_000), rssi: -55)
            try packet.withUnsafeBytes { bytes in
                try writer.append(h4Packet: bytes, direction: .received, timestamp: start + .microseconds(Int64(index) * 100))
            }
        }
        try writer.close()
    }

    static func replay(
        _ capture: String, maxTracked: Int?, maxNewPerCycle: Int? = nil, alertUUID: UUID, in directory: String
    ) async throws -> Run {
        let config = directory + "/flood-\(UUID().uuidString).yaml"
        let ranging = [maxTracked.map { "maxTracked: \($0)" }, maxNewPerCycle.map { "maxNewPerCycle: \($0)" }].compactMap { $0 }
        try """
        \(ranging.isEmpty ? "" : "ranging: {\(ranging.joined(separator: ", "))}")
        alerts:
          - id: hello
            match: {uuid: \(alertUUID.uuidString)}
            strategy: enter

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["replay", capture, "--config", config])
        #expect(run.status == 0, "\(run.standardError)")
        let summary = run.standardError
        func number(after label: String) -> Double? {
            guard let range = summary.range(of: label) else { return nil }
            return Double(summary[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        return Run(
            created: Int(number(after: "hello/created ") ?? 0),
            rangingBytes: Int(try #require(number(after: "ranging memory "))) * 1024,
            peakMebibytes: try #require(number(after: "peak RSS ")),
            refused: Int(number(after: "cap (ranging.maxTracked): ") ?? 0),
            evicted: Int(number(after: "refused, ") ?? 0),
            refusedNewcomers: summary.components(separatedBy: " new beacons refused past ranging.maxNewPerCycle")
                .dropLast().last.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0,
            summary: summary)
    }

    @Test("one id at 10,000 adverts/s is one beacon and one alert; 100,000 ids stay within the cap, its memory and its alerts")
    func floods() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flood-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let oneID = directory + "/one-id.btsnoop"
        let manyIDs = directory + "/many-ids.btsnoop"
        try Self.writeFlood(to: oneID, distinct: 1)
        try Self.writeFlood(to: manyIDs, distinct: Self.records)

        // One id, however loud: one beacon, one enter alert.
        let spoofed = try await Self.replay(oneID, maxTracked: 1_000, alertUUID: Self.uuid, in: directory)
        #expect(spoofed.created == 1, "\(spoofed.summary)")
        #expect(spoofed.refused == 0)

        // 100,000 ids against a cap of 1,000: the rest is refused or evicts the oldest, counted;
        // alerts come only for beacons admitted, and memory is that of 1,000 beacons.
        let capped = try await Self.replay(manyIDs, maxTracked: 1_000, alertUUID: Self.uuid, in: directory)
        #expect(capped.refused > 90_000, "\(capped.summary)")
        #expect(capped.evicted > 0, "\(capped.summary)")
        #expect(capped.created <= 1_000 + capped.evicted, "an enter alert per admitted beacon at most: \(capped.summary)")
        #expect(capped.created < Self.records / 20, "\(capped.summary)")

        // With the defaults (a cap of 200,000 tracked, 1,000 new a cycle) and no alert for them:
        // 1,000 of the 10,000 new ids a second get in, the rest are refused as newcomers.
        let defaults = try await Self.replay(manyIDs, maxTracked: nil, alertUUID: UUID(), in: directory)
        #expect(defaults.refusedNewcomers > 80_000, "\(defaults.summary)")
        #expect(Double(defaults.rangingBytes) <= 40_000 * Self.bytesPerBeacon, "\(defaults.summary)")

        // With no cap on newcomers either, the 100,000 beacons are all tracked: the growth is the
        // ranging's own cost per beacon, within its budget.
        let uncapped = try await Self.replay(
            manyIDs, maxTracked: nil, maxNewPerCycle: 1_000_000, alertUUID: UUID(), in: directory)
        #expect(uncapped.refused == 0)
        let perBeacon = Double(uncapped.rangingBytes) / Double(Self.records)
        #expect(perBeacon <= Self.bytesPerBeacon, "\(perBeacon) bytes per tracked beacon: \(uncapped.summary)")
        #expect(
            Double(capped.rangingBytes) <= 1_000 * Self.bytesPerBeacon + 256 * 1024,
            "capped at 1,000 beacons: \(capped.rangingBytes) bytes")
        print(
            "flood: one id: peak RSS \(spoofed.peakMebibytes) MB; 100,000 ids capped at 1,000: ranging "
                + "\(capped.rangingBytes / 1024) KiB, peak RSS \(capped.peakMebibytes) MB (\(capped.created) alerts, "
                + "\(capped.refused) refused, \(capped.evicted) evicted); uncapped: ranging \(uncapped.rangingBytes / 1024) KiB "
                + "(\(Int(perBeacon)) B per tracked beacon), peak RSS \(uncapped.peakMebibytes) MB; defaults (1,000 new a cycle): "
                + "ranging \(defaults.rangingBytes / 1024) KiB, peak RSS \(defaults.peakMebibytes) MB, \(defaults.refusedNewcomers) newcomers refused"
        )
    }
}
