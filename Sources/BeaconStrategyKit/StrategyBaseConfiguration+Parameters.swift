extension StrategyBaseConfiguration {
    /// The parameter names of the base options.
    public enum ParameterName {
        public static let maxTimeBeforeReset = "maxTimeBeforeReset"
        public static let resetWhenConditionInvalid = "resetWhenConditionInvalid"
        public static let retention = "retention"
    }

    /// Declarations of the base options, for strategies built on ``BeaconAlertStrategyBase``;
    /// append them to a registration's own parameters.
    public static func parameterDeclarations(defaults: StrategyBaseConfiguration = .init()) -> [ParameterDeclaration] {
        [
            ParameterDeclaration(
                ParameterName.maxTimeBeforeReset, .duration,
                default: .duration(defaults.maxTimeBeforeReset),
                tuning: TuningRange([0, 10, 30, 60, 120, 300, 600, 1800].map { .duration(.seconds($0)) }),
                "How long a beacon must stay unseen after its alert before it can fire again."),
            ParameterDeclaration(
                ParameterName.resetWhenConditionInvalid, .boolean,
                default: .boolean(defaults.resetWhenConditionInvalid),
                "Also allow a new alert as soon as the condition stops holding."),
            ParameterDeclaration(
                ParameterName.retention, .duration,
                "How long an unseen beacon is remembered (at least maxTimeBeforeReset)."),
        ]
    }

    /// Reads the base options from checked parameters.
    public init(_ parameters: ResolvedParameters) throws(StrategyConfigurationError) {
        let retention: Duration? =
            parameters.values[ParameterName.retention] == nil
            ? nil : try parameters.duration(ParameterName.retention)
        self.init(
            maxTimeBeforeReset: try parameters.duration(ParameterName.maxTimeBeforeReset),
            resetWhenConditionInvalid: try parameters.boolean(ParameterName.resetWhenConditionInvalid),
            retention: retention)
        if maxTimeBeforeReset < .zero {
            throw parameters.invalid(ParameterName.maxTimeBeforeReset, "must not be negative")
        }
    }
}
