import ArgumentParser
import BeaconRanging
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `beacond evaluate-ranging [--data DIR]`: scores every RSSI filter and path-loss exponent on
/// the real RSSI recordings and prints the tables of Docs/Ranging.md.
struct EvaluateRangingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-ranging",
        abstract: "Scores the RSSI filters and distance models on real RSSI recordings.",
        discussion: """
            Reads the CSV files described in Data/rssi/PROVENANCE.md and prints Markdown tables. \
            Without --data it reads Data/rssi under the working directory (run it from a checkout of beacond).
            """)

    /// The data directory when `--data` is not given: the repository's, relative to the working directory.
    static let defaultDataDirectory = "Data/rssi"

    @Option(name: .long, help: "Directory holding the RSSI CSV files (default: Data/rssi under the working directory).")
    var data: String?

    @Option(name: .long, help: "Path-loss exponent of the filter table.")
    var exponent: Double = LogDistanceModel.defaultExponent

    func validate() throws {
        guard data == nil else { return }
        var status = stat()
        guard stat(Self.defaultDataDirectory, &status) == 0 else {
            throw ValidationError(
                "no Data/rssi here: run from a checkout of beacond, or give --data DIR "
                    + "(a directory with the recordings listed in Data/rssi/PROVENANCE.md)")
        }
    }

    func run() throws {
        print(try RangingEvaluation(dataDirectory: data ?? Self.defaultDataDirectory, exponent: exponent).run())
    }
}
