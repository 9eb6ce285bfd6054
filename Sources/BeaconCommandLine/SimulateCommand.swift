import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconSiteLink
import BeaconStrategies
import BeaconStrategyKit
import Foundation
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// `beacond simulate SCENARIO`: a scripted site on a virtual clock through the whole pipeline —
/// simulated HCI bytes, parser, ranging, strategies, alert engine — printing alert events.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs a simulated site through the full pipeline and prints its alert events.",
        discussion: """
            Alert events are JSON lines on stdout. On a terminal, a progress bar and a summary table \
            go to stderr. Without --config, SCENARIO's sibling NAME.alerts.yaml is used when present.
            A scenario with rooms: is a site: every gateway is simulated with its own ranging and a \
            hub fuses them into rooms and positions for the alerts (--gateway simulates one alone).
            Bundled scenarios, in Simulator/Scenarios/ (NAME.yaml): lobby, lobby-hour, museum, warehouse, \
            soak, stress, gateway-load, home; sites: site, site-calibration, site-espresense, two-floors, hall-session, hall-aisles, hall-walks, flat.
            """
    )

    @Argument(help: ArgumentHelp("The scenario file (YAML).", valueName: "scenario"))
    var scenario: String

    @Option(help: ArgumentHelp("The gateway configuration with the alert definitions.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Override the scenario's duration, e.g. 10m or 24h.", valueName: "duration"))
    var duration: String?

    @Option(help: "Override the scenario's random seed.")
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "max (default: as fast as the CPU allows; 1 with --serve), a factor over real time, or wall (the scenario's time is the wall clock's).",
            valueName: "max|N|wall"))
    var speed: String?

    @Option(
        help: ArgumentHelp(
            "Serve the status page (and its API) on this address while the simulation runs, and after it until Ctrl-C.",
            valueName: "host:port"))
    var serve: String?

    @Option(
        help: ArgumentHelp(
            "With --serve: how long the page stays up after the simulation ends (default: until Ctrl-C).",
            valueName: "duration"))
    var linger: String?

    @Option(
        help: ArgumentHelp(
            "Which gateway of the scenario to simulate: its name or index (default: the first; on a site, all of them and the hub).",
            valueName: "gateway"))
    var gateway: String?

    @Option(
        help: ArgumentHelp(
            "Write the ground truth (distances and visits; on a site, stays and positions too) as JSON lines.",
            valueName: "file.jsonl"))
    var truth: String?

    @Option(
        help: ArgumentHelp(
            "On a site, write the hub's presence lines (every fused beacon, every cycle) to this file.", valueName: "file.jsonl"))
    var presence: String?

    @Option(
        help: ArgumentHelp(
            "Record what the simulated gateway received (btsnoop, as btmon -w writes).",
            valueName: "file.btsnoop"))
    var record: String?

    @OptionGroup var plugins: PluginOptions

    @Flag(help: "Never show the progress bar, even on a terminal.")
    var quiet = false

    func validate() throws {
        if let speed, SimulationSpeed(speed) == nil {
            throw ValidationError("--speed takes max, wall or a positive number, not '\(speed)'")
        }
        if let serve, ControlConfiguration(listening: serve) == nil {
            throw ValidationError("--serve takes HOST:PORT, e.g. 127.0.0.1:8080 (port 0: any free one), not '\(serve)'")
        }
        if let linger, Duration(parsing: linger) == nil || serve == nil {
            throw ValidationError("--linger takes a duration such as 30s or 10m, and applies to --serve")
        }
        if let duration, Duration(parsing: duration) == nil {
            throw ValidationError("--duration takes a duration such as 90s, 10m or 24h, not '\(duration)'")
        }
    }

    func run() async throws {
        var scenario = try loadScenario()
        if let duration, let value = Duration(parsing: duration) { scenario.duration = value }
        if let serve { return try await serveWhileSimulating(on: serve) }
        if scenario.isSite, gateway == nil { return try runSite(scenario) }
        if presence != nil {
            printError("error: --presence needs a site: a scenario with rooms:, all of whose gateways are simulated")
            throw ExitCode(2)
        }
        let gatewayIndex = try resolveGateway(in: scenario)
        let pipeline = try makePipeline(phoneKeys: scenario.phoneKeys)
        let simulation = Simulation(
            scenario: scenario, seed: seed, gatewayIndex: gatewayIndex,
            speed: speed.flatMap(SimulationSpeed.init) ?? .max)
        scenario = simulation.scenario
        if let truth {
            try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: scenario.beacons.count <= 1000)
        }
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        // The simulator reports progress from its own task.
        let progress = Mutex(ProgressBar(total: scenario.duration, enabled: showProgress))
        var output = StandardOutput()
        let started = ContinuousClock.now
        let start = scenario.start
        let summary = try await SimulationRun(simulation: simulation, pipeline: pipeline, recordPath: record).run(
            progress: { time, stats in progress.withLock { $0.update(virtual: time - start, reports: stats.reports) } },
            emit: { output.write($0.event.jsonLine) })
        output.flush()
        progress.withLock { $0.finish() }
        let wall = ContinuousClock.now - started
        printError(SimulationSummaryTable.gateway(summary, scenario: scenario, wall: wall))
    }

    private func loadScenario() throws -> Scenario {
        do {
            return try Scenario.load(path: scenario)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// A site: every gateway and the hub, in this process, as fast as the CPU allows.
    private func runSite(_ scenario: Scenario) throws {
        guard speed.flatMap(SimulationSpeed.init) ?? .max == .max else {
            printError("error: a site simulation runs as fast as it can; drop --speed (or simulate one gateway with --gateway)")
            throw ExitCode(2)
        }
        if record != nil {
            printError("error: --record takes one gateway's packets: add --gateway NAME")
            throw ExitCode(2)
        }
        let registry = try plugins.registry()
        let presenceFile: PresenceFile?
        let site: SiteSimulation
        do {
            let configuration =
                try configPath.map { try GatewayConfiguration.load(path: $0, scenarioPhoneKeys: scenario.phoneKeys) }
                ?? GatewayConfiguration()
            presenceFile = try presence.map { try PresenceFile(path: $0) }
            site = try SiteSimulation(
                scenario: scenario, seed: seed, ranging: configuration.ranging,
                fusion: configuration.siteFusion ?? SiteFusionConfiguration(), alerts: try configuration.pipelineAlerts(),
                registry: registry, presence: presenceFile.map { file in { file.write($0) } },
                beacons: configuration.beacons, people: configuration.people, devices: configuration.devices)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        if let truth {
            try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: scenario.beacons.count <= 1000)
        }
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        var progress = ProgressBar(total: scenario.duration, enabled: showProgress)
        var output = StandardOutput()
        let started = ContinuousClock.now
        let summary = try site.run(
            progress: { time, stats in progress.update(virtual: time - scenario.start, reports: stats.reports) },
            emit: { output.write($0.event.jsonLine) })
        output.flush()
        try presenceFile?.close()
        progress.finish()
        printError(
            SimulationSummaryTable.site(
                summary, scenario: scenario, wall: ContinuousClock.now - started, calibration: site.calibrationStatus))
    }

    private func resolveGateway(in scenario: Scenario) throws -> Int {
        guard let gateway else { return 0 }
        if let index = Int(gateway), scenario.gateways.indices.contains(index) { return index }
        if let index = scenario.gateways.firstIndex(where: { $0.name == gateway }) { return index }
        printError(
            "error: no gateway '\(gateway)' in \(self.scenario); gateways: "
                + scenario.gateways.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", "))
        throw ExitCode(2)
    }

    /// The configuration given, or the scenario's sibling `NAME.alerts.yaml`, or none.
    var configPath: String? {
        if let config { return config }
        let sibling = (scenario.hasSuffix(".yaml") ? String(scenario.dropLast(5)) : scenario) + ".alerts.yaml"
        return access(sibling, R_OK) == 0 ? sibling : nil
    }

    /// The pipeline of the configuration; `devices:` entries with `irk: scenario` take their key
    /// from the scenario's phone of the same name (`phoneKeys`).
    private func makePipeline(phoneKeys: [String: [UInt8]]) throws -> AlertPipeline {
        let registry = try plugins.registry()
        do {
            let configuration =
                try configPath.map { try GatewayConfiguration.load(path: $0, scenarioPhoneKeys: phoneKeys) }
                ?? GatewayConfiguration()
            return try AlertPipeline(configuration: configuration, registry: registry)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
