import BeaconCore
import BeaconForeignNodes
import Foundation
import Testing

/// What a simulated ESPresense node publishes reads back through the real node's reader.
@Suite("ESPresense messages written")
struct ESPresenseMessageTests {
    @Test(
        "each beacon kind: the firmware's id (issue #475's iBeacon, the doubled Eddystone byte), read back to the same beacon",
        arguments: [
            (ESPresenseTranslatorTests.issue475, "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"),
            (
                BeaconID.eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0x0BDB_8753_9B67),
                "eddy:edd1ebeac0c04e5defa017-0bdb87539b67"
            ),
            (
                BeaconID.altBeacon(id1: UUID(uuidString: "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")!, id2: 7, id3: 9),
                "altBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-7-9"
            ),
        ])
    func roundTrip(beacon: BeaconID, id: String) throws {
        #expect(ESPresenseMessage.deviceID(of: beacon) == id)
        let address = try #require(BluetoothAddress("0a:51:fd:4a:4c:af"))
        let (topic, payload) = ESPresenseMessage.device(beacon, rssi: -71, measuredPower: -59, address: address, room: "office")
        #expect(topic == "espresense/devices/\(id)/office")
        #expect(
            String(decoding: payload, as: UTF8.self)
                == #"{"mac":"0a51fd4a4caf","id":"\#(id)","rssi@1m":-59,"rssi":-71,"rxAdj":0}"#)
        let node = ForeignNodeEndpoint(kind: .espresense, name: "office")
        let read = try ForeignNodeKind.espresense.read(payload, #require(node.classify(topic))).get()
        #expect(read == .sighting(id: beacon, rssi: -71, measuredPower: -59, address: address))
    }
}
