import ArgumentParser
import BeaconBuildInfo
import BeaconStrategyKit
import Synchronization

/// `beacond`: BLE proximity beacons in, alerts out.
///
/// A thin command-line layer over the libraries: every subcommand lives in its own file
/// (`<Name>Command.swift`) and delegates to library code that tests can call directly.
///
/// The `beacond` executable is `await Beacond.main()`. A package that adds strategies of its own
/// ships the same command line with them — `run`, `hub`, `check-config`, `strategies`,
/// `simulate`, `replay`, `explain` … all know them — by calling
/// ``main(adding:)`` instead (`Examples/CustomGateway`).
public struct Beacond: AsyncParsableCommand {
    /// Strategies registered beside the built-in ones (and any `--plugin`'s) by every command.
    static let extraStrategies = Mutex<[StrategyRegistration]>([])

    /// Runs the command line with `strategies` registered beside the built-in ones, as if they
    /// were stock: configuration names them, `check-config` checks their typed parameters,
    /// `strategies` lists them.
    public static func main(adding strategies: [StrategyRegistration]) async {
        extraStrategies.withLock { $0 = strategies }
        await main()
    }

    /// Creates the root command (the argument parser calls it).
    public init() {}

    /// The command line: its name, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "beacond",
        abstract: "Turns Bluetooth LE beacon sightings into alerts.",
        discussion: """
            Sources: a BlueZ HCI adapter (scan), captures (parse, replay) and the simulator.
            Run `beacond help <subcommand>` for details.
            """,
        version: BuildInfo.versionLine,
        subcommands: [
            // One line per subcommand; keep alphabetical.
            RunCommand.self,
            HubCommand.self,
            CheckConfigCommand.self,
            PostEventCommand.self, AcknowledgeCommand.self, DismissCommand.self, CancelCommand.self, UnsuppressCommand.self,
            SealCommandCommand.self,
            OutboxCommand.self,
            StateCommand.self,
            ForgetCommand.self,
            ReplayCommand.self,
            ExplainCommand.self, CheckExplanationsCommand.self, DiffAlertsCommand.self, TuneCommand.self, ShadowCommand.self,
            PromoteCommand.self,
            RecordMQTTCommand.self,
            DevicesCommand.self, IRKCommand.self,
            SimulateCommand.self,
            ParseCommand.self,
            EvaluateRangingCommand.self,
            EvaluateSiteCommand.self,
            StrategiesCommand.self,
            ScanCommand.self,
            ScoreCommand.self,
        ]
    )
}
