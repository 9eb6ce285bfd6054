import BeaconCore
import BeaconForeignNodes
import Foundation
import Testing

/// ESPresense's device ids and messages (fixtures: `Fixtures/foreign/PROVENANCE.md`).
@Suite("ESPresense messages")
struct ESPresenseTranslatorTests {
    static let node = ForeignNodeEndpoint(kind: .espresense, name: "office")
    static let issue475 = BeaconID.iBeacon(
        uuid: UUID(uuidString: "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")!, major: 100, minor: 65535)

    /// An ESPresense message for the device `id` in the office, as `fill` writes it.
    static func payload(id: String, rssi: String = "-72.35", extra: String = "") -> [UInt8] {
        Array(
            #"{"mac":"df51fd4a4caf","id":"\#(id)","rssi@1m":-59,"rssi":\#(rssi),"rxAdj":0,"distance":3.42,"var":0.21,"int":1032\#(extra)}"#
                .utf8)
    }

    static func read(id: String, payload: [UInt8]) -> Result<ForeignPayload, ForeignPayloadRefusal> {
        let topic = node.classify("espresense/devices/\(id)/office")!
        return ForeignNodeKind.espresense.read(payload, topic)
    }

    @Test(
        "each id form of the firmware: a beacon identity where it carries one, ignored otherwise",
        arguments: [
            // line of espresense-ids.txt, the identity by hand (nil: not a beacon)
            (1, issue475),
            (2, nil),
            (3, nil),
            (4, nil),
            (5, nil),
            // eddy: the namespace's fifth byte (c0) printed twice by the firmware, dropped.
            (6, BeaconID.eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0x0BDB_8753_9B67)),
        ] as [(Int, BeaconID?)])
    func idForms(line: Int, expected: BeaconID?) throws {
        let id = try ForeignFixtures.lines("espresense-ids.txt")[line - 1]
        let result = Self.read(id: id, payload: Self.payload(id: id))
        switch try result.get() {
        case .sighting(let beacon, let rssi, let power, let address):
            #expect(beacon == expected)
            #expect(rssi == -72)
            #expect(power == -59)
            #expect(address == BluetoothAddress("df:51:fd:4a:4c:af"))
        case .ignored(let why):
            #expect(expected == nil, "\(id) ignored: \(why)")
        case .status:
            Issue.record("a device message read as a status")
        case .privateAddress, .resolvedByNode:
            Issue.record("\(id) read as a phone")
        }
    }

    @Test("every message of the companion's real recording is read (an alias: ignored), none refused")
    func realRecording() throws {
        let messages = try ForeignFixtures.companionRecording()
        #expect(messages.count == 459)
        for message in messages {
            let room = String(message.topic.split(separator: "/").last!)
            let endpoint = ForeignNodeEndpoint(kind: .espresense, name: room)
            let topic = try #require(endpoint.classify(message.topic), "\(message.topic)")
            let result = ForeignNodeKind.espresense.read(message.payload, topic)
            guard case .success(.ignored) = result else {
                Issue.record("\(message.topic): \(result)")
                return
            }
        }
    }

    @Test("the node's topics: devices of its room and its status; other rooms and levels are not its")
    func topics() {
        let node = Self.node
        #expect(node.subscriptions == ["espresense/devices/+/office", "espresense/rooms/office/status"])
        #expect(node.classify("espresense/devices/iBeacon:x-1-2/office") == .device("iBeacon:x-1-2"))
        #expect(node.classify("espresense/rooms/office/status") == .status)
        #expect(node.classify("espresense/devices/iBeacon:x-1-2/kitchen") == nil)
        #expect(node.classify("espresense/devices/iBeacon:x-1-2/office/battery") == nil)
        #expect(node.classify("espresense/rooms/office/telemetry") == nil)
        #expect(node.classify("other/devices/iBeacon:x-1-2/office") == nil)
        let custom = ForeignNodeEndpoint(kind: .espresense, name: "office", prefix: "lab/esp")
        #expect(custom.classify("lab/esp/devices/a/office") == .device("a"))
    }

    @Test("status: online and offline (the last will)", arguments: [("online", true), ("offline", false), ("online\n", true)])
    func status(text: String, online: Bool) throws {
        let result = ForeignNodeKind.espresense.read(Array(text.utf8), .status)
        #expect(try result.get() == .status(online: online))
    }

    @Test("a measured power a tag advertises as a magnitude (+58, ESPresense #1286) is dropped, the sighting kept")
    func positiveMeasuredPower() throws {
        let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"
        let payload = Array(#"{"id":"\#(id)","rssi@1m":58,"rssi":-80}"#.utf8)
        #expect(
            try Self.read(id: id, payload: payload).get()
                == .sighting(id: Self.issue475, rssi: -80, measuredPower: nil, address: BluetoothAddress(rawValue: 0)))
    }

    @Test("a message without rssi (the 4.x firmware leaves it out while its filter is empty) is ignored")
    func noRSSI() throws {
        let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"
        guard case .ignored = try Self.read(id: id, payload: Array(#"{"id":"\#(id)","rssi@1m":-59}"#.utf8)).get() else {
            Issue.record("not ignored")
            return
        }
    }
}
