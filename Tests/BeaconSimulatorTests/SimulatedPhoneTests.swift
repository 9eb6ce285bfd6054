import BeaconConfiguration
import BeaconCore
import BeaconCrypto
import BeaconSimulator
import BeaconWire
import Testing

/// Simulated phones: what a gateway hears from one is a report with no beacon frame from a
/// resolvable private address of its key, a new one every rotation.
@Suite("Simulated phones")
struct SimulatedPhoneTests {
    static let sampleHex = "ec0234a357c8ad05341010a60a397d9b"

    static func scenario(_ beacons: String) throws -> Scenario {
        try Scenario.parse(
            yaml: """
                name: phone
                start: 2025-01-01T09:00:00Z
                duration: 40m
                radio: {shadowing_sigma: 0, packet_loss: 0}
                gateways: [{name: g, position: [0, 0, 1]}]
                beacons:
                \(beacons)
                """)
    }

    /// Every report's address and time, over the whole scenario.
    static func reports(_ scenario: Scenario) -> [(BluetoothAddress, AddressType, Timestamp, Bool)] {
        var engine = SimulationEngine(scenario: scenario)
        var batch = PacketBatch()
        _ = engine.fill(&batch, until: scenario.end)
        var reports: [(BluetoothAddress, AddressType, Timestamp, Bool)] = []
        let decoder = CaptureDecoder()
        var summary = CaptureSummary()
        var index = 0
        batch.forEachPacket { record, bytes in
            let capture = CaptureRecord(
                index: index, offset: Int(record.offset), timestamp: record.timestamp, linkType: record.linkType,
                direction: .received, bytes: bytes)
            index += 1
            decoder.decode(capture, summary: &summary) { item in
                if case .advertisement(let advertisement) = item {
                    let report = advertisement.report
                    reports.append(
                        (
                            report.address, report.addressType, advertisement.timestamp,
                            BeaconSighting(report: report, timestamp: advertisement.timestamp) != nil
                        ))
                }
            }
        }
        return reports
    }

    @Test("a phone's reports come from RPAs of its key, changing every rotation, with no beacon frame")
    func rotatingAddresses() throws {
        let scenario = try Self.scenario(
            "  - {name: ada-phone, phone: {irk: \(Self.sampleHex), rotate: 10m}, position: [1, 0, 1], interval: 1s}")
        let key = try IdentityResolvingKeyText(parsing: Self.sampleHex).candidates[0].key
        let reports = Self.reports(scenario)
        #expect(reports.count > 2000)
        #expect(reports.allSatisfy { $0.1 == .random && key.resolves($0.0, type: .random) && !$0.3 })
        // 40 minutes at one address per 10 minutes: 4 or 5 addresses (the phase is the phone's own),
        // each heard for one stretch of time.
        var addresses: [BluetoothAddress] = []
        for report in reports where addresses.last != report.0 { addresses.append(report.0) }
        #expect((4...5).contains(addresses.count), "\(addresses)")
        #expect(Set(addresses).count == addresses.count)
        #expect(scenario.phoneKeys["ada-phone"] == samplePhoneKey())
        #expect(scenario.beacons[0].identity.beaconID == BeaconID.device(named: "ada-phone"))
    }

    @Test("a stranger's phone has a key of its own, which no enrolled key resolves")
    func strangerKey() throws {
        let scenario = try Self.scenario("  - {name: passer, phone: {}, position: [1, 0, 1], count: 3}")
        let key = try IdentityResolvingKeyText(parsing: Self.sampleHex).candidates[0].key
        let reports = Self.reports(scenario)
        #expect(reports.allSatisfy { RandomAddressKind($0.0) == .resolvablePrivate && !key.resolves($0.0, type: .random) })
        #expect(Set(reports.map(\.0)).count >= 3 * 3)
        #expect(scenario.phoneKeys.isEmpty)
        #expect(scenario.beacons.map(\.name) == ["passer-1", "passer-2", "passer-3"])
    }

    @Test(
        "a phone group with one key, a bad key or a name no device id holds is refused",
        arguments: [
            ("  - {name: p, phone: {irk: \(sampleHex)}, position: [1, 0, 1], count: 2}", "a count of 1"),
            ("  - {name: p, phone: {irk: ec02}, position: [1, 0, 1]}", "32 hexadecimal digits"),
            ("  - {name: ada phone, phone: {}, position: [1, 0, 1]}", "a device id can hold"),
        ])
    func refused(beacons: String, expected: String) {
        #expect {
            try Self.scenario(beacons)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}

/// The sample key's bytes, most significant first.
private func samplePhoneKey() -> [UInt8] {
    [0xEC, 0x02, 0x34, 0xA3, 0x57, 0xC8, 0xAD, 0x05, 0x34, 0x10, 0x10, 0xA6, 0x0A, 0x39, 0x7D, 0x9B]
}
