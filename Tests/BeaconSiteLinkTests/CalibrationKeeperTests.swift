import BeaconCore
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import BeaconStrategies
import Foundation
import Logging
import Testing

@testable import BeaconSiteLink

@Suite("A hub keeps its calibrated radio model across restarts")
struct CalibrationKeeperTests {
    static let base = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
    static let corners: [(Double, Double)] = [(0, 0), (10, 0), (20, 0), (0, 12), (10, 12), (20, 12)]
    static let offsets: [Double] = [3, -2, 0, 1, -4, 2]

    static func hub(gateways: [String] = (0..<6).map { "g\($0)" }) throws -> AlertPipeline {
        let layout = try SiteLayout(
            gateways: zip(gateways, corners).map { id, c in
                SiteGateway(id: id, room: "hall", position: Vector3(x: c.0, y: c.1, z: 2.5))
            }, site: "lab")
        let fusion = try SiteFusion(
            layout: layout,
            configuration: SiteFusionConfiguration(
                lateness: .zero, positioning: PositioningConfiguration(tagHeight: 2.5),
                calibration: SelfCalibration(interval: .seconds(20), window: 600, minimumFixes: 30)))
        return try AlertPipeline(alerts: [], registry: .builtIn(), site: fusion)
    }

    /// The gateways hear each other's advertised identities for `seconds` (exponent 2.2, the
    /// offsets above), and the keeper is called after each cycle as the daemon does.
    static func run(_ hub: AlertPipeline, keeper: CalibrationKeeper, seconds: Int) throws {
        var random = SplitMix64(seed: 3)
        try hub.observeSiteCycles(evidence: false) { _, facts in keeper.saveAfterFit(facts.calibration) }
        for second in 1...seconds {
            let time = base + .seconds(Int64(second))
            var reports: [GatewayReportMessage] = []
            for (g, c) in corners.enumerated() {
                var records: [GatewayRecord] = []
                for (a, other) in corners.enumerated() where a != g {
                    let d = ((c.0 - other.0) * (c.0 - other.0) + (c.1 - other.1) * (c.1 - other.1)).squareRoot()
                    let rssi = -59 - 22 * log10(d) - offsets[g] + 2 * random.nextGaussian()
                    records.append(
                        GatewayRecord(
                            beacon: SiteGatewayBeacon.identity(site: "lab", gateway: "g\(a)"), rssi: rssi, meanRSSI: rssi,
                            distance: nil, accuracy: nil, sampleCount: 4, seen: true, lastSeen: time, measuredPower: -59))
                }
                reports.append(
                    .decoded(
                        GatewayReportHeader(gateway: "g\(g)", time: time, cycleLength: .seconds(1), recordCount: records.count),
                        records))
            }
            try hub.ingest(reports: reports, emit: { _ in })
            try hub.advance(to: time, emit: { _ in })
        }
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the model a hub learned is saved after its fit and taken up by the next hub; other gateways' is not")
    func savedAndTakenUp() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = CalibrationFile(path: directory.appendingPathComponent("hub.sqlite.calibration.json").path)
        let first = try Self.hub()
        let keeper = CalibrationKeeper(hub: first, file: file, logger: Logger(label: "test"))
        #expect(!keeper.takeUp()) // no file yet
        try Self.run(first, keeper: keeper, seconds: 30)
        let learned = try #require(first.siteCalibration)
        #expect(learned.applied == 1, "\(learned.summary)")
        let saved = try #require(try file.load())
        #expect(saved.model == learned.model)
        #expect(saved.gateways == (0..<6).map { "g\($0)" })

        let restarted = try Self.hub()
        #expect(restarted.siteCalibration?.model != learned.model)
        #expect(CalibrationKeeper(hub: restarted, file: file, logger: Logger(label: "test")).takeUp())
        #expect(restarted.siteCalibration?.model == learned.model)
        #expect(restarted.siteCalibration?.applied == 1)

        // A site whose gateways were renamed calibrates afresh.
        let renamed = try Self.hub(gateways: (0..<6).map { "n\($0)" })
        #expect(!CalibrationKeeper(hub: renamed, file: file, logger: Logger(label: "test")).takeUp())
        #expect(renamed.siteCalibration?.model.pathLossExponent == 1.5)
    }

    @Test("a file that is not a saved calibration is named, with what to do, and nothing is taken up")
    func unreadableFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("broken.json").path
        try Data("{\"model\": 3".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: CalibrationFileError.self) { try CalibrationFile(path: path).load() }
        #expect(error?.description.contains("delete it and the hub calibrates afresh") == true)
        let hub = try Self.hub()
        #expect(!CalibrationKeeper(hub: hub, file: CalibrationFile(path: path), logger: Logger(label: "test")).takeUp())
        #expect(hub.siteCalibration?.fits == 0)
    }
}
