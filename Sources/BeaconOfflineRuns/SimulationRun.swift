import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSimulator
import BeaconWire

/// A whole simulated run: a scenario's simulated gateway through the full pipeline, with
/// optional recording of what was "received". `beacond simulate` is a thin layer over this.
public struct SimulationRun {
    /// What a finished run did.
    public struct Summary: Sendable {
        /// The simulator's counters (advertisements, losses, reports).
        public var simulation: SimulationStatistics
        /// The pipeline's counters (packets, sightings, cycles, events by alert).
        public var pipeline: PipelineStatistics
        /// Virtual time covered.
        public var virtualDuration: Duration
        /// Beacons tracked at the end.
        public var trackedBeacons: Int
    }

    public let simulation: Simulation
    public let pipeline: AlertPipeline
    /// Where to record the received packets (btsnoop, Linux monitor format), if anywhere.
    public let recordPath: String?

    public init(simulation: Simulation, pipeline: AlertPipeline, recordPath: String? = nil) {
        self.simulation = simulation
        self.pipeline = pipeline
        self.recordPath = recordPath
    }

    /// Runs the simulation to its end, through a `PipelineRunner`: the simulator feeds the
    /// pipeline's inbox from a child task while this task runs the pipeline.
    /// - Parameters:
    ///   - progress: called after each batch with the virtual time reached and the simulator's counters.
    ///   - emit: called with every alert event, in order.
    public func run(
        progress: @escaping @Sendable (Timestamp, SimulationStatistics) -> Void = { _, _ in },
        emit: (RoutedEvent) throws -> Void
    ) async throws -> Summary {
        let runner = PipelineRunner(capacity: 4)
        let simulation = simulation
        let recordPath = recordPath
        let (statistics, reached) = try await runner.run(pipeline, emit: emit) {
            let recorder = try recordPath.map { path throws(CaptureWriteError) in try BtsnoopFileWriter(path: path) }
            var statistics = SimulationStatistics()
            var reached = simulation.scenario.start
            try await simulation.run(
                deliver: { batch in
                    if let recorder {
                        try batch.forEachPacket { record, bytes in
                            try recorder.append(h4Packet: bytes, direction: .received, timestamp: record.timestamp)
                        }
                    }
                    try await runner.send(batch)
                },
                progress: { time, stats in
                    statistics = stats
                    reached = time
                    progress(time, stats)
                })
            // Close the last cycle at the scenario's end, so what the scenario completed is evaluated.
            try await runner.advance(to: simulation.scenario.end)
            try recorder?.close()
            return (statistics, reached)
        }
        let snapshot = runner.snapshot
        return Summary(
            simulation: statistics, pipeline: snapshot.statistics,
            virtualDuration: max(reached, simulation.scenario.end) - simulation.scenario.start,
            trackedBeacons: snapshot.trackedBeacons)
    }
}
