import BeaconAlertEngine
import BeaconCore
import BeaconDevices
import BeaconRanging
import BeaconStrategyKit

/// The stages after the front end: each alert's strategy runs on the beacons it matches, once per
/// cycle; firings, region exits and departures go to the alert engine; each input's changes are
/// committed to the store in one transaction, then its events are emitted.
///
/// It never reads the front end: what it needs of it (a cycle's update, the front end's clock at
/// an input's end) comes as arguments, so it runs inside the front end's callbacks.
final class DecisionStage {
    struct ConfiguredAlert {
        let definition: PipelineAlert
        let strategy: any BeaconAlertStrategy
    }

    var engine: AlertEngine
    var alerts: [ConfiguredAlert]
    /// Where each input's changes are committed, in one transaction.
    let store: any AlertStateStore
    let maxPending: Int
    /// Where strategies come from (to make them anew after a failed write).
    var registry: StrategyRegistry
    /// Strategy state changes to write with the next input's transaction (from a replacement of
    /// the alert definitions or a restore).
    var pendingStrategyChanges: [AlertStateChange] = []
    /// What could not be restored or will not be saved, for the daemon to log.
    var durabilityWarnings: [String] = []
    /// The end of the latest cycle the strategies have seen (saved with their state, and
    /// restored after a restart so the cycles since are run before the first new one).
    var decidedThrough: Timestamp?
    private var idleUpdate = RangingUpdate(cycleStart: .epoch, time: .epoch)
    /// The front end's cycle length (kept here: the front end is busy while it calls back).
    let cycleLength: Duration
    private var triggers: [AlertTrigger] = []
    /// What the engine did during the current input, committed when it ends.
    var output = AlertEngineOutput()
    /// Cycles evaluated and events emitted (the front end keeps its own counters).
    private var cycles = 0
    private var eventsByAlert: [String: Int] = [:]
    /// The engine's instances waiting for an answer, by priority, as counted last; recounted once
    /// an event may have changed them (``unansweredMayHaveChanged``).
    private var unanswered = UnansweredAlerts()
    /// Set by a delivery, an answer, a cancellation or a change of the alert set.
    var unansweredMayHaveChanged = true
    /// Called with each cycle's update before strategies see it.
    var cycleObserver: ((RangingUpdate) -> Void)?
    /// Notices posted during the input (``AlertPipeline/post(_:)``), written with its alert state
    /// and events; kept for the next input when that write fails.
    var notices: [OutboundNotice] = []
    /// Called with the notices once written.
    var noticesCommitted: (([OutboundNotice]) -> Void)?
    /// How long an idle alert history is kept, and when it is next looked at (`nil`: for good).
    var historySweep: RetentionSweep?
    /// How many histories retention removed.
    var historiesForgotten = 0
    /// Where each configured person is, updated every cycle (`nil`: no `people:`).
    var people: PeoplePlaces?
    /// Called at the end of every input with the front end's cycle clock.
    var cycleClockObserver: ((Timestamp) -> Void)?
    /// Follows alerts and beacons for explanations (nil: nothing is traced).
    var tracer: DecisionTracer?
    /// Whether beacons' presence changes are kept for `takePresenceChanges()`.
    var recordsPresence = false
    private var presence = PresenceRecorder()
    /// The named beacons: each event is labelled with its beacon's name and tags before it is
    /// committed (so the outbox's copy has them too).
    var beacons: BeaconDirectory = .empty
    /// What the alerts' conditions look at (kept only when some alert has one).
    var world = PipelineWorld()
    /// The `firstStart: quiet` alerts starting for the first time (internal: replacing the
    /// alert set adds to it).
    var firstStarts = FirstStartWatch()

    /// Builds the strategies and the engine for `front`'s cycles, refusing a strategy that names
    /// a region `front` does not have; restores the state `store` keeps.
    init(
        alerts definitions: [PipelineAlert], front: PipelineFront, maxPending: Int, registry: StrategyRegistry,
        store: any AlertStateStore
    ) throws(PipelineError) {
        alerts = try Self.configure(definitions, registry: registry, reusing: [])
        self.store = store
        self.registry = registry
        self.maxPending = maxPending
        cycleLength = front.cycleLength
        let regionIDs = front.regionIDs
        for alert in alerts {
            guard let region = alert.strategy.regionsObserved.first(where: { !regionIDs.contains($0) }) else { continue }
            let place = alert.definition.origin.map { "\($0): " } ?? ""
            throw .strategy(alertID: alert.definition.id, message: place + front.unknownRegionMessage(region))
        }
        do {
            let engineConfiguration = try AlertEngineConfiguration(rules: definitions.map(\.rule), maxPending: maxPending)
            engine = try AlertEngine(configuration: engineConfiguration, loadingFrom: store)
        } catch {
            throw .engine("\(error)")
        }
        if store.keepsStrategyState { restoreStrategies() }
        firstStarts.watch(engine.configuration.quietAtFirstStart, unknownTo: engine.state)
    }

    /// Adds the cycles evaluated and the events emitted to `statistics`.
    func contribute(to statistics: inout PipelineStatistics) {
        statistics.cycles = cycles
        statistics.eventsByAlert = eventsByAlert
        if unansweredMayHaveChanged {
            unanswered = UnansweredAlerts(engine)
            unansweredMayHaveChanged = false
        }
        statistics.unanswered = unanswered
        if let people {
            statistics.peoplePresent = people.places.filter(\.present).count
            statistics.peopleByRoom = people.occupancy.mapValues(\.count)
        }
    }

    // MARK: Inputs

    /// One cycle's update from the front end (lent for the call): the cycles skipped before it
    /// run first, then the observer, strategies and engine see it.
    func decide(_ update: RangingUpdate) throws {
        try runIdleCycles(through: update.time - cycleLength)
        cycles += 1
        people?.update(update)
        cycleObserver?(update)
        try evaluate(update)
    }

    /// Ends an input once the front end has called back: runs the cycles it skipped up to
    /// `cycleClock` (its clock, read after its callbacks), delivers what the engine has due up to
    /// `engineTime`, commits and emits.
    func endInput(cycleClock: Timestamp?, engineTime: Timestamp? = nil, emit: (RoutedEvent) throws -> Void) throws {
        if let reached = cycleClock {
            if decidedThrough == nil { decidedThrough = reached } else { try runIdleCycles(through: reached) }
            cycleClockObserver?(reached)
            // An idle gateway closes no cycles: its histories still age.
            if historySweep != nil { sweepHistories(now: reached) }
        }
        if let engineTime { try catchUpEngine(to: engineTime) }
        try finishInput(emit)
    }

    /// Hands the engine a fact from outside the radio at `now` (see `AlertPipeline.post(_:now:emit:)`).
    func post(_ fact: EngineFact, now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        if engine.configuration.hasConditions, case .external(let name, let beacon) = fact {
            world.post(name, beacon: beacon, at: now)
        }
        try catchUpEngine(to: now)
        engine.handle(fact, now: now, into: &output)
        try finishInput(emit)
    }

    /// Hands the engine an answer at `now` (see `AlertPipeline.answer(_:now:emit:)`); what fell
    /// due before it is committed and emitted even when the answer is refused.
    func answer(
        _ request: AlertAnswerRequest, now: Timestamp, emit: (RoutedEvent) throws -> Void
    ) throws -> AlertAnswerOutcome {
        try catchUpEngine(to: now)
        let result = Result { () throws(AlertAnswerError) in try engine.handle(request, now: now) }
        if case .success(let (taken, _)) = result { output.append(taken) }
        try finishInput(emit)
        return try result.get().1
    }

    /// The presence changes since the last call (when `recordsPresence` is on).
    func takePresenceChanges() -> [BeaconPresence] { presence.take() }

    // MARK: Stages

    /// Delivers what falls due up to `time`, each at its own due time, in order: between two
    /// cycles (or after the last beacon left) the engine's deadlines still happen at the times
    /// they were scheduled for, not at the time of the next input.
    private func catchUpEngine(to time: Timestamp) throws {
        while let deadline = engine.nextDeadline, deadline <= time {
            let before = output.events.count
            advanceEngine(to: deadline)
            // A deadline that produced nothing and did not move would repeat forever.
            if output.events.count == before, engine.nextDeadline == deadline { break }
        }
        advanceEngine(to: time)
    }

    /// The engine's `advance`, with the world when some alert has conditions (an empty world
    /// otherwise: it costs nothing to pass).
    private func advanceEngine(to time: Timestamp) {
        if engine.configuration.hasConditions {
            engine.advance(to: time, world: world, into: &output)
        } else {
            engine.advance(to: time, into: &output)
        }
    }

    /// Runs the cycles the front end skipped (it tracked nothing) up to `reached`, as empty
    /// cycles — while any strategy remembers a beacon; once none does, they could change nothing
    /// and are skipped. Nothing runs before the first cycle decided.
    private func runIdleCycles(through reached: Timestamp) throws {
        guard var last = decidedThrough else { return }
        let cycle = cycleLength
        while last + cycle <= reached {
            if alerts.allSatisfy({ $0.strategy.isIdle }) {
                decidedThrough = reached
                return
            }
            last = last + cycle
            idleUpdate.cycleStart = last - cycle
            idleUpdate.time = last
            try evaluate(idleUpdate)
        }
    }

    private func evaluate(_ update: RangingUpdate) throws {
        decidedThrough = update.time
        if recordsPresence { presence.record(update) }
        let hasConditions = engine.configuration.hasConditions
        if hasConditions || engine.configuration.contentNeedsBeacons { world.take(update) }
        let now = update.time
        try catchUpEngine(to: now)
        if historySweep != nil { sweepHistories(now: now) }
        for event in update.regionEvents {
            if let fact = EngineFact(event) { engine.handle(fact, now: now, into: &output) }
        }
        for id in update.evicted {
            engine.handle(.beaconExit(id), now: now, into: &output)
        }
        if !firstStarts.isEmpty { firstStarts.observe(update, alerts: alerts, engine: &engine, into: &output) }
        // What the strategies fire and the engine delivers at once rests on this cycle's adverts.
        let firstEvent = output.events.count
        for alert in alerts {
            triggers.removeAll(keepingCapacity: true)
            let match = alert.definition.match
            for event in update.regionEvents where match.matches(event.beacon) { alert.strategy.observe(event) }
            alert.strategy.evaluate(update, matching: { match.matches($0) }, into: &triggers)
            let traced = tracer.flatMap { $0.follows(alertID: alert.definition.id) ? $0 : nil }
            traced?.observe(update, alert: alert.definition, strategy: alert.strategy)
            for trigger in triggers {
                let firing = StrategyFiring(
                    alertID: alert.definition.id, beacon: trigger.beacon,
                    strategy: trigger.strategy, time: trigger.time)
                if let traced, traced.follows(firing) { traced.noteFiring(firing, obstacle: engine.obstacle(to: firing)) }
                if hasConditions {
                    try engine.fire(firing, now: now, world: world, into: &output)
                } else {
                    try engine.fire(firing, now: now, into: &output)
                }
            }
        }
        advanceEngine(to: now) // what the firings made due at once
        LatencyOrigin.stamp(&output.events, from: firstEvent, beacons: update.beacons, cycleLength: cycleLength)
    }

    /// Ends an input: writes its changes (engine, events, strategy state) in one transaction,
    /// then hands its events to `emit`.
    private func finishInput(_ emit: (RoutedEvent) throws -> Void) throws {
        output.changes += collectStrategyChanges()
        LatencyOrigin.stampReleaseTimes(&output.events)
        tracer?.observe(output.events)
        if !beacons.isEmpty {
            for index in output.events.indices { output.events[index].event = beacons.labelled(output.events[index].event) }
        }
        if engine.configuration.hasContentVariations { renderContent() }
        if !output.isEmpty || !notices.isEmpty {
            do {
                try store.apply(output.changes, emitting: output.events, notices: notices)
            } catch {
                // Nothing of this input is stored: go back to what is (its notices wait for the next).
                output.changes.removeAll(keepingCapacity: true)
                output.events.removeAll(keepingCapacity: true)
                reloadAfterFailedCommit()
                throw PipelineError.engine("the state store refused the changes: \(error)")
            }
        }
        if !notices.isEmpty {
            noticesCommitted?(notices)
            notices.removeAll(keepingCapacity: true)
        }
        output.changes.removeAll(keepingCapacity: true)
        guard !output.events.isEmpty else { return }
        for routed in output.events {
            eventsByAlert["\(routed.event.alertID)/\(routed.event.kind.rawValue)", default: 0] += 1
            if routed.event.kind != .created && routed.event.kind != .error { unansweredMayHaveChanged = true }
            try emit(routed)
        }
        output.events.removeAll(keepingCapacity: true)
    }
}
