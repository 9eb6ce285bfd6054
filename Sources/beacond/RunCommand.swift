import ArgumentParser
import BeaconBlueZ
import BeaconControl
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconStrategies
import BeaconStrategyKit
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
import UnixSignals
#endif

/// `beacond run --config FILE`: the gateway daemon — source → pipeline → outbox → sinks, with
/// the HTTP control endpoint beside it, as services of one service group.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs the gateway: source, alert pipeline and sinks, as configured.",
        discussion: """
            The configuration names the source (hci:hci0, replay:FILE, simulate:FILE), the state file, \
            the sinks (jsonl, webhook, exec, mqtt), the alerts and the HTTP endpoint (metrics, health, \
            posted events); see Docs/Daemon.md. Every event is written to each sink's outbox in the \
            state file before it is delivered, and removed once the sink confirms it: delivery is at \
            least once, and survives crashes and restarts.
            SIGTERM/SIGINT stop the source, then give each sink a last attempt; a second signal exits at once.
            Exit status: 0 after a source that ended (replay, simulation) or a signal; 2 for a \
            configuration that cannot run; 69, 77 or 75 when the radio cannot work (no Bluetooth or \
            adapter, no permission, adapter down or busy), as for `beacond scan`; 1 otherwise.
            """
    )

    @Option(help: ArgumentHelp("The gateway configuration (YAML).", valueName: "file"))
    var config: String

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load strategies from this plugin (a shared library).",
            valueName: "path"))
    var plugins: [String] = []

    @Option(help: ArgumentHelp("How much to log.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func run() async throws {
        try await Self.run(config: config, plugins: plugins, logLevel: logLevel)
    }

    /// Runs the daemon of a configuration file; `asHub` makes it a site hub (`beacond hub`).
    static func run(config: String, plugins: [String], logLevel: Logger.Level, asHub: Bool = false) async throws {
        let logger = DaemonLogging.logger(level: logLevel)
        let registry = try StrategyRegistry.builtIn(plugins: plugins)
        let gateway: Gateway
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        do {
            var configuration = try GatewayConfiguration.load(path: config)
            if asHub {
                guard configuration.source == nil || configuration.source == .hub else {
                    throw CommandProblem(
                        "\(config): source: \(configuration.source!) — a hub's input is its gateways' reports: leave source: out (or write source: hub), or use beacond run"
                    )
                }
                guard configuration.site != nil, configuration.hub != nil else {
                    throw CommandProblem(
                        "\(config): a hub needs site: {name: …, broker: {host: …, port: …}} and gateways: [{id: …, room: …, position: [x, y, z]}, …] (see Docs/Site.md)"
                    )
                }
                configuration.source = .hub
            }
            gateway = try buildGateway(configuration, file: config, registry: registry, logger: logger)
            if let control = configuration.control {
                let server = try await ControlServer.bind(host: control.host, port: control.port, routes: gateway.controlRoutes)
                let authentication = control.token == nil ? "" : "; requests need its bearer token"
                logger.notice("control endpoint on \(server.url) (GET /metrics, GET /health, POST /events/NAME)\(authentication)")
                // A service group stops its services in reverse order: the gateway first, the endpoint last.
                services.append(.init(service: server))
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        // The source ending by itself (a replay, a simulation) shuts the group down; so does a failure.
        services += gateway.services
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
        logger.notice("running \(gateway.sourceName) with \(gateway.configuration.sinks.count) sinks")
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        groupConfiguration.gracefulShutdownSignals = [.sigterm, .sigint]
        do {
            try await ServiceGroup(configuration: groupConfiguration).run()
        } catch let error as BlueZScannerError {
            // The radio cannot work: the same status as `beacond scan` (69 unavailable, 77 no
            // permission, 75 adapter down or busy), which the systemd unit does not restart on.
            printError("error: the radio: \(error)")
            throw ExitCode(ScanCommand.exitStatus(for: error))
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        gateway.collectMetrics()
        printError(ReplayCommand.summary(gateway.statistics).replacingOccurrences(of: "replay: ", with: "beacond: "))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
