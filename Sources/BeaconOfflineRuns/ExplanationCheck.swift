import BeaconAlertEngine
import BeaconCore
import BeaconPipeline

/// Holds explanations to what the engine did: for random (alert, beacon, time) triples, the
/// verdict of a `DecisionTimeline` up to that time — delivered or not, and when — must equal
/// the first deliveries a run without any tracer made up to then. Two runs of the same input:
/// one plain, one traced (`DecisionTracer(.every(alertIDs: nil))`).
public struct ExplanationCheck: Sendable {
    /// What a check found.
    public struct Result: Sendable {
        /// Triples checked.
        public var triples = 0
        /// Triples whose verdict agreed.
        public var agreeing = 0
        /// Triples at which the alert had been delivered (the rest: not yet, or never).
        public var delivered = 0
        /// The first disagreements, in words.
        public var disagreements: [String] = []

        /// The share that agreed, 0–1.
        public var agreement: Double { triples == 0 ? 1 : Double(agreeing) / Double(triples) }
    }

    /// The first deliveries (not reminders) of each alert and beacon among `events`, in order.
    public let deliveries: [AlertKey: [Timestamp]]

    /// The deliveries of a plain run's `events`.
    public init(events: some Sequence<AlertEvent>) {
        var deliveries: [AlertKey: [Timestamp]] = [:]
        for event in events where event.kind == .delivered && event.attempt == 0 {
            deliveries[AlertKey(alertID: event.alertID, beacon: event.beacon), default: []].append(event.time)
        }
        self.deliveries = deliveries
    }

    /// Checks `count` triples drawn (with `seed`) from `keys` and times in `from...to`.
    public func check(
        _ timelines: [AlertKey: DecisionTimeline], keys: [AlertKey], from: Timestamp, to: Timestamp, count: Int,
        seed: UInt64
    ) -> Result {
        var result = Result()
        guard !keys.isEmpty, to > from else { return result }
        var random = SplitMix64(seed: seed)
        let span = (to - from).nanoseconds
        for _ in 0..<count {
            let key = keys[Int.random(in: keys.indices, using: &random)]
            let time = from + .nanoseconds(Int64.random(in: 0...span, using: &random))
            let expected = (deliveries[key] ?? []).filter { $0 <= time }
            let verdict =
                timelines[key]?.verdict(through: time) ?? DecisionVerdict(deliveries: [], obstacle: "never followed")
            result.triples += 1
            if !expected.isEmpty { result.delivered += 1 }
            if verdict.deliveries == expected {
                result.agreeing += 1
            } else if result.disagreements.count < 10 {
                result.disagreements.append(
                    "\(key.alertID) for \(key.beacon) at \(time.rfc3339String): the engine delivered at \(expected.map(\.rfc3339String)), the explanation says \(verdict.summary)"
                )
            }
        }
        return result
    }
}
