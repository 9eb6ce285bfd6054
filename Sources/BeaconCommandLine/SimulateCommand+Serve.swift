import ArgumentParser
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSimulator
import BeaconStrategyKit
import Logging

extension SimulateCommand {
    /// `--serve HOST:PORT`: the simulation runs as the daemon would run it (source, pipeline,
    /// outbox, sinks; events as JSON lines on stdout), paced at `--speed` (real time by default),
    /// with the status page on the address; the page stays up after the end until Ctrl-C, or for
    /// `--linger`.
    func serveWhileSimulating(on address: String) async throws {
        guard let control = ControlConfiguration(listening: address) else { throw ExitCode(2) } // validate() checked it
        let logger = DaemonLogging.logger(level: .notice)
        let daemon: DaemonRun
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
            daemon = try await DaemonRun.start(
                configuration, file: configPath ?? scenario, reloadsFile: configPath != nil, registry: try plugins.registry(),
                logger: logger, afterSourceEnds: .keepServing(for: linger.flatMap(Duration.init(parsing:))),
                say: { printError("beacond: \($0)") })
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let url = daemon.control.map(\.url) ?? address
        printError("beacond: the status page is on \(url)/ (the simulation at \(speed ?? "1")x; Ctrl-C stops)")
        try await daemon.run()
    }
}
