import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import BeaconStrategyKit

#if canImport(Glibc)
import Glibc
#endif

/// What the offline tools (`beacond explain`) run again: a scenario (one gateway's, or a site's
/// with every gateway and the hub), captures, or a site's captures — on virtual or capture time,
/// through the same pipeline `simulate` and `replay` build.
///
/// A class, its start read once: Swift 6.3.1's optimizer crashed (CopyPropagation, "Found
/// outside of lifetime use") on `ExplainCommand.run` when this was a struct whose `start`
/// switched over its kind.
final class OfflineInput {
    enum Kind {
        case scenario(Scenario, path: String)
        case captures([String])
        case site(String)
    }

    let kind: Kind
    /// Where the input's time starts, when it says so before it runs (a scenario's `start`).
    let start: Timestamp?
    /// Where the input's time ends, when it says so before it runs (a scenario's `end`).
    let end: Timestamp?

    private init(kind: Kind) {
        self.kind = kind
        if case .scenario(let scenario, _) = kind {
            (start, end) = (scenario.start, scenario.end)
        } else {
            (start, end) = (nil, nil)
        }
    }

    /// The input the options name: exactly one of a scenario, captures or a site file.
    static func resolve(scenario: String?, captures: [String], site: String?) throws -> OfflineInput {
        switch (scenario, captures.isEmpty, site) {
        case (let path?, true, nil):
            do {
                return OfflineInput(kind: .scenario(try Scenario.load(path: path), path: path))
            } catch {
                throw ValidationError("\(error)")
            }
        case (nil, false, nil): return OfflineInput(kind: .captures(captures))
        case (nil, true, let path?): return OfflineInput(kind: .site(path))
        default:
            throw ValidationError(
                "give one input: --scenario FILE (a simulation), --capture FILE (a recording, repeatable) or --site SITE.yaml (a site's recordings)"
            )
        }
    }

    /// The configuration given, or the scenario's sibling `NAME.alerts.yaml` (as `simulate` takes it).
    func configurationPath(_ given: String?) -> String? {
        if let given { return given }
        guard case .scenario(_, let path) = kind else { return nil }
        let sibling = (path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path) + ".alerts.yaml"
        return access(sibling, R_OK) == 0 ? sibling : nil
    }

    /// The configuration with the alerts: `given`, or the scenario's sibling alerts file.
    /// - Throws: a `ValidationError` when there is none, exit status 2 (after saying why) when it
    ///   cannot be read.
    func configuration(_ given: String?) throws -> GatewayConfiguration {
        guard let path = configurationPath(given) else {
            throw ValidationError("--config FILE is needed: it holds the alert definitions")
        }
        // A scenario's phones enroll with their scenario keys (`irk: scenario`).
        var phoneKeys: [String: [UInt8]] = [:]
        if case .scenario(let scenario, _) = kind { phoneKeys = scenario.phoneKeys }
        do {
            return try GatewayConfiguration.load(path: path, scenarioPhoneKeys: phoneKeys)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The beacon `text` names: an identity (`ibeacon:UUID:1:2`), a named beacon of the
    /// configuration, or a beacon of the scenario.
    func beacon(named text: String, configuration: GatewayConfiguration) -> BeaconID? {
        if let id = BeaconID(text) { return id }
        if let named = configuration.beacons.beacons.first(where: { $0.name == text }) { return named.id }
        if case .scenario(let scenario, _) = kind, let spec = scenario.beacons.first(where: { $0.name == text }) {
            return spec.identity.beaconID
        }
        return nil
    }

    /// Runs the input through a pipeline of `configuration`'s alerts; `prepare` sees the
    /// (hub's) pipeline before the first packet. A scenario stops at `until` (what comes after it
    /// cannot change what happened before); a recording runs to its end.
    func run(
        configuration: GatewayConfiguration, registry: StrategyRegistry, until: Timestamp? = nil,
        prepare: (AlertPipeline) -> Void, emit: (RoutedEvent) -> Void
    ) async throws {
        var kind = kind
        if case .scenario(var scenario, let path) = kind, let until, until < scenario.end {
            scenario.duration = max(.seconds(1), until - scenario.start + .seconds(1))
            kind = .scenario(scenario, path: path)
        }
        switch kind {
        case .scenario(let scenario, _) where scenario.isSite:
            let site = try SiteSimulation(
                scenario: scenario, ranging: configuration.ranging,
                fusion: configuration.siteFusion ?? SiteFusionConfiguration(), alerts: try configuration.pipelineAlerts(),
                registry: registry, beacons: configuration.beacons, people: configuration.people,
                devices: configuration.devices)
            prepare(site.hub)
            _ = try site.run(emit: emit)
        case .scenario(let scenario, _):
            let pipeline = try AlertPipeline(configuration: configuration, registry: registry)
            prepare(pipeline)
            _ = try await SimulationRun(simulation: Simulation(scenario: scenario, speed: .max), pipeline: pipeline).run(
                emit: emit)
        case .captures(let paths):
            let pipeline = try AlertPipeline(configuration: configuration, registry: registry)
            prepare(pipeline)
            for path in paths {
                let source = try CaptureReplaySource(path: path, speed: nil)
                _ = try await PipelineRunner.run(source: source, pipeline: pipeline, emit: emit)
            }
        case .site(let path):
            let replay = try SiteReplay(
                document: try SiteReplayDocument.load(path: path), alerts: try configuration.pipelineAlerts(),
                registry: registry, presence: nil, calibration: .prefit)
            prepare(replay.hub)
            try await replay.run(emit: emit)
        }
    }
}
