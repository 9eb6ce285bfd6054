import ArgumentParser
import BeaconRanging

/// `beacond evaluate-ranging [--data DIR]`: scores every RSSI filter and path-loss exponent on
/// the real RSSI recordings and prints the tables of Docs/Ranging.md.
struct EvaluateRangingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-ranging",
        abstract: "Scores the RSSI filters and distance models on real RSSI recordings.",
        discussion: "Reads the CSV files described in Data/rssi/PROVENANCE.md and prints Markdown tables.")

    /// The project's copy of the data, located from this source file.
    static var defaultDataDirectory: String {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)   // Sources/beacond/EvaluateRangingCommand.swift
        return parts.joined(separator: "/") + "/Data/rssi"
    }

    @Option(name: .long, help: "Directory holding the RSSI CSV files (default: the project's Data/rssi).")
    var data: String = EvaluateRangingCommand.defaultDataDirectory

    @Option(name: .long, help: "Path-loss exponent of the filter table.")
    var exponent: Double = LogDistanceModel.defaultExponent

    func run() throws {
        print(try RangingEvaluation(dataDirectory: data, exponent: exponent).run())
    }
}
