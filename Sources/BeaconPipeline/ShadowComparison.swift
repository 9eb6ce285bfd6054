import BeaconAlertEngine
import BeaconCore

/// What a shadow on a running daemon has to compare since it was attached: the live set's first
/// deliveries and the candidate's, for `AlertSetDifference` (`GET /api/shadow`).
///
/// Bounded: each list keeps its latest ``capacity`` deliveries; ``droppedLive`` and
/// ``droppedShadow`` count what fell out, and a difference then covers only what is kept.
public struct ShadowComparison: Sendable {
    /// The candidate's name (`candidate.yaml`, `POST /shadow`).
    public var name: String
    /// The candidate's alert ids.
    public var alertIDs: [String]
    /// The pipeline's time when the shadow was attached (nil before the first input).
    public var since: Timestamp?
    /// The live set's first deliveries since, oldest first.
    public private(set) var live: [AlertEvent] = []
    /// The candidate's first deliveries since, oldest first.
    public private(set) var shadow: [AlertEvent] = []
    /// Deliveries that fell out of ``live``.
    public private(set) var droppedLive = 0
    /// Deliveries that fell out of ``shadow``.
    public private(set) var droppedShadow = 0
    /// Why the shadow stopped, if it did.
    public var failure: String?
    /// How many deliveries each list keeps.
    public let capacity: Int

    /// An empty comparison.
    public init(name: String, alertIDs: [String], since: Timestamp?, capacity: Int = 10_000) {
        self.name = name
        self.alertIDs = alertIDs
        self.since = since
        self.capacity = max(1, capacity)
    }

    /// Notes a live event (only first deliveries are kept).
    mutating func noteLive(_ event: AlertEvent) {
        guard event.kind == .delivered, event.attempt == 0 else { return }
        Self.append(event, to: &live, dropped: &droppedLive, capacity: capacity)
    }

    /// Notes a shadow event (only first deliveries are kept).
    mutating func noteShadow(_ event: AlertEvent) {
        guard event.kind == .delivered, event.attempt == 0 else { return }
        Self.append(event, to: &shadow, dropped: &droppedShadow, capacity: capacity)
    }

    /// The difference between the candidate and the live set so far: deliveries added,
    /// dropped, earlier, later, paired within `within`.
    public func difference(within: Duration = .seconds(300)) -> AlertSetDifference {
        AlertSetDifference(old: live, new: shadow, within: within)
    }

    private static func append(_ event: AlertEvent, to list: inout [AlertEvent], dropped: inout Int, capacity: Int) {
        if list.count >= capacity {
            // Drop the oldest tenth at once: amortised O(1) per delivery.
            let cut = max(1, capacity / 10)
            list.removeFirst(cut)
            dropped += cut
        }
        list.append(event)
    }
}
