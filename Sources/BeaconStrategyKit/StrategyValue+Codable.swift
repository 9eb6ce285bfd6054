extension StrategyValue: Codable {
    /// Decodes any JSON/YAML value: booleans, whole numbers, numbers, strings, arrays, objects.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StrategyValue].self) {
            self = .list(value)
        } else {
            self = .table(try container.decode([String: StrategyValue].self))
        }
    }

    /// Encodes as the plain JSON/YAML value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .table(let value): try container.encode(value)
        }
    }
}
