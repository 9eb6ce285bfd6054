import BeaconAlertEngine
import BeaconCore
import BeaconRanging
import BeaconStrategyKit

/// Follows alerts and beacons through a pipeline's decisions and writes their
/// ``DecisionTimeline``s: set it on ``AlertPipeline/decisionTracer`` before the run, read
/// ``timeline(alertID:beacon:)`` after (``finish()`` first).
///
/// **What it costs.** Nothing unless it is set: a pipeline without a tracer runs exactly as
/// before (one `nil` check per alert and cycle). Set, it asks the strategy for the followed
/// beacons' status after each cycle (`BeaconAlertStrategy.status(of:now:)`), compares it with
/// the previous cycle's and writes a line only when something changed — so a timeline holds
/// transitions, not cycles, and following one beacon through a day takes a few kilobytes.
/// Explanations are re-derived this way, by running the input again (`beacond explain`); a
/// live daemon keeps no trace.
///
/// Confined, like the pipeline, to the task that runs it.
public final class DecisionTracer {
    /// What it follows.
    public enum Scope: Hashable, Sendable {
        /// One alert for one beacon.
        case one(alertID: String, beacon: BeaconID)
        /// Every beacon each of these alerts sees (every alert when `nil`): for checks over many
        /// beacons at once.
        case every(alertIDs: Set<String>?)
    }

    /// The text of a ``DecisionTraceEntry/Kind/condition`` entry when the condition starts to hold.
    static let conditionHolds = "condition holds"
    /// The text of the ``DecisionTraceEntry/Kind/strategy`` entry when the strategy forgets the beacon.
    static let forgotten = "the strategy forgot the beacon (unseen beyond its retention)"

    /// What it follows.
    public let scope: Scope
    /// The end of the first cycle it saw (where offsets into the input count from).
    public private(set) var firstCycle: Timestamp?
    private var traces: [AlertKey: FollowedDecision] = [:]
    /// Per alert, the beacons whose state may still change (in `every` scope: those in ranging
    /// or remembered by the strategy; a beacon both forgot can change only by being heard again).
    private var active: [String: Set<BeaconID>] = [:]
    private var touched: Set<BeaconID> = []

    /// Follows `scope`.
    public init(_ scope: Scope) {
        self.scope = scope
    }

    /// The timeline of `alertID` for `beacon`, if it was followed.
    public func timeline(alertID: String, beacon: BeaconID) -> DecisionTimeline? {
        traces[AlertKey(alertID: alertID, beacon: beacon)]?.timeline
    }

    /// Every timeline written, by alert and beacon.
    public var timelines: [AlertKey: DecisionTimeline] { traces.mapValues(\.timeline) }

    /// Ends the run: records each stretch's progress still open.
    public func finish() {
        for trace in traces.values {
            trace.release()
            trace.closeProgress()
        }
    }

    // MARK: What the pipeline calls

    /// Whether any beacon of `alertID` is followed.
    func follows(alertID: String) -> Bool {
        switch scope {
        case .one(let followed, _): followed == alertID
        case .every(let alertIDs): alertIDs?.contains(alertID) ?? true
        }
    }

    /// After `strategy` evaluated `update` for `alert`: the followed beacons' evidence and status.
    func observe(_ update: RangingUpdate, alert: PipelineAlert, strategy: any BeaconAlertStrategy) {
        let now = update.time
        if firstCycle == nil { firstCycle = now }
        switch scope {
        case .one(_, let beacon):
            let ranged = update.beacons.first { $0.id == beacon }
            step(
                AlertKey(alertID: alert.id, beacon: beacon), matched: alert.match.matches(beacon),
                evidence: ranged.map(DecisionEvidence.init) ?? .absent, strategy: strategy, now: now)
        case .every:
            touched.removeAll(keepingCapacity: true)
            var active = self.active.removeValue(forKey: alert.id) ?? []
            for beacon in update.beacons where alert.match.matches(beacon.id) {
                active.insert(beacon.id)
                touched.insert(beacon.id)
                step(
                    AlertKey(alertID: alert.id, beacon: beacon.id), matched: true, evidence: DecisionEvidence(beacon),
                    strategy: strategy, now: now)
            }
            for beacon in active where !touched.contains(beacon) {
                let trace = step(
                    AlertKey(alertID: alert.id, beacon: beacon), matched: true, evidence: .absent, strategy: strategy,
                    now: now)
                if trace.status == nil { active.remove(beacon) }
            }
            self.active[alert.id] = active
        }
    }

    /// A strategy fired for a followed key; `obstacle` is what the engine's firing rules say of it.
    func noteFiring(_ firing: StrategyFiring, obstacle: FiringObstacle?) {
        traces[AlertKey(alertID: firing.alertID, beacon: firing.beacon)]?.fire(at: firing.time, obstacle: obstacle)
    }

    /// Whether the firing's key is followed.
    func follows(_ firing: StrategyFiring) -> Bool {
        traces[AlertKey(alertID: firing.alertID, beacon: firing.beacon)] != nil
    }

    /// The engine's events of an input (before they are emitted).
    func observe(_ events: [RoutedEvent]) {
        for routed in events {
            let key = AlertKey(alertID: routed.event.alertID, beacon: routed.event.beacon)
            traces[key]?.take(routed.event)
        }
    }

    @discardableResult
    private func step(
        _ key: AlertKey, matched: Bool, evidence: DecisionEvidence, strategy: any BeaconAlertStrategy, now: Timestamp
    ) -> FollowedDecision {
        let trace: FollowedDecision
        if let known = traces[key] {
            trace = known
        } else {
            trace = FollowedDecision(timeline: DecisionTimeline(alertID: key.alertID, beacon: key.beacon, matched: matched))
            traces[key] = trace
        }
        trace.step(evidence: evidence, status: matched ? strategy.status(of: key.beacon, now: now) : nil, now: now)
        return trace
    }
}
