/// A timestamp is coded as its nanoseconds since the Unix epoch (one integer), so saved state
/// restores it exactly.
extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(nanosecondsSinceEpoch: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(nanosecondsSinceEpoch)
    }
}
