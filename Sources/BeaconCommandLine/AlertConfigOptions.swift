import ArgumentParser
import BeaconDaemonConfiguration
import BeaconPipeline

/// `--alert ID` and `--config FILE`: the alert an offline tool (`explain`, `tune`) works on, and
/// the configuration it is defined in.
struct AlertConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The alert's id (default: the configuration's only alert).", valueName: "id"))
    var alert: String?

    @Option(
        help: ArgumentHelp(
            "The configuration with the alerts (default, with --scenario: its sibling NAME.alerts.yaml).",
            valueName: "file"))
    var config: String?

    /// The configuration (see `OfflineInput.configuration(_:)`) and the alert chosen in it
    /// (``AlertChoice``).
    func load(for input: OfflineInput) throws -> (configuration: GatewayConfiguration, alert: PipelineAlert) {
        let configuration = try input.configuration(config)
        return (configuration, try AlertChoice.choose(alert, among: try configuration.pipelineAlerts()))
    }
}
