import ArgumentParser
import BeaconGateway
import Logging

/// `--log-level` and `--log-format`, as the daemons (`run`, `hub`) take them.
struct LoggingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How much to log: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: Logger.Level = .info

    @Option(
        help: ArgumentHelp(
            "Log lines as text, logfmt or json (one record a line, on standard error; under journald each line carries its priority and no time of its own).",
            valueName: "format"))
    var logFormat: LogLineFormat.Style = .text

    /// The daemon's logger, as these options ask.
    func logger() -> Logger { DaemonLogging.logger(level: logLevel, style: logFormat) }
}
