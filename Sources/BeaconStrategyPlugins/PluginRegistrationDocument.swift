import BeaconStrategyKit

/// A registration as it crosses the plugin boundary (JSON): everything but the factory.
struct PluginRegistrationDocument: Codable {
    struct Parameter: Codable {
        var name: String
        var kind: ParameterKind
        var `default`: StrategyValue?
        var required: Bool
        var doc: String
        /// The values `beacond tune` tries (optional: older plugins do not send it).
        var tuning: [StrategyValue]?
    }

    var key: String
    var summary: String
    var parameters: [Parameter]

    init(_ registration: StrategyRegistration) {
        key = registration.key
        summary = registration.summary
        parameters = registration.parameters.map {
            Parameter(
                name: $0.name, kind: $0.kind, default: $0.defaultValue?.plainValue,
                required: $0.isRequired, doc: $0.documentation, tuning: $0.tuning?.values.map(\.plainValue))
        }
    }

    /// The declarations, defaults read back as their kinds.
    func declarations() throws(StrategyConfigurationError) -> [ParameterDeclaration] {
        var declarations: [ParameterDeclaration] = []
        for parameter in parameters {
            var declaration = ParameterDeclaration(parameter.name, parameter.kind, required: parameter.required, parameter.doc)
            if let plain = parameter.default { declaration.defaultValue = try declaration.read(plain, strategy: key) }
            if let values = parameter.tuning {
                declaration.tuning = TuningRange(
                    try values.map { value throws(StrategyConfigurationError) in try declaration.read(value, strategy: key) })
            }
            declarations.append(declaration)
        }
        return declarations
    }
}
