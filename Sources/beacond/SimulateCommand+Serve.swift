import ArgumentParser
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSimulator
import BeaconStrategyKit
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
import UnixSignals
#endif

extension SimulateCommand {
    /// `--serve HOST:PORT`: the simulation runs as the daemon would run it (source, pipeline,
    /// outbox, sinks; events as JSON lines on stdout), paced at `--speed` (real time by default),
    /// with the status page on the address; the page stays up after the end until Ctrl-C, or for
    /// `--linger`.
    func serveWhileSimulating(on address: String) async throws {
        guard var control = ControlConfiguration(listening: address) else { throw ExitCode(2) } // validate() checked it
        let logger = DaemonLogging.logger(level: .notice)
        let gateway: Gateway
        let server: ControlServer
        do {
            let loaded = try Scenario.load(path: scenario)
            if loaded.isSite, self.gateway == nil {
                throw CommandProblem(
                    "\(scenario) is a site: --serve shows one daemon's page, so name the gateway to watch (--gateway NAME); "
                        + "a site's page is its hub's (beacond hub with http:, see Docs/Site.md)")
            }
            guard control.isLoopback else {
                throw CommandProblem(
                    "--serve \(address) is reachable from other machines; serve on 127.0.0.1, or run beacond run "
                        + "with http: {listen: …, tokenFile: …} to require a token")
            }
            var configuration = try configPath.map { try GatewayConfiguration.load(path: $0) } ?? GatewayConfiguration()
            let pace: Double? =
                switch speed.flatMap(SimulationSpeed.init) ?? .factor(1) {
                case .factor(let factor): factor
                case .max, .wallClock: nil
                }
            configuration.source = .simulate(
                path: scenario, speed: pace, gateway: self.gateway, onWallClock: speed == "wall")
            if configuration.sinks.isEmpty {
                configuration.sinks = [SinkDefinition(type: "jsonl", settings: JSONLinesSinkSettings(path: "-"))]
            }
            configuration.control = control
            gateway = try buildGateway(
                configuration, file: configPath ?? scenario, registry: try StrategyRegistry.builtIn(plugins: plugins),
                logger: logger)
            server = try await ControlServer.bind(host: control.host, port: control.port, routes: gateway.controlRoutes)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        printError("beacond: the status page is on \(server.url)/ (the simulation at \(speed ?? "1")x; Ctrl-C stops)")
        let stopped = Atomic<Bool>(false)
        let signals = SignalCanceller(signals: [SIGINT, SIGTERM]) {
            stopped.store(true, ordering: .relaxed)
            gateway.stop()
            server.close()
        }
        defer { signals.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            try await gateway.run()
            if !stopped.load(ordering: .relaxed) {
                if let linger = linger.flatMap(Duration.init(parsing:)) {
                    printError("beacond: the simulation has ended; the page shows its last state for \(linger.humanReadable)")
                    try? await Task.sleep(for: linger)
                    server.close()
                } else {
                    printError("beacond: the simulation has ended; the page shows its last state until Ctrl-C")
                }
            }
            try await group.waitForAll()
        }
    }
}
