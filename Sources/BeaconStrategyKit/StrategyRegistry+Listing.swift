import FoundationEssentials

extension StrategyRegistry {
    /// One strategy as `beacond strategies` lists it.
    public struct Listing: Codable, Hashable, Sendable {
        /// One parameter of a listed strategy.
        public struct Parameter: Codable, Hashable, Sendable {
            public var name: String
            public var type: String
            /// The default as configuration writes it; nil when none.
            public var `default`: String?
            public var required: Bool
            public var doc: String
            /// The values `beacond tune` tries, as configuration writes them; nil when none are declared.
            public var tuning: [String]?
        }

        public var key: String
        public var summary: String
        public var parameters: [Parameter]
    }

    /// Every registered strategy with its parameters, sorted by key.
    public var listings: [Listing] {
        allRegistrations.map { registration in
            Listing(
                key: registration.key, summary: registration.summary,
                parameters: registration.parameters.map {
                    Listing.Parameter(
                        name: $0.name, type: $0.kind.rawValue,
                        default: $0.defaultValue?.configurationText,
                        required: $0.isRequired, doc: $0.documentation,
                        tuning: $0.tuning?.values.map(\.configurationText))
                })
        }
    }

    /// The listing as plain text: one block per key, one line per parameter.
    public func listingText() -> String {
        var lines: [String] = []
        for listing in listings {
            lines.append("\(listing.key) — \(listing.summary)")
            for parameter in listing.parameters {
                let value = parameter.required ? "required" : parameter.default.map { "default \($0)" } ?? "optional"
                lines.append("    \(parameter.name) (\(parameter.type), \(value)): \(parameter.doc)")
                if let tuning = parameter.tuning { lines.append("        tune over: \(tuning.joined(separator: ", "))") }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The listing as a JSON array (sorted keys, pretty-printed).
    public func listingJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(listings), as: UTF8.self)
    }
}
