import ArgumentParser
import CBeacondVersion

/// `beacond`: BLE proximity beacons in, alerts out.
///
/// A thin command-line layer over the libraries: every subcommand lives in its own file
/// (`<Name>Command.swift`) and delegates to library code that tests can call directly.
@main
struct Beacond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacond",
        abstract: "Turns Bluetooth LE beacon sightings into alerts.",
        discussion: """
            Sources: a BlueZ HCI adapter (scan), captures (parse, replay) and the simulator.
            Run `beacond help <subcommand>` for details.
            """,
        version: String(cString: beacond_version()),
        subcommands: [
            // One line per subcommand; keep alphabetical.
            RunCommand.self,
            HubCommand.self,
            CheckConfigCommand.self,
            PostEventCommand.self, AcknowledgeCommand.self, DismissCommand.self, UnsuppressCommand.self,
            SealCommandCommand.self,
            OutboxCommand.self,
            StateCommand.self,
            ReplayCommand.self,
            RecordMQTTCommand.self,
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
