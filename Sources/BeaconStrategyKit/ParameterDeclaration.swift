/// One parameter a strategy accepts: its name, type, default and documentation. Registrations
/// list them so that configuration can be checked and `beacond strategies` can print them.
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

    /// Creates a declaration.
    public init(
        _ name: String, _ kind: ParameterKind, default defaultValue: ParameterValue? = nil,
        required isRequired: Bool = false, _ documentation: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.documentation = documentation
    }
}
