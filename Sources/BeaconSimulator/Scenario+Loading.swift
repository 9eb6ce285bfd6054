import BeaconConfiguration

extension Scenario {
    /// Reads and validates a scenario file (format: `Docs/Simulator.md`).
    /// - Throws: `ConfigurationError`, whose description starts with `file:line:column:`.
    public static func load(path: String) throws(ConfigurationError) -> Scenario {
        try ScenarioReader().read(ConfigNode.load(path: path))
    }

    /// Parses and validates scenario YAML; `file` names it in error messages.
    public static func parse(yaml: String, file: String = "<scenario>") throws(ConfigurationError) -> Scenario {
        try ScenarioReader().read(ConfigNode(yaml: yaml, file: file))
    }
}
