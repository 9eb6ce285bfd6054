import BeaconAlerting
import BeaconCore

/// Drives a source to its end through a pipeline (replay, simulation, tests).
public enum PipelineRunner {
    /// Runs `source` until it ends, feeding every batch to `pipeline` and every event to `emit`;
    /// at the end, closes the last ranging cycle (`finish` after the last packet) so that what
    /// the capture completed is evaluated.
    /// - Returns: the time of the last packet, if any.
    @discardableResult
    public static func run(source: some AdvertisementSource, pipeline: AlertPipeline,
                           finish: Duration = .seconds(1),
                           emit: (RoutedEvent) throws -> Void) async throws -> Timestamp? {
        var last: Timestamp?
        try await source.run { batch in
            try pipeline.ingest(batch, emit: emit)
            if let time = batch.records.last?.timestamp { last = time }
        }
        if let last { try pipeline.advance(to: last + finish, emit: emit) }
        return last
    }
}
