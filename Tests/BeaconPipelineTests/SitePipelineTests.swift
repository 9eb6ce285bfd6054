import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import BeaconStrategies
import BeaconStrategyKit
import Foundation
import Testing

/// A site hub's pipeline: fused beacons through the same strategies and engine as one gateway's.
@Suite("Site pipeline: rooms and positions through strategies and engine")
struct SitePipelineTests {
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!
    static let tag = BeaconID.iBeacon(uuid: UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!, major: 1, minor: 1)
    /// Two rooms of two gateways each: the hall along y = 0, the shop along y = 10.
    static let gateways = [
        ("a", "hall", 0.0, 0.0), ("b", "hall", 10, 0), ("c", "shop", 0, 10), ("d", "shop", 10, 10),
    ]

    static func pipeline(_ alerts: [PipelineAlert]) throws -> AlertPipeline {
        let layout = try SiteLayout(
            gateways: gateways.map { SiteGateway(id: $0.0, room: $0.1, position: Vector3(x: $0.2, y: $0.3, z: 1.5)) })
        let site = try SiteFusion(
            layout: layout,
            configuration: SiteFusionConfiguration(positioning: PositioningConfiguration(tagHeight: 1.5)))
        return try AlertPipeline(alerts: alerts, registry: .builtIn(), site: site)
    }

    /// Every gateway's report of the tag at `(x, y)` for the cycle ending `second` s after t0:
    /// exact distances, RSSI falling 15 dB per decade of distance from -59 dBm at 1 m (the
    /// hub's default model).
    static func reports(second: Int, x: Double, y: Double) -> [GatewayReportMessage] {
        let time = t0 + .seconds(second)
        return gateways.map { id, _, gx, gy in
            let d = ((x - gx) * (x - gx) + (y - gy) * (y - gy)).squareRoot()
            let record = GatewayRecord(
                beacon: tag, rssi: -59 - 15 * log10(max(d, 0.1)), meanRSSI: -59 - 15 * log10(max(d, 0.1)), distance: d,
                accuracy: 0.3 * d, sampleCount: 5,
                seen: true, lastSeen: time)
            return .decoded(GatewayReportHeader(gateway: id, time: time, cycleLength: .seconds(1), recordCount: 1), [record])
        }
    }

    @Test("dwell in a room, a move between rooms, a stay in an area and a room entry each alert once, on time")
    func siteStrategies() throws {
        let pipeline = try Self.pipeline([
            PipelineAlert(id: "hall-dwell", strategy: "time", parameters: ["dwell": .string("60s"), "room": .string("hall")]),
            PipelineAlert(id: "to-shop", strategy: "moved", parameters: ["from": .string("hall"), "to": .string("shop")]),
            PipelineAlert(
                id: "till", strategy: "area",
                parameters: ["x": .number(2), "y": .number(9), "radius": .number(1.5)]),
            PipelineAlert(id: "shop-entry", strategy: "region", parameters: ["region": .string("shop")]),
        ])
        var created: [String] = []
        // 70 s at (3, 2) in the hall, then 20 s at (2, 9) in the shop.
        for second in 1...90 {
            let (x, y) = second <= 70 ? (3.0, 2.0) : (2.0, 9.0)
            try pipeline.ingest(reports: Self.reports(second: second, x: x, y: y)) { routed in
                if routed.event.kind == .created {
                    created.append("\(routed.event.alertID) @\((routed.event.time - Self.t0).components.seconds)")
                }
            }
        }
        try pipeline.advance(to: Self.t0 + .seconds(92)) { _ in }
        // Cycles are fused one lateness (1 s) after they end, and named by their end.
        // The hall visit starts at 1 s: 60 s of dwell at 61 s. Rooms compare two-cycle means: at
        // 71 s the shop leads by 1.9 dB only (-68.6 against -70.4 dBm: half of each is the cycle
        // before the move), from 72 s by 9.3 dB (the margin is 4), and the room changes once
        // that has lasted 2 s, at 74 s.
        #expect(created.filter { !$0.hasPrefix("till") } == ["hall-dwell @61", "to-shop @74", "shop-entry @74"])
        // The tracked position follows the 7.1 m jump within a few cycles; the area (1.5 m
        // around the till) then holds it for two: one alert, a few seconds after the arrival.
        let till = created.filter { $0.hasPrefix("till") }
        #expect(till.count == 1)
        let tillSecond = till.first.flatMap { Int($0.dropFirst("till @".count)) } ?? 0
        #expect((72...77).contains(tillSecond), "\(till)")
        #expect(pipeline.statistics.site?.roomChanges == 1)
    }

    @Test("a strategy naming a room the site does not have is refused, listing the rooms")
    func unknownRoom() {
        #expect {
            _ = try Self.pipeline([
                PipelineAlert(id: "dwell", strategy: "time", parameters: ["room": .string("kitchen")])
            ])
        } throws: { error in
            "\(error)".contains("kitchen") && "\(error)".contains("hall, shop")
        }
    }

    @Test("malformed reports are counted and reported, and the pipeline goes on")
    func malformedReport() throws {
        let pipeline = try Self.pipeline([])
        var refusals: [ReportRefusal] = []
        try pipeline.ingest(reports: [.encoded([0x62, 0x73, 9, 0], receivedAt: nil)], refused: { refusals.append($0) }) { _ in }
        try pipeline.ingest(reports: Self.reports(second: 1, x: 3, y: 2)) { _ in }
        #expect(refusals == [ReportRefusal(.malformed, GatewayReportError.truncated(expected: 19, got: 4).description)])
        #expect(pipeline.statistics.site?.refusedReports == [.malformed: 1])
        #expect(pipeline.trackedBeacons == 1)
    }

    @Test("a hub's clock runs from its first tick, before any report, as the status page shows it")
    func clockBeforeReports() throws {
        let pipeline = try Self.pipeline([])
        #expect(pipeline.decidedThrough == nil)
        try pipeline.advance(to: Self.t0 + .milliseconds(5500)) { _ in }
        #expect(pipeline.decidedThrough == Self.t0 + .seconds(5))
        #expect(pipeline.inspect().cycleTime == Self.t0 + .seconds(5))
        #expect(pipeline.latestTime == Self.t0 + .milliseconds(5500))
    }
}
