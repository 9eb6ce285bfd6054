/// The type of a strategy parameter, which says how its plain value is read.
public enum ParameterKind: String, Hashable, Sendable, CaseIterable, Codable {
    /// A whole number followed by a unit: `500ms`, `3s`, `10m`, `2h`.
    case duration
    /// A proximity band: `immediate`, `near` or `far`.
    case proximity
    /// A whole number.
    case integer
    /// A number (whole numbers are accepted).
    case number
    /// `true` or `false`.
    case boolean
    /// Text.
    case string
    /// A list of strategies, each a mapping `{strategy: KEY, …parameters}`.
    case strategies

    /// What a valid value looks like, for listings and error messages.
    public var expectation: String {
        switch self {
        case .duration: "a duration: a number and a unit — ms, s, m, h or d (500ms, 3s, 1.5s, 10m, 2h, 1d)"
        case .proximity: "a proximity: immediate, near or far"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "true or false"
        case .string: "text"
        case .strategies: "a list of strategies, each a mapping with a `strategy` key"
        }
    }
}
