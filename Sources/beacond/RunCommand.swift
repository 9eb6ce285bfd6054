import ArgumentParser
import BeaconAlerting
import BeaconGateway
import BeaconStrategies
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `beacond run --config FILE`: the gateway daemon — source → pipeline → outbox → sinks.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs the gateway: source, alert pipeline and sinks, as configured.",
        discussion: """
            The configuration names the source (hci:hci0, replay:FILE, simulate:FILE), the state file,
            the sinks (jsonl, webhook, exec) and the alerts; see Docs/Daemon.md. Every event is written
            to each sink's outbox in the state file before it is delivered, and removed once the sink
            confirms it: delivery is at least once, and survives crashes and restarts.
            SIGTERM/SIGINT stop the source, then give each sink a last attempt; a second signal exits at once.
            """
    )

    @Option(help: ArgumentHelp("The gateway configuration (YAML).", valueName: "file"))
    var config: String

    @Option(name: .customLong("plugin"), help: ArgumentHelp("Load strategies from this plugin (a shared library).",
                                                            valueName: "path"))
    var plugins: [String] = []

    func run() async throws {
        var registry = StrategyRegistry.builtIn()
        for path in plugins { try StrategyPluginLoader.load(path: path, into: &registry) }
        let gateway: Gateway
        do {
            let configuration = try GatewayConfiguration.load(path: config)
            gateway = try buildGateway(configuration, file: config, registry: registry) { printError("beacond: \($0)") }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let signalsSeen = Atomic<Int>(0)
        let signals = SignalCanceller(signals: [SIGINT, SIGTERM]) {
            if signalsSeen.add(1, ordering: .relaxed).newValue > 1 {
                printError("beacond: second signal, exiting now (undelivered events stay in the outbox)")
                Glibc.exit(130)
            }
            printError("beacond: stopping (a second signal exits at once)")
            gateway.stop()
        }
        defer { signals.cancel() }
        printError("beacond: running \(gateway.sourceName) with \(gateway.configuration.sinks.count) sinks")
        do {
            try await gateway.run()
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        printError(ReplayCommand.summary(gateway.statistics).replacingOccurrences(of: "replay: ", with: "beacond: "))
    }
}
