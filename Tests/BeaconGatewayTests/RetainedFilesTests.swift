import BeaconCore
import BeaconSiteLink
import BeaconWire
import Foundation
import Testing

@testable import BeaconGateway

/// `retention.presence` and `retention.recordings`: the files rotate on their data's time every
/// half of the limit, keep one older part, and so never hold anything older than the limit.
@Suite("Retention of presence lines and recordings")
struct RetainedFilesTests {
    static let t0 = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
    static let hour = Duration.seconds(3600)
    static let day = Duration.seconds(86_400)

    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-retained-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a schedule of 4 days starts a part every 2 days of data time, from the first time")
    func schedule() {
        var schedule = RotationSchedule(keeping: Self.day * 4)
        let starts = [0, 2 * 86_400 - 1, 2 * 86_400, 3 * 86_400, 5 * 86_400].map { second in
            schedule.startsNewPart(at: Self.t0 + .seconds(second))
        }
        // The first time begins the first part; a new one starts 2 days of data time later, then 2 days after that.
        #expect(starts == [false, false, true, false, true])
        #expect(schedule.partStart == Self.t0 + Self.day * 5)
    }

    /// The hours (since t0) the lines of `path` name.
    static func hours(in path: String) throws -> [Int] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { Int($0.dropFirst("hour ".count))! }
    }

    @Test("ten days of hourly presence lines kept 4 days: the file and FILE.1 hold the last 2–4 days, nothing older")
    func presenceRotates() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        try "hour -1\n".write(toFile: path, atomically: false, encoding: .utf8) // a previous run's line
        let file = try PresenceFile(path: path, retention: Self.day * 4)
        #expect(try Self.hours(in: path + ".1") == [-1], "the file found at the start is kept as FILE.1")
        for hour in 0..<240 {
            file.rotateIfDue(at: Self.t0 + Self.hour * hour)
            file.write("hour \(hour)\n")
            file.flush()
        }
        try file.close()
        let current = try Self.hours(in: path)
        let older = try Self.hours(in: path + ".1")
        #expect(current == Array(192..<240), "the part begun at day 8")
        #expect(older == Array(144..<192), "the part of days 6 to 8")
        #expect((older + current).allSatisfy { 239 - $0 <= 4 * 24 }, "nothing older than the limit")
        #expect(!FileManager.default.fileExists(atPath: path + ".2"))
    }

    @Test("without a retention the presence file is truncated at the start and never rotated")
    func presenceWithoutRetention() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        try "hour -1\n".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try PresenceFile(path: path)
        for hour in 0..<100 {
            file.rotateIfDue(at: Self.t0 + Self.hour * hour)
            file.write("hour \(hour)\n")
        }
        try file.close()
        #expect(try Self.hours(in: path) == Array(0..<100))
        #expect(!FileManager.default.fileExists(atPath: path + ".1"))
    }

    /// A source of one advertisement an hour for `hours` hours.
    struct HourlySource: AdvertisementSource {
        let hours: Int
        var name: String { "hourly" }
        func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
            for hour in 0..<hours {
                var batch = PacketBatch()
                batch.append(timestamp: RetainedFilesTests.t0 + RetainedFilesTests.hour * hour) { bytes in
                    HCIEventEncoder.appendLEAdvertisingReport(
                        eventType: 3, addressType: .random, address: BluetoothAddress("cb:ea:c0:00:00:03")!, rssi: -60,
                        data: [0x02, 0x01, 0x06], to: &bytes)
                }
                try await deliver(batch)
            }
        }
    }

    /// The hours (since t0) of the packets recorded at `path`.
    static func recordedHours(_ path: String) throws -> [Int] {
        var hours: [Int] = []
        try CaptureFile(path: path).forEachItem { item in
            if case .record(let record) = item {
                hours.append(Int((Self.t0.duration(to: record.timestamp) / Self.hour).rounded()))
            }
        }
        return hours
    }

    @Test("ten days of a radio's recording kept 4 days: two btsnoop parts, each readable, nothing older than the limit")
    func recordingRotates() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/air.btsnoop"
        let source = try RecordingSource(HourlySource(hours: 240), path: path, retention: Self.day * 4)
        var delivered = 0
        try await source.run { _ in delivered += 1 }
        #expect(delivered == 240, "every batch still reaches the pipeline")
        #expect(try Self.recordedHours(path) == Array(192..<240))
        #expect(try Self.recordedHours(path + ".1") == Array(144..<192))
    }
}
