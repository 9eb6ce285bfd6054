import BeaconCore
import BeaconWire

/// Reads what an OpenMQTTGateway or a Theengs Gateway publishes under `BTtoMQTT`.
///
/// The identity comes, in this order, from:
/// 1. `manufacturerdata` (hex, from the company id on): decoded by BeaconWire's iBeacon and
///    AltBeacon frames;
/// 2. `servicedata` (hex, after the UUID) with `servicedatauuid` `0xfeaa`: BeaconWire's
///    Eddystone frames (UID only; URL, TLM and EID name no beacon);
/// 3. Theengs Decoder's iBeacon form: `model_id` `IBEACON` with `uuid` (32 hex digits), `major`,
///    `minor` and `txpower` (or `power`, older decoders) as the measured power.
///
/// `rssi` (−127…+20 dBm) is taken as given; `id` or `mac` (`AA:BB:…`) is the sender's address.
/// A device with no beacon identity whose address is a resolvable private one (top bits `01`) is
/// a ``ForeignPayload/privateAddress(address:rssi:)``, for the hub to resolve. Anything else
/// (sensors, a message without `rssi`) is ignored.
enum OpenMQTTGatewayTranslator {
    struct Message: Decodable {
        var id: String?
        var mac: String?
        var rssi: Double?
        var manufacturerdata: String?
        var servicedata: String?
        var servicedatauuid: String?
        var modelID: String?
        var uuid: String?
        var major: Double?
        var minor: Double?
        var txpower: Double?
        var power: Double?

        enum CodingKeys: String, CodingKey {
            case id, mac, rssi, manufacturerdata, servicedata, servicedatauuid, uuid, major, minor, txpower, power
            case modelID = "model_id"
        }
    }

    static func translate(_ payload: UnsafeRawBufferPointer, _ topic: ForeignTopic) throws(ForeignPayloadRefusal)
        -> ForeignPayload
    {
        let message = try ForeignJSON.decode(Message.self, from: payload)
        let rssi = try message.rssi.map { value throws(ForeignPayloadRefusal) in try ForeignValues.rssi(value) }
        let address = ForeignValues.address(message.mac) ?? ForeignValues.address(message.id) ?? BluetoothAddress(rawValue: 0)
        guard let frame = try beacon(in: message) else {
            // A phone or watch hides behind a resolvable private address: the hub may know its key.
            // (The payload does not say the address type; a public address with these top bits
            // costs a lookup and resolves with probability 2⁻²⁴.)
            if let rssi, address.rawValue >> 46 == 0b01 { return .privateAddress(address: address, rssi: rssi) }
            return .ignored("\((message.id ?? "a device").prefix(40)) is not a beacon")
        }
        guard let rssi else { return .ignored("\(frame.id) without an rssi") }
        // A positive power (a battery level in some tags' iBeacon byte) is no power at 1 m.
        let power = ForeignValues.measuredPower(frame.measuredPower.map(Double.init))
        return .sighting(id: frame.id, rssi: rssi, measuredPower: power, address: address)
    }

    private static func beacon(in message: Message) throws(ForeignPayloadRefusal) -> BeaconFrame? {
        if let hex = message.manufacturerdata {
            guard let bytes = ForeignValues.hexBytes(hex) else {
                throw ForeignPayloadRefusal(.malformed, "'manufacturerdata' is not hex of at most 255 bytes")
            }
            let frame = bytes.withUnsafeBytes { data -> BeaconFrame? in
                if let frame = IBeaconFrame(manufacturerData: data) {
                    return BeaconFrame(id: frame.beaconID, measuredPower: frame.measuredPower)
                }
                if let frame = AltBeaconFrame(manufacturerData: data) {
                    return BeaconFrame(id: frame.beaconID, measuredPower: frame.referenceRSSI)
                }
                return nil
            }
            if let frame { return frame }
        }
        if let hex = message.servicedata, let uuid = message.servicedatauuid, isEddystone(uuid) {
            guard let bytes = ForeignValues.hexBytes(hex) else {
                throw ForeignPayloadRefusal(.malformed, "'servicedata' is not hex of at most 255 bytes")
            }
            let frame = ([0xAA, 0xFE] + bytes).withUnsafeBytes { data -> BeaconFrame? in
                guard case .uid(let uid) = EddystoneFrame(serviceData: data) else { return nil }
                return BeaconFrame(id: uid.beaconID, measuredPower: uid.measuredPowerAt1m)
            }
            if let frame { return frame }
        }
        if message.modelID?.uppercased() == "IBEACON", let uuid = message.uuid {
            guard let words = ForeignValues.uuidWords(uuid) else {
                throw ForeignPayloadRefusal(.malformed, "'uuid' '\(uuid.prefix(60))' is not 32 hex digits")
            }
            guard let majorValue = message.major, let minorValue = message.minor else {
                throw ForeignPayloadRefusal(.malformed, "an IBEACON without 'major' and 'minor'")
            }
            let major = try ForeignValues.uint16(majorValue, member: "major")
            let minor = try ForeignValues.uint16(minorValue, member: "minor")
            return BeaconFrame(
                id: .iBeacon(uuidHigh: words.high, uuidLow: words.low, major: major, minor: minor),
                measuredPower: ForeignValues.measuredPower(message.txpower ?? message.power))
        }
        return nil
    }

    private static func isEddystone(_ uuid: String) -> Bool {
        let lower = uuid.lowercased()
        return lower == "0xfeaa" || lower == "feaa" || lower == "0000feaa-0000-1000-8000-00805f9b34fb"
    }
}
