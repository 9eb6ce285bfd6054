import BeaconControl
import BeaconCore
import BeaconHTTP
import BeaconPipeline
import BeaconTestSupport
import Foundation
import Testing

/// Named beacons on the status API: `name` and `tags` on their rows (schema-valid), found by
/// the filter, sorted by name; an unknown beacon's row stays, without them.
@Suite("Named beacons on the status API")
struct NamedBeaconsStatusTests {
    static let anna = BeaconID.iBeacon(uuid: UUID(uuidString: "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A")!, major: 1, minor: 1)
    static let stranger = BeaconID.iBeacon(uuid: UUID(uuidString: "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A")!, major: 0, minor: 0)

    static func beacon(_ id: BeaconID) -> RangedBeacon {
        let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
        return RangedBeacon(
            id: id, lastAddress: BluetoothAddress("01:02:03:04:05:06")!, seenThisCycle: true, sampleCount: 3,
            lastRSSI: -60, meanRSSI: -61, filteredRSSI: -61, measuredPower: -59, distance: 1.2, accuracy: 0.3,
            proximity: .near, firstSeen: time, lastSeen: time)
    }

    static func routes(log: AlertLog = AlertLog(sinks: [])) -> ControlRoutes {
        let board = StatusBoard(
            sources: .init(
                sourceName: "test",
                inspect: {
                    var inspection = PipelineInspection()
                    inspection.beacons = [beacon(stranger), beacon(anna)]
                    inspection.directory = BeaconDirectory([NamedBeacon(id: anna, name: "Anna's badge", tags: ["staff"])])
                    return inspection
                }, outbox: { [] }),
            log: log, refreshInterval: .zero)
        return StatusEndpointTests.routes(token: nil, board: board)
    }

    @Test("the named beacon's row has its name and tags, the stranger's has neither; filter and sort use them")
    func rows() async throws {
        let routes = Self.routes()
        let all = await StatusRoutesTests.get("/api/beacons", routes).body
        #expect(all.contains(#"{"id":"\#(Self.anna)","name":"Anna's badge","tags":["staff"],"proximity""#), "\(all)")
        #expect(all.contains(#"{"id":"\#(Self.stranger)","proximity""#), "\(all)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("named-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StatusPageTests.validate(all, as: "beacons", in: directory)

        let staff = await StatusRoutesTests.get("/api/beacons?filter=staff", routes).body
        #expect(staff.contains(#""total":1"#) && staff.contains("Anna's badge"), "\(staff)")
        let byName = await StatusRoutesTests.get("/api/beacons?filter=anna", routes).body
        #expect(byName.contains(#""total":1"#), "\(byName)")
        // By id the stranger (major 0) comes first; by name the named beacon does.
        let sorted = await StatusRoutesTests.get("/api/beacons?sort=name", routes).body
        let first = try #require(sorted.range(of: "\(Self.anna)"))
        let second = try #require(sorted.range(of: "\(Self.stranger)"))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test("the alert log names the named beacon (the page shows the name, the id in its title); the stranger has none")
    func logRows() async throws {
        let log = AlertLog(sinks: ["jsonl:-"])
        let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
        for beacon in [Self.anna, Self.stranger] {
            log.record(AlertEvent(kind: .delivered, alertID: "welcome", beacon: beacon, strategy: "time", time: time))
        }
        let alerts = await StatusRoutesTests.get("/api/alerts", Self.routes(log: log)).body
        #expect(alerts.contains(#""beacon":"\#(Self.anna)","name":"Anna's badge""#), "\(alerts)")
        #expect(
            alerts.contains(#""beacon":"\#(Self.stranger)","title""#) || alerts.contains(#""beacon":"\#(Self.stranger)","time""#),
            "\(alerts)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("named-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StatusPageTests.validate(alerts, as: "alerts", in: directory)
    }
}
