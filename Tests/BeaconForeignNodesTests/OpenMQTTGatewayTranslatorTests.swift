import BeaconCore
import BeaconForeignNodes
import Foundation
import Testing

/// OpenMQTTGateway and Theengs Gateway messages (fixtures: `Fixtures/foreign/PROVENANCE.md`).
@Suite("OpenMQTTGateway and Theengs messages")
struct OpenMQTTGatewayTranslatorTests {
    static let docsBeacon = BeaconID.iBeacon(uuid: UUID(uuidString: "1DE4B189-115E-45F6-B44E-509352269977")!, major: 0, minor: 0)
    /// 426c7565436861726d426561636f6e73, major 0x0efe, minor 0x1355 (BlueCharm_135727).
    static let blueCharm = BeaconID.iBeacon(
        uuid: UUID(uuidString: "426C7565-4368-6172-6D42-6561636F6E73")!, major: 3838, minor: 4949)
    static let address = BluetoothAddress("AA:BB:CC:DD:EE:FF")!

    static func read(_ file: String, line: Int, kind: ForeignNodeKind, gateway: String) throws -> ForeignPayload {
        let message = try ForeignFixtures.message(file, line: line)
        let endpoint = ForeignNodeEndpoint(kind: kind, name: gateway)
        let topic = try #require(endpoint.classify(message.topic), "\(message.topic)")
        return try kind.read(message.payload, topic).get()
    }

    @Test(
        "OpenMQTTGateway's documented iBeacon messages: the decoded form, txpower the measured power",
        arguments: [
            (
                1,
                ForeignPayload.sighting(
                    id: docsBeacon, rssi: -79, measuredPower: -66, address: BluetoothAddress("58:78:20:76:BC:24")!)
            ),
            (2, .sighting(id: docsBeacon, rssi: -77, measuredPower: -66, address: BluetoothAddress("52:10:A8:46:90:AC")!)),
            // pubBeaconUuidForTopic: the UUID as the topic's last level.
            (3, .sighting(id: docsBeacon, rssi: -83, measuredPower: -66, address: BluetoothAddress("7B:63:C6:82:DC:57")!)),
        ])
    func documented(line: Int, expected: ForeignPayload) throws {
        #expect(
            try Self.read("openmqttgateway-docs.txt", line: line, kind: .openMQTTGateway, gateway: "OpenMQTTGateway") == expected)
    }

    @Test(
        "Theengs messages: raw manufacturer data decoded by BeaconWire, the decoded form read alike",
        arguments: [
            // power c5 = −59
            (1, ForeignPayload.sighting(id: blueCharm, rssi: -70, measuredPower: -59, address: address)),
            // major 0001, minor 0002, power 1a = +26: not a measured power (dropped)
            (
                2,
                .sighting(
                    id: .iBeacon(uuid: UUID(uuidString: "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")!, major: 1, minor: 2), rssi: -70,
                    measuredPower: nil, address: address)
            ),
            (3, .sighting(id: blueCharm, rssi: -70, measuredPower: -59, address: address)),
            // issue #475's bytes: major 0064 = 100, minor ffff = 65535, the id ESPresense printed
            (
                5,
                .sighting(
                    id: ESPresenseTranslatorTests.issue475, rssi: -61, measuredPower: nil,
                    address: BluetoothAddress("DF:51:FD:4A:4C:AF")!)
            ),
        ])
    func theengs(line: Int, expected: ForeignPayload) throws {
        #expect(try Self.read("theengs-decoder.txt", line: line, kind: .theengs, gateway: "TheengsGateway") == expected)
    }

    @Test("an Eddystone frame on 0xfeaa that is not a UID (BlueCharm's sensor frame) is ignored")
    func notUID() throws {
        guard case .ignored = try Self.read("theengs-decoder.txt", line: 4, kind: .theengs, gateway: "TheengsGateway") else {
            Issue.record("not ignored")
            return
        }
    }

    @Test("an Eddystone-UID in servicedata: BeaconWire's frame, the 0 m power less 41 dB")
    func eddystoneUID() throws {
        // frame 00, tx power e7 (−25 dBm at 0 m), namespace, instance, two reserved bytes
        let payload =
            #"{"id":"AA:BB:CC:DD:EE:FF","rssi":-64,"servicedatauuid":"0xfeaa","servicedata":"00e7edd1ebeac04e5defa0170bdb87539b670000"}"#
        let result = ForeignNodeKind.openMQTTGateway.read(Array(payload.utf8), .device("AABBCCDDEEFF"))
        #expect(
            try result.get()
                == .sighting(
                    id: .eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0x0BDB_8753_9B67),
                    rssi: -64, measuredPower: -66, address: Self.address))
    }

    @Test("the gateway's topics: BTtoMQTT under its name, any depth; another gateway's are not its")
    func topics() {
        let node = ForeignNodeEndpoint(kind: .openMQTTGateway, name: "OpenMQTTGateway")
        #expect(node.subscriptions == ["home/OpenMQTTGateway/BTtoMQTT/#"])
        #expect(node.classify("home/OpenMQTTGateway/BTtoMQTT/58782076BC24") == .device("58782076BC24"))
        #expect(node.classify("home/OpenMQTTGateway/BTtoMQTT/undecoded") == .device("undecoded")) // extDecoderTopic
        #expect(node.classify("home/Other/BTtoMQTT/58782076BC24") == nil)
        #expect(node.classify("home/OpenMQTTGateway/SYStoMQTT") == nil)
    }
}
