/// A beacon identity is coded as its ``BeaconID/description`` (`ibeacon:UUID:1:2`, …), the form
/// ``BeaconID/init(_:)`` reads back.
extension BeaconID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = BeaconID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a beacon identity: \(text)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
