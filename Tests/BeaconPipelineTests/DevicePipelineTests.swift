import BeaconAlertEngine
import BeaconCore
import BeaconCrypto
import BeaconDevices
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import BeaconWire
import Testing

/// A phone through the pipeline, from HCI bytes: advertisements with no beacon frame, from
/// resolvable private addresses that rotate, ranged as `device:ada-phone` once a second address
/// corroborates the first, and alerted on by `match: {device: …}`. A stranger's rotating
/// addresses beside it are never ranged.
@Suite("Enrolled devices in the pipeline")
struct DevicePipelineTests {
    private typealias F = PipelineFixtures
    static let key = try! IdentityResolvingKeyText(parsing: "ec0234a357c8ad05341010a60a397d9b")
    static let ada = BeaconID.device(named: "ada-phone")!

    /// What a phone advertises: flags and Apple's manufacturer data (no iBeacon frame).
    static let payload: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]

    /// Two advertisements a second for `seconds`: Ada's phone (a new address every `rotation`
    /// seconds) and a stranger's (a random RPA, also rotating), both at -60 dBm.
    static func batch(from start: Int, seconds: Int, rotation: Int) -> PacketBatch {
        var batch = PacketBatch()
        var strangers = SplitMix64(seed: 99)
        for tenth in stride(from: start * 10, to: (start + seconds) * 10, by: 5) {
            let time = F.t0 + .milliseconds(Int64(tenth * 100))
            let phone = key.candidates[0].key.resolvablePrivateAddress(random: UInt32(100 + tenth / 10 / rotation))
            let stranger = BluetoothAddress(
                rawValue: 0x4000_0000_0000 | (strangers.next() % 8) << 20 | UInt64(tenth / 10 / rotation))
            for address in [phone, stranger] {
                batch.append(timestamp: time) { bytes in
                    HCIEventEncoder.appendLEAdvertisingReport(
                        eventType: 0x00, addressType: .random, address: address, rssi: -60, data: payload, to: &bytes)
                }
            }
        }
        return batch
    }

    static func pipeline() throws -> AlertPipeline {
        let device = EnrolledDevice(id: ada, candidates: key.candidates, measuredPower: -55)
        let alert = PipelineAlert(
            id: "ada-home", match: BeaconMatch(.identity(ada)), strategy: "time",
            parameters: ["dwell": "20s", "gap": "10s", "maxTimeBeforeReset": "60s"],
            rule: AlertRule(id: "ada-home", content: AlertContent(title: "Ada is home")))
        return try AlertPipeline(alerts: [alert], devices: [device], registry: .builtIn())
    }

    @Test("the phone is ranged from its second address on, with its own measured power, and its alert fires")
    func phoneIsRangedAndAlerted() throws {
        let pipeline = try Self.pipeline()
        var ranged: [(Timestamp, [BeaconID])] = []
        pipeline.cycleObserver = { update in ranged.append((update.time, update.beacons.map(\.id))) }
        var delivered: [AlertEvent] = []
        let emit: (RoutedEvent) throws -> Void = { if $0.event.kind == .delivered { delivered.append($0.event) } }
        try pipeline.ingest(Self.batch(from: 0, seconds: 120, rotation: 60), emit: emit)
        try pipeline.advance(to: F.t0 + .seconds(121), emit: emit)

        let seen = ranged.filter { !$0.1.isEmpty }
        // Nothing but Ada's phone is ever ranged, and only once its address changed at 60 s.
        #expect(seen.allSatisfy { $0.1 == [Self.ada] }, "\(seen.map(\.1))")
        let first = try #require(seen.first?.0)
        #expect(first >= F.t0 + .seconds(60) && first <= F.t0 + .seconds(62), "\(first)")
        #expect(pipeline.inspect().beacons.first?.measuredPower == -55)
        // Dwelt 20 s from 60 s on: delivered once, for the device.
        #expect(delivered.map(\.beacon) == [Self.ada])
        let at = try #require(delivered.first?.time)
        #expect(at >= F.t0 + .seconds(80) && at <= F.t0 + .seconds(83), "\(at)")
        #expect(pipeline.statistics.sightings == 2 * 60)
    }
}
