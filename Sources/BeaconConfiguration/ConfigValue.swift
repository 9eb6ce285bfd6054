/// A configuration value with its structure but without locations (for plug-in parameters).
public enum ConfigValue: Sendable, Equatable {
    case scalar(String)
    case list([ConfigValue])
    case map([(String, ConfigValue)])

    public static func == (a: ConfigValue, b: ConfigValue) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)): x == y
        case (.list(let x), .list(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}
