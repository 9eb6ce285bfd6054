import BeaconCore

/// Finds visits in a time-ordered series of distance samples of one beacon at one gateway.
///
/// A visit is a maximal run of consecutive samples whose distance is ≤ the radius; it starts at
/// the run's first sample and ends at its last, and counts when end − start ≥ the minimum
/// duration. A missing sample (beacon off site) or a gap longer than 1.5 sample intervals ends a run.
public struct VisitDetector: Sendable {
    /// The visit definition applied.
    public let definition: VisitDefinition
    /// The spacing of the samples.
    public let sampleInterval: Duration
    private var runStart: Timestamp?
    private var runLast: Timestamp?

    /// Creates a detector.
    public init(definition: VisitDefinition, sampleInterval: Duration = .seconds(1)) {
        self.definition = definition
        self.sampleInterval = sampleInterval
    }

    /// Feeds the sample at `time` (`nil` distance: the beacon is not on site); returns the visit
    /// this sample closed, if any.
    public mutating func add(time: Timestamp, distance: Double?) -> (start: Timestamp, end: Timestamp)? {
        var closed: (start: Timestamp, end: Timestamp)?
        if let last = runLast, time - last > sampleInterval * 1.5 { closed = finish() }
        if let distance, distance <= definition.radius {
            if runStart == nil { runStart = time }
            runLast = time
        } else if closed == nil {
            closed = finish()
        }
        return closed
    }

    /// Ends the current run (end of data); returns it if it is long enough to be a visit.
    public mutating func finish() -> (start: Timestamp, end: Timestamp)? {
        defer {
            runStart = nil
            runLast = nil
        }
        guard let start = runStart, let end = runLast, end - start >= definition.minimumDuration else { return nil }
        return (start, end)
    }
}
