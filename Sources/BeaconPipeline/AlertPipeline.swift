import BeaconAlertEngine
import BeaconCore
import BeaconDevices
import BeaconRanging
import BeaconSite
import BeaconStrategyKit
import BeaconWire

/// The stages after a source, in order: a front end turns the input into one update per cycle —
/// packets decoded (BeaconWire) and ranged (BeaconRanging) on a gateway, gateways' reports fused
/// (BeaconSite) on a site hub — then each alert's strategy runs on the beacons it matches, and
/// firings, region exits and departures go to the alert engine, whose events are emitted.
///
/// Time comes only from the input — every packet's, beacon or not, or the reports' — and from
/// ``advance(to:emit:)`` for a live source that needs cycles to end while nothing is heard, so a
/// replay or a simulation runs at any speed and gives the same events. Strategies see every
/// cycle, including those in which the front end tracks nothing (it emits no update for them):
/// the pipeline runs such cycles as empty ones while a strategy still remembers a beacon, so that
/// resets and departures happen on time even for a beacon that was the only one heard.
///
/// Each input (a batch, a tick, a posted event) is one transaction of the store: the engine's
/// changes, the events for the sinks and — when the store keeps them — the strategies'
/// per-beacon state (`BeaconAlertStrategy/collectStateChanges(into:)`), so that a restart
/// neither repeats nor loses an alert. A pipeline built on such a store restores the state.
///
/// A pipeline belongs to one task; it is not `Sendable`.
public final class AlertPipeline {
    /// Packet ranging (a gateway) or site fusion (a hub), fixed at construction.
    let front: PipelineFront
    /// Strategies, engine and the store's commits.
    let decisions: DecisionStage
    /// The latest time the pipeline has reached: a packet's timestamp, a report's, or an
    /// ``advance(to:emit:)``.
    public private(set) var latestTime: Timestamp?
    /// Candidate alert sets running beside this one (see ``AlertShadow``).
    var shadows: [AlertShadow] = []
    /// How many threads the shadows run on per cycle (1: on the pipeline's task). More pays
    /// when the shadows are many and the machine has cores to spare (`beacond tune`); strategies
    /// must then keep no state shared between their instances, as the stock ones do.
    public var shadowThreads = 1

    /// Builds the decision stage behind `front`.
    /// - Throws: ``PipelineError`` naming the alert whose strategy or policy is invalid.
    package init(
        alerts definitions: [PipelineAlert], front: PipelineFront,
        maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
        registry: StrategyRegistry, store: any AlertStateStore = InMemoryAlertStateStore()
    ) throws(PipelineError) {
        self.front = front
        decisions = try DecisionStage(
            alerts: definitions, front: front, maxPending: maxPending, registry: registry, store: store)
    }

    /// Builds one gateway's pipeline: packets in, ranged beacons to the strategies.
    /// - Parameters:
    ///   - definitions: the alerts to run, in order (each alert's strategy sees each cycle in this order).
    ///   - rangingConfiguration: the ranging loop's configuration (cycle, filter, calibration, regions).
    ///   - layouts: vendors' frames tried after the built-in ones.
    ///   - devices: enrolled phones and watches, whose private addresses are resolved.
    ///   - maxPending: the engine's bound on pending alerts.
    ///   - registry: where the alerts' strategies come from.
    ///   - store: where the engine (and, if it keeps them, the strategies) keep their state; a
    ///     pipeline built on a store that keeps strategy state restores it.
    /// - Throws: ``PipelineError`` naming the alert whose strategy or policy is invalid.
    public convenience init(
        alerts definitions: [PipelineAlert], ranging rangingConfiguration: RangingConfiguration = RangingConfiguration(),
        layouts: [BeaconLayout] = [], devices: [EnrolledDevice] = [],
        maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
        registry: StrategyRegistry, store: any AlertStateStore = InMemoryAlertStateStore()
    ) throws(PipelineError) {
        let packets = try PacketRanging(configuration: rangingConfiguration, layouts: layouts, devices: devices)
        try self.init(
            alerts: definitions, front: .packets(packets), maxPending: maxPending, registry: registry, store: store)
    }

    /// The alerts in force.
    public var alertsInForce: [PipelineAlert] { decisions.alerts.map(\.definition) }

    /// Replaces the alert definitions without a restart (remote-administered configuration).
    ///
    /// Everything is validated first — every strategy and the engine's rules — and nothing
    /// changes if anything is invalid. An alert whose id, match, strategy and parameters are
    /// unchanged keeps its strategy instance, so its beacons' dwell times and action status go
    /// on; the engine keeps its state (pending alerts, delivered keys, cooldowns) through the
    /// store, and pending alerts of removed definitions are dealt with by the engine as orphans.
    public func replaceAlerts(_ definitions: [PipelineAlert], registry: StrategyRegistry) throws(PipelineError) {
        try decisions.replaceAlerts(definitions, registry: registry)
    }

    /// Decodes a batch and runs every ranging cycle it completes through strategies and engine.
    /// - Throws: ``PipelineError/input(_:)`` on a site hub's pipeline, which takes reports.
    public func ingest(_ batch: borrowing PacketBatch, emit: (RoutedEvent) throws -> Void) throws {
        let packets = try packetRanging()
        let newest = try packets.ingest(batch) { try decideEverywhere($0) }
        if let newest { reach(newest) }
        try endInputEverywhere(cycleClock: packets.cycleClock, emit: emit)
    }

    /// Feeds one sighting (for sources that decode themselves, and for tests).
    /// - Throws: ``PipelineError/input(_:)`` on a site hub's pipeline, which takes reports.
    public func ingest(_ sighting: BeaconSighting, emit: (RoutedEvent) throws -> Void) throws {
        let packets = try packetRanging()
        reach(sighting.timestamp)
        try packets.ingest(sighting) { try decideEverywhere($0) }
        try endInputEverywhere(cycleClock: packets.cycleClock, emit: emit)
    }

    /// Ends every cycle up to `now` (a live source's tick, or the end of a replay) and delivers
    /// what the engine has due.
    public func advance(to now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        reach(now)
        // Decide inside the callback: holding on to an update would keep the front end's reused
        // buffers referenced and force a copy every cycle.
        try front.advance(to: now) { try decideEverywhere($0) }
        try endInputEverywhere(cycleClock: front.cycleClock, engineTime: now, emit: emit)
    }

    /// Hands the engine a fact from outside the radio — a named event posted to the daemon
    /// (`.external(name:beacon:)`) — at `now`: what falls due before it is delivered first, then
    /// the pending alerts whose `cancelOn` names it are cancelled.
    public func post(_ fact: EngineFact, now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        defer { for shadow in shadows { shadow.post(fact, now: now) } }
        try decisions.post(fact, now: now) { routed in
            noteLive(routed)
            try emit(routed)
        }
    }

    /// Hands the engine an answer to a delivered alert (or a suppression to lift) at `now`: what
    /// falls due before it is delivered first; the answer's event follows.
    /// - Throws: the `AlertAnswerError` that says why it was not taken (what
    ///   fell due is still delivered), or a store failure.
    public func answer(
        _ request: AlertAnswerRequest, now: Timestamp, emit: (RoutedEvent) throws -> Void
    ) throws -> AlertAnswerOutcome {
        try decisions.answer(request, now: now) { routed in
            noteLive(routed)
            try emit(routed)
        }
    }

    /// The earliest time at which the engine has something due, if any.
    public var nextEngineDeadline: Timestamp? { decisions.engine.nextDeadline }

    /// Beacons currently tracked by the ranging loop (a gateway) or the fusion (a site hub).
    public var trackedBeacons: Int { front.trackedCount }

    /// What has been processed so far.
    public var statistics: PipelineStatistics {
        var statistics = PipelineStatistics()
        front.contribute(to: &statistics)
        decisions.contribute(to: &statistics)
        return statistics
    }

    /// What could not be restored or will not be saved, for the daemon to log.
    public var durabilityWarnings: [String] { decisions.durabilityWarnings }

    /// The end of the latest cycle the strategies have seen (saved with their state, and
    /// restored after a restart so the cycles since are run before the first new one); a
    /// source with a time of its own resumes there.
    public var decidedThrough: Timestamp? { decisions.decidedThrough }

    /// Called with each cycle's update (ranged or fused beacons) before strategies see it: a
    /// gateway publishes its records to a site from here, `replay --presence` writes its lines.
    /// The update is lent for the call; it runs on the pipeline's task.
    public var cycleObserver: ((RangingUpdate) -> Void)? {
        get { decisions.cycleObserver }
        set { decisions.cycleObserver = newValue }
    }

    /// Posts notices of the daemon's own (a gateway offline or back) to be written with this
    /// input's alert state and events, in the same transaction (`AlertStateStore.apply(_:emitting:notices:)`):
    /// call it from ``cycleObserver`` (or a site's cycle observer). ``noticesCommitted`` hears of
    /// them once written; a write that fails keeps them for the next input.
    public func post(_ notices: [OutboundNotice]) {
        decisions.notices += notices
    }

    /// Called on the pipeline's task with the notices ``post(_:)`` queued, once they are written.
    public var noticesCommitted: (([OutboundNotice]) -> Void)? {
        get { decisions.noticesCommitted }
        set { decisions.noticesCommitted = newValue }
    }

    /// The length of a cycle: the ranging loop's, or a site hub's.
    public var cycleLength: Duration { decisions.cycleLength }

    /// Follows alerts and beacons through the decisions, for explanations (see
    /// ``DecisionTracer``); `nil` (the default) traces nothing and costs nothing. Set it before
    /// the run.
    public var decisionTracer: DecisionTracer? {
        get { decisions.tracer }
        set { decisions.tracer = newValue }
    }

    /// Called at the end of every input with the start of the cycle the front end is in — the end
    /// of the latest cycle it closed, or skipped because it tracked nothing (an idle gateway
    /// closes no cycles): a gateway of a site sends its heartbeat from here. It runs on the
    /// pipeline's task, after the input's cycles went to ``cycleObserver``.
    public var cycleClockObserver: ((Timestamp) -> Void)? {
        get { decisions.cycleClockObserver }
        set { decisions.cycleClockObserver = newValue }
    }

    /// The people (`people:`): where each is, from everything they carry, is in
    /// ``inspect()`` (`people`) after every cycle (BeaconDevices' `PeoplePlaces`).
    public var people: [Person] {
        get { decisions.people?.people ?? [] }
        set { decisions.people = newValue.isEmpty ? nil : PeoplePlaces(people: newValue) }
    }

    /// Where each person is after the latest cycle (empty without `people:`); readable from
    /// ``cycleObserver``, which runs after they were placed.
    public var peoplePlaces: [PeoplePlaces.Place] { decisions.people?.places ?? [] }

    /// The named beacons: every event carries its beacon's name and tags (`BeaconDirectory`).
    public var beacons: BeaconDirectory {
        get { decisions.beacons }
        set { decisions.beacons = newValue }
    }

    /// How long an alert history is kept once nothing rests on it (`retention.history`): the
    /// engine's `forgetHistories(idleSince:now:into:)` runs on cycle time (BeaconCore's
    /// `RetentionSweep`); `nil` (the default) keeps them for good.
    public var historyRetention: Duration? {
        get { decisions.historySweep?.limit }
        set { decisions.historySweep = newValue.map(RetentionSweep.init(limit:)) }
    }

    /// How many alert histories retention has removed since the start.
    public var historiesForgotten: Int { decisions.historiesForgotten }

    /// Whether beacons' presence changes are kept for ``takePresenceChanges()`` (off: no cost).
    public var recordsPresence: Bool {
        get { decisions.recordsPresence }
        set { decisions.recordsPresence = newValue }
    }

    /// The presence changes since the last call (when ``recordsPresence`` is on): beacons that
    /// appeared or changed proximity band, and beacons the front end stopped tracking.
    public func takePresenceChanges() -> [BeaconPresence] { decisions.takePresenceChanges() }

    /// Moves ``latestTime`` on to `time` (never back).
    func reach(_ time: Timestamp) {
        if latestTime.map({ time > $0 }) ?? true { latestTime = time }
    }

    private func packetRanging() throws(PipelineError) -> PacketRanging {
        guard case .packets(let packets) = front else {
            throw .input("packets reach only a gateway's pipeline; this one is a site hub's, fed with gateways' reports")
        }
        return packets
    }
}
