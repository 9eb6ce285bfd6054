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

    /// A presence line of `hour` (since t0): its time, and the hour to read back.
    static func line(_ hour: Int) -> String {
        #"{"time":"\#((t0 + RetainedFilesTests.hour * hour).rfc3339String)","hour":\#(hour)}"# + "\n"
    }

    /// The hours (since t0) the lines of `path` name.
    static func hours(in path: String) throws -> [Int] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            Int(line.split(separator: ":").last!.dropLast())!
        }
    }

    /// Writes `hours` as presence lines through a file kept `retention`, one flush an hour.
    static func writePresence(_ path: String, hours: Range<Int>, retention: Duration?) throws {
        let file = try PresenceFile(path: path, retention: retention)
        for hour in hours {
            #expect(file.rotateIfDue(at: Self.t0 + Self.hour * hour) == nil)
            file.write(Self.line(hour))
            file.flush()
        }
        try file.close()
    }

    @Test(
        "nine and a half days of hourly presence lines kept 4 days, over a restart: the file and FILE.1 hold the last 2–4 days, nothing older"
    )
    func presenceRotates() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        try Self.writePresence(path, hours: -1..<30, retention: Self.day * 4)
        // A restart appends: the part found counts from its first line (hour -1).
        try Self.writePresence(path, hours: 30..<230, retention: Self.day * 4)
        let current = try Self.hours(in: path)
        let older = try Self.hours(in: path + ".1")
        // Parts begin at the first line 2 days after the last part began: -1, 47, 95, 143, 191.
        #expect(current == Array(191..<230))
        #expect(older == Array(143..<191))
        #expect((older + current).allSatisfy { 229 - $0 <= 4 * 24 }, "nothing older than the limit")
        #expect(!FileManager.default.fileExists(atPath: path + ".2"))
    }

    @Test("restarts that write nothing keep FILE.1 and the current part as they are")
    func emptyRestartsLoseNothing() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        try Self.writePresence(path, hours: 0..<60, retention: Self.day * 4)
        for _ in 0..<3 { try PresenceFile(path: path, retention: Self.day * 4).close() }
        #expect(try Self.hours(in: path + ".1") == Array(0..<48))
        #expect(try Self.hours(in: path) == Array(48..<60))
    }

    @Test("a rotation that cannot rename says why and writes on to the current file")
    func rotationFailureKeepsWriting() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        // FILE.1 is a non-empty directory: rename(2) cannot replace it.
        try FileManager.default.createDirectory(atPath: path + ".1/x", withIntermediateDirectories: true)
        let file = try PresenceFile(path: path, retention: Self.day * 4)
        var failures: [String] = []
        for hour in 0..<60 {
            if let failure = file.rotateIfDue(at: Self.t0 + Self.hour * hour) { failures.append(failure) }
            file.write(Self.line(hour))
        }
        try file.close()
        #expect(failures.count == 1 && failures[0].contains("cannot rename"), "\(failures)")
        #expect(try Self.hours(in: path) == Array(0..<60), "no line lost")
    }

    @Test("without a retention the presence file is truncated at the start and never rotated")
    func presenceWithoutRetention() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/presence.jsonl"
        try Self.writePresence(path, hours: -5..<0, retention: nil)
        try Self.writePresence(path, hours: 0..<100, retention: nil)
        #expect(try Self.hours(in: path) == Array(0..<100))
        #expect(!FileManager.default.fileExists(atPath: path + ".1"))
    }

    /// A source of one advertisement an hour for `hours` hours.
    struct HourlySource: AdvertisementSource {
        let hours: Range<Int>
        var name: String { "hourly" }
        func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
            for hour in hours {
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

    @Test(
        "ten days of a radio's recording kept 4 days, over a restart: two btsnoop parts, each readable, nothing older than the limit"
    )
    func recordingRotates() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/air.btsnoop"
        var delivered = 0
        try await RecordingSource(HourlySource(hours: 0..<30), path: path, retention: Self.day * 4).run { _ in delivered += 1 }
        // A restart (a second source on the same file) appends, counting the part from hour 0.
        try await RecordingSource(HourlySource(hours: 30..<240), path: path, retention: Self.day * 4).run { _ in delivered += 1 }
        #expect(delivered == 240, "every batch still reaches the pipeline")
        #expect(try Self.recordedHours(path) == Array(192..<240))
        #expect(try Self.recordedHours(path + ".1") == Array(144..<192))
    }
}
