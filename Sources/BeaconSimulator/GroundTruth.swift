import BeaconCore

/// What really happened in a scenario: every beacon's true distance to every gateway, sampled
/// at a fixed interval, and the true visits under a ``VisitDefinition``.
///
/// Independent of the radio model and of the seed: it comes from positions only.
public struct GroundTruth: Sendable {
    /// One true visit.
    public struct Visit: Hashable, Sendable {
        /// Index into ``Scenario/beacons``.
        public var beaconIndex: Int
        /// Index into ``Scenario/gateways``.
        public var gatewayIndex: Int
        /// First sample within the radius.
        public var start: Timestamp
        /// Last sample within the radius.
        public var end: Timestamp

        /// How long the visit lasted.
        public var duration: Duration { end - start }
    }

    /// The scenario.
    public let scenario: Scenario
    /// The visit definition.
    public let definition: VisitDefinition
    /// Spacing of the distance samples.
    public let sampleInterval: Duration

    /// Creates the ground truth of `scenario`.
    public init(
        scenario: Scenario, definition: VisitDefinition = VisitDefinition(),
        sampleInterval: Duration = .seconds(1)
    ) {
        self.scenario = scenario
        self.definition = definition
        self.sampleInterval = sampleInterval
    }

    /// Calls `body` with every sample, beacon by beacon, gateway by gateway, in time order
    /// (distance `nil` when the beacon is not on site).
    public func forEachSample(_ body: (_ beacon: Int, _ gateway: Int, _ time: Timestamp, _ distance: Double?) throws -> Void)
        rethrows
    {
        for (b, beacon) in scenario.beacons.enumerated() {
            for (g, gateway) in scenario.gateways.enumerated() {
                var time = scenario.start
                while time <= scenario.end {
                    try body(b, g, time, scenario.position(of: beacon, at: time)?.distance(to: gateway.position))
                    time = time + sampleInterval
                }
            }
        }
    }

    /// The true distance from a beacon to a gateway at `time` (`nil` when the beacon is not on site).
    public func distance(beacon: Int, gateway: Int, at time: Timestamp) -> Double? {
        scenario.position(of: scenario.beacons[beacon], at: time)?.distance(to: scenario.gateways[gateway].position)
    }

    /// Every visit, ordered by beacon, gateway, then start.
    public func visits() -> [Visit] {
        var visits: [Visit] = []
        var detector = VisitDetector(definition: definition, sampleInterval: sampleInterval)
        var current = (-1, -1)
        forEachSample { b, g, time, distance in
            if current != (b, g) {
                if let v = detector.finish() {
                    visits.append(Visit(beaconIndex: current.0, gatewayIndex: current.1, start: v.start, end: v.end))
                }
                current = (b, g)
            }
            if let v = detector.add(time: time, distance: distance) {
                visits.append(Visit(beaconIndex: b, gatewayIndex: g, start: v.start, end: v.end))
            }
        }
        if let v = detector.finish() {
            visits.append(Visit(beaconIndex: current.0, gatewayIndex: current.1, start: v.start, end: v.end))
        }
        return visits
    }
}
