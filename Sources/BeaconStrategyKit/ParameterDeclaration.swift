/// One parameter a strategy accepts: its name, type, default, documentation and the values worth
/// tuning it over. Registrations list them so that configuration can be checked, `beacond
/// strategies` can print them and `beacond tune` can search them.
public struct ParameterDeclaration: Hashable, Sendable {
    /// The name configuration uses (`dwell`).
    public var name: String
    /// How the value is read.
    public var kind: ParameterKind
    /// The value used when configuration gives none; nil for a parameter that is optional
    /// without default, or required (``isRequired``).
    public var defaultValue: ParameterValue?
    /// True when configuration must give the parameter.
    public var isRequired: Bool
    /// One sentence on what the parameter does.
    public var documentation: String
    /// The values `beacond tune` tries for it; nil for a parameter that is not tuned (text,
    /// a room, a region).
    public var tuning: TuningRange?

    /// Creates a declaration.
    public init(
        _ name: String, _ kind: ParameterKind, default defaultValue: ParameterValue? = nil,
        required isRequired: Bool = false, tuning: TuningRange? = nil, _ documentation: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.documentation = documentation
        self.tuning = tuning
    }
}
