import BeaconCore
import Foundation
import Testing

/// An enrolled device's identity: its name held in the identity's 20 bytes, written and read in
/// every form identities take (text, JSON object, Codable).
@Suite("Device identities")
struct BeaconIDDeviceTests {
    @Test(
        "a name of 1 to 20 letters, digits, '-', '_' or '.' round-trips through text and JSON",
        arguments: ["a", "ada-phone", "Ada.Watch_2", "abcdefghijklmnopqrst"])
    func roundTrips(name: String) throws {
        let id = try #require(BeaconID.device(named: name))
        #expect(id.kind == .device)
        #expect(id.deviceName == name)
        #expect(id.description == "device:\(name)")
        #expect(BeaconID(id.description) == id)
        var json = JSONWriter()
        id.writeJSON(to: &json)
        #expect(json.string == "{\"type\":\"device\",\"device\":\"\(name)\"}")
        let object = try JSONSerialization.jsonObject(with: Data(json.bytes)) as! [String: Any]
        #expect(try BeaconID(jsonObject: object) == id)
        #expect(try JSONDecoder().decode(BeaconID.self, from: JSONEncoder().encode(id)) == id)
    }

    @Test("other names are refused", arguments: ["", "ada phone", "abcdefghijklmnopqrstu", "ada:phone", "adé"])
    func refused(name: String) {
        #expect(BeaconID.device(named: name) == nil)
        #expect(BeaconID("device:\(name)") == nil)
    }

    @Test("devices differ from each other and from beacons with the same bytes; they match only themselves")
    func distinct() throws {
        let ada = try #require(BeaconID.device(named: "ada"))
        let bob = try #require(BeaconID.device(named: "bob"))
        #expect(ada != bob)
        #expect(ada != .iBeacon(uuidHigh: ada.high, uuidLow: ada.low, major: 0, minor: 0))
        let uuid = BeaconID.iBeacon(uuidHigh: ada.high, uuidLow: ada.low, major: 0, minor: 0).uuid
        #expect(!BeaconMatch.uuid(uuid).matches(ada))
        #expect(BeaconMatch(.identity(ada)).matches(ada))
        #expect(!BeaconMatch(.identity(ada)).matches(bob))
        #expect(BeaconMatch.any.matches(ada))
    }

    @Test("a JSON device object with a beacon's members, or a bad name, is refused naming the member")
    func badJSON() {
        #expect(throws: BeaconIDJSONError.self) { try BeaconID(jsonObject: ["type": "device", "device": "ada", "major": 1]) }
        #expect(throws: BeaconIDJSONError.self) { try BeaconID(jsonObject: ["type": "device", "device": "a b"]) }
        #expect(throws: BeaconIDJSONError.self) { try BeaconID(jsonObject: ["type": "device"]) }
    }
}
