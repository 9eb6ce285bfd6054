import ArgumentParser
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconSimulator
import BeaconSite
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
        var siteGateways: Int?
        do {
            let loaded = try Scenario.load(path: scenario)
            guard control.isLoopback else {
                throw CommandProblem(
                    "--serve \(address) is reachable from other machines; serve on 127.0.0.1, or run beacond run "
                        + "with http: {listen: …, tokenFile: …} to require a token")
            }
            var configuration =
                try configPath.map { try GatewayConfiguration.load(path: $0, scenarioPhoneKeys: loaded.phoneKeys) }
                ?? GatewayConfiguration()
            let pace: Double? =
                switch speed.flatMap(SimulationSpeed.init) ?? .factor(1) {
                case .factor(let factor): factor
                case .max, .wallClock: nil
                }
            if configuration.sinks.isEmpty {
                configuration.sinks = [SinkDefinition(type: "jsonl", settings: JSONLinesSinkSettings(path: "-"))]
            }
            if loaded.isSite, self.gateway == nil {
                // A site is paced by a factor (wall: real time, as 1).
                siteGateways = loaded.gateways.count
                daemon = try await serveSite(
                    loaded, configuration: configuration, control: control, speed: speed == "wall" ? 1 : pace,
                    logger: logger)
            } else {
                configuration.source = .simulate(
                    path: scenario, speed: pace, gateway: self.gateway, onWallClock: speed == "wall")
                configuration.control = control
                daemon = try await DaemonRun.start(
                    configuration, file: configPath ?? scenario, reloadsFile: configPath != nil,
                    registry: try plugins.registry(), logger: logger,
                    afterSourceEnds: .keepServing(for: linger.flatMap(Duration.init(parsing:))),
                    say: { printError("beacond: \($0)") })
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        try await runServed(daemon, address: address, siteGateways: siteGateways)
    }

    /// Runs a started daemon (outside the start's error handling: a failure while running is
    /// status 1, not 2, as for beacond run).
    private func runServed(_ daemon: DaemonRun, address: String, siteGateways: Int?) async throws {
        let url = daemon.control.map(\.url) ?? address
        if let siteGateways {
            printError(
                "beacond: the hub's status page is on \(url)/ (the site's \(siteGateways) gateways simulated at "
                    + "\(speed == "wall" ? "1" : speed ?? "1")x; Ctrl-C stops)")
            try await daemon.run(reloadSignal: false)
        } else {
            printError("beacond: the status page is on \(url)/ (the simulation at \(speed ?? "1")x; Ctrl-C stops)")
            try await daemon.run()
        }
    }

    /// A whole site: its gateways simulated in this process, their reports fused by a hub that
    /// is a daemon like `beacond hub` — outbox, sinks (JSON lines on stdout unless the alerts file
    /// names others), the status page — without a broker.
    private func serveSite(
        _ scenario: Scenario, configuration: GatewayConfiguration, control: ControlConfiguration, speed: Double?,
        logger: Logger
    ) async throws -> DaemonRun {
        let registry = try plugins.registry()
        let fusion = configuration.siteFusion ?? SiteFusionConfiguration()
        let simulation = try SiteSimulation(
            scenario: scenario, seed: seed, ranging: configuration.ranging, fusion: fusion, alerts: [], registry: registry,
            beacons: configuration.beacons, devices: configuration.devices)
        var hub = configuration
        hub.source = .hub
        hub.hub = HubSettings(layout: simulation.layout, fusion: fusion)
        hub.control = control
        if truth != nil || presence != nil || record != nil {
            throw CommandProblem("--truth, --presence and --record go with a site simulation without --serve")
        }
        let gateway = try buildGateway(
            hub, reports: SimulatedSiteReports(simulation: simulation, speed: speed), registry: registry, logger: logger)
        return try await DaemonRun.start(
            gateway, logger: logger, afterSourceEnds: .keepServing(for: linger.flatMap(Duration.init(parsing:))),
            say: { printError("beacond: \($0)") })
    }
}
