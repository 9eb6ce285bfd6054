import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Foundation
import Testing

/// The decide stage on explicit timestamps: sightings in, events out, no clock.
@Suite("AlertPipeline")
struct AlertPipelineTests {
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    static func sighting(_ seconds: Double, minor: UInt16 = 1) -> BeaconSighting {
        BeaconSighting(
            timestamp: t0 + .milliseconds(Int64(seconds * 1000)), id: .iBeacon(uuid: uuid, major: 1, minor: minor),
            address: BluetoothAddress(rawValue: 0xA4C1_3800_0000 + UInt64(minor)), rssi: -60, measuredPower: -59)
    }

    static func pipeline(_ yaml: String) throws -> AlertPipeline {
        try AlertPipeline(configuration: GatewayConfiguration(node: ConfigNode(yaml: yaml)), registry: .builtIn())
    }

    /// A beacon is seen at 0.5 s, 1.5 s, 2.5 s, then never again. `enter` fires at the first
    /// cycle end (1 s); with `delay: 1m` the alert is created for 09:01:01. The region `lobby`
    /// has a 5 s exit timeout: last seen 2.5 s → exit at the first cycle boundary ≥ 7.5 s, i.e.
    /// 8 s — the pending alert is cancelled then, and never delivered.
    @Test("A region exit cancels a pending alert before it is due")
    func regionExitCancels() throws {
        let pipeline = try Self.pipeline(
            """
            ranging:
              regions: [{id: lobby, match: {uuid: \(Self.uuid.uuidString)}, exitTimeout: 5s}]
            alerts:
              - id: welcome
                strategy: enter
                delay: 1m
                cancelOn: [{regionExit: lobby}]
            """)
        var events: [AlertEvent] = []
        for second in [0.5, 1.5, 2.5] { try pipeline.ingest(Self.sighting(second)) { events.append($0.event) } }
        try pipeline.advance(to: Self.t0 + .seconds(120)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .cancelled])
        #expect(events.first?.scheduledFor == Self.t0 + .seconds(61))
        #expect(events.last?.time == Self.t0 + .seconds(8))
        #expect(events.last?.messages.joined().contains("lobby") == true)
    }

    /// The same without the region: the alert is delivered at 09:01:01.
    @Test("Without the cancelling event the delayed alert is delivered on time")
    func delayedDelivery() throws {
        let pipeline = try Self.pipeline("alerts:\n  - {id: welcome, strategy: enter, delay: 1m}\n")
        var events: [AlertEvent] = []
        for second in [0.5, 1.5, 2.5] { try pipeline.ingest(Self.sighting(second)) { events.append($0.event) } }
        try pipeline.advance(to: Self.t0 + .seconds(120)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .delivered])
        #expect(events.last?.time == Self.t0 + .seconds(61))
    }

    @Test("Malformed packets are counted, not fatal, and later packets still decode")
    func malformedPackets() throws {
        let pipeline = try Self.pipeline("alerts: []\n")
        var batch = PacketBatch()
        // An LE Meta event claiming one advertising report but cut short after the address type.
        batch.append([0x04, 0x3E, 0x05, 0x02, 0x01, 0x03, 0x01, 0xAA], timestamp: Self.t0)
        // A well-formed ADV_NONCONN_IND iBeacon report (31 bytes of AD data, RSSI -60).
        let ad: [UInt8] =
            [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
            + Array(repeating: 0x11, count: 16) + [0x00, 0x01, 0x00, 0x02, 0xC5]
        let report: [UInt8] = [0x02, 0x01, 0x03, 0x00, 1, 2, 3, 4, 5, 6, UInt8(ad.count)] + ad + [0xC4]
        batch.append([0x04, 0x3E, UInt8(report.count)] + report, timestamp: Self.t0 + .milliseconds(10))
        try pipeline.ingest(batch) { _ in }
        #expect(pipeline.statistics.packets == 2)
        #expect(pipeline.statistics.malformed == 1)
        #expect(pipeline.statistics.sightings == 1)
    }
}
