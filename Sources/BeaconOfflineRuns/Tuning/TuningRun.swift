import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSimulator
import BeaconStrategyKit

/// One input a tune runs every candidate on, with its true visits: a simulation (with one seed of
/// its radio model) or recordings with a truth file.
///
/// Running it builds one pipeline without alerts of its own, lets the tuner attach the
/// candidates as shadows (`AlertPipeline.attachShadow(alerts:registry:comparedAs:)`), and feeds the
/// input through it once: ranging runs once for all candidates.
public struct TuningRun {
    /// How the run is named in the report (`seed 42`, `lobby.btsnoop`).
    public let name: String
    /// The true visits of the input's beacons (all beacons; the tuner keeps those its alert matches).
    public let visits: [Scoring.Visit]
    /// Builds the pipeline, hands it to `prepare`, and runs the input through it to its end.
    let body: (_ prepare: (AlertPipeline) throws -> Void) async throws -> Void

    /// A run of any input: `body` builds the pipeline, calls `prepare` with it before the first
    /// packet, and runs the input to its end.
    public init(
        name: String, visits: [Scoring.Visit], body: @escaping (_ prepare: (AlertPipeline) throws -> Void) async throws -> Void
    ) {
        self.name = name
        self.visits = visits
        self.body = body
    }

    /// A simulation of `scenario` with `seed` (the radio model's), at its first gateway, through
    /// `configuration`'s ranging; its visits are the scenario's truth at that gateway under
    /// `definition`.
    public static func simulation(
        scenario: Scenario, seed: UInt64, configuration: GatewayConfiguration, definition: VisitDefinition
    ) -> TuningRun {
        var scenario = scenario
        scenario.seed = seed
        let truth = GroundTruth(scenario: scenario, definition: definition)
        let visits = truth.visits().filter { $0.gatewayIndex == 0 }.map {
            Scoring.Visit(beacon: scenario.beacons[$0.beaconIndex].identity.beaconID, start: $0.start, end: $0.end)
        }
        var base = configuration
        base.alerts = []
        return TuningRun(name: "seed \(seed)", visits: visits) { [scenario, base] prepare in
            let pipeline = try AlertPipeline(configuration: base, registry: StrategyRegistry())
            try prepare(pipeline)
            _ = try await SimulationRun(simulation: Simulation(scenario: scenario, speed: .max), pipeline: pipeline).run { _ in }
        }
    }

    /// Recordings (btsnoop, pcap, pcapng), replayed one after the other on their own time through
    /// `configuration`'s ranging, against `visits` (a truth file's).
    public static func captures(_ paths: [String], configuration: GatewayConfiguration, visits: [Scoring.Visit]) -> TuningRun {
        var base = configuration
        base.alerts = []
        let name = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
        return TuningRun(name: name, visits: visits) { [base] prepare in
            let pipeline = try AlertPipeline(configuration: base, registry: StrategyRegistry())
            try prepare(pipeline)
            for path in paths {
                let source = try CaptureReplaySource(path: path, speed: nil)
                _ = try await PipelineRunner.run(source: source, pipeline: pipeline) { _ in }
            }
        }
    }
}
