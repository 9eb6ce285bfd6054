import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import BeaconWire
import Testing

/// `layouts:` in the configuration: a vendor's frame becomes a beacon the alerts can match.
@Suite("layouts: vendor frames by configuration")
struct LayoutConfigurationTests {
    /// An HCI LE Advertising Report (H4) whose manufacturer data is company 0x0059, `AC BE`,
    /// ids 01…10 / 0x0005 / 0x0100, power -61 dBm.
    static var vendorPacket: [UInt8] {
        var ad: [UInt8] = []
        AdvertisingDataEncoder.appendManufacturerData(
            company: 0x0059,
            payload: [0xAC, 0xBE] + Array(1...16) + [0x00, 0x05, 0x01, 0x00, 0xC3],
            to: &ad)
        let report: [UInt8] = [0x02, 0x01, 0x03, 0x00, 1, 2, 3, 4, 5, 6, UInt8(ad.count)] + ad + [0xC4]
        return [0x04, 0x3E, UInt8(report.count)] + report
    }

    static func run(_ yaml: String) throws -> (AlertPipeline, [AlertEvent]) {
        let pipeline = try AlertPipeline(configuration: GatewayConfiguration(node: ConfigNode(yaml: yaml)), registry: .builtIn())
        var events: [AlertEvent] = []
        var batch = PacketBatch()
        for second in 0..<5 { batch.append(Self.vendorPacket, timestamp: Timeline.start + .seconds(second)) }
        try pipeline.ingest(batch) { events.append($0.event) }
        try pipeline.advance(to: Timeline.start + .seconds(10)) { events.append($0.event) }
        return (pipeline, events)
    }

    @Test("with the layout the vendor beacon is sighted and alerted; without it, it is not a beacon")
    func vendorBeaconAlerts() throws {
        let alerts = "alerts:\n  - {id: hello, match: {uuid: 01020304-0506-0708-090A-0B0C0D0E0F10, major: 5}, strategy: enter}\n"
        let (with, events) = try Self.run(
            "layouts:\n  - {layout: \"m:2-3=acbe,i:4-19,i:20-21,i:22-23,p:24-24\", as: altbeacon}\n" + alerts)
        #expect(with.statistics.sightings == 5)
        let delivered = events.filter { $0.kind == .delivered }
        #expect(delivered.count == 1)
        #expect(
            delivered.first?.beacon == .altBeacon(id1High: 0x0102_0304_0506_0708, id1Low: 0x090A_0B0C_0D0E_0F10, id2: 5, id3: 256)
        )
        let (without, none) = try Self.run(alerts)
        #expect(without.statistics.sightings == 0)
        #expect(none.isEmpty)
    }

    @Test(
        "a layout that cannot work is reported at its line",
        arguments: [
            ("layouts:\n  - {layout: \"i:4-19\", as: altbeacon}\n", "1:", "give at least one m: or s: term"),
            ("layouts:\n  - {layout: \"m:2-3=acbe,i:4-19,i:20-21,i:22-23\", as: wifi}\n", "2:", "'wifi' is not an identity kind"),
        ])
    func refused(_ yaml: String, _ place: String, _ message: String) {
        #expect {
            try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("gw.yaml:")
        }
    }
}
