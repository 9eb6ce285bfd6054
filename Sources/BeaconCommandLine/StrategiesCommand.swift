import ArgumentParser
import BeaconStrategies
import BeaconStrategyKit

/// `beacond strategies`: lists every strategy key configuration may use, with its parameters,
/// their types, defaults and documentation — the stock strategies plus those of `--plugin`s.
struct StrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strategies",
        abstract: "Lists the alert strategy keys with their parameters, types and defaults.",
        discussion: "Durations are written 500ms, 3s, 10m, 2h; proximities immediate, near, far."
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try plugins.registry()
        switch format {
        case .text: print(registry.listingText(), terminator: "")
        case .json: print(try registry.listingJSON())
        }
    }
}
