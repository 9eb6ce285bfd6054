import BeaconAlertEngine
import BeaconCore
import BeaconRanging
import BeaconSite
import BeaconStrategyKit
import BeaconWire

/// The stages after a source, in order: decode packets (BeaconWire) → range beacons once per
/// cycle (BeaconRanging) → run each alert's strategy on the beacons it matches → hand firings,
/// region exits and departures to the alert engine → emit the engine's events.
///
/// Time comes only from the packets — every packet's, beacon or not — and from
/// ``advance(to:emit:)`` for a live source that needs cycles to end while nothing is heard, so a
/// replay or a simulation runs at any speed and gives the same events. Strategies see every
/// cycle, including those in which the ranging loop tracks nothing (it emits no update for
/// them): the pipeline runs such cycles as empty ones while a strategy still remembers a beacon,
/// so that resets and departures happen on time even for a beacon that was the only one heard.
///
/// Each input (a batch, a tick, a posted event) is one transaction of the store: the engine's
/// changes, the events for the sinks and — when the store keeps them — the strategies'
/// per-beacon state (`BeaconAlertStrategy/collectStateChanges(into:)`), so that a restart
/// neither repeats nor loses an alert. A pipeline built on such a store restores the state.
///
/// A pipeline belongs to one task; it is not `Sendable`.
public final class AlertPipeline {
    struct ConfiguredAlert {
        let definition: PipelineAlert
        let strategy: any BeaconAlertStrategy
    }

    private var ranging: RangingLoop
    /// A site hub's fusion, which takes the ranging loop's place (`nil` for one gateway's pipeline).
    let site: SiteFusion?
    var engine: AlertEngine
    var alerts: [ConfiguredAlert]
    /// Where each input's changes are committed, in one transaction.
    let store: any AlertStateStore
    let maxPending: Int
    /// Vendors' frames tried after the built-in ones.
    let layouts: [BeaconLayout]
    /// Where strategies come from (to make them anew after a failed write).
    var registry: StrategyRegistry
    /// Strategy state changes to write with the next input's transaction (from a replacement of
    /// the alert definitions or a restore).
    var pendingStrategyChanges: [AlertStateChange] = []
    /// What could not be restored or will not be saved, for the daemon to log.
    public internal(set) var durabilityWarnings: [String] = []
    /// The end of the latest cycle the strategies have seen (saved with their state, and
    /// restored after a restart so the cycles since are run before the first new one); a
    /// source with a time of its own resumes there.
    public internal(set) var decidedThrough: Timestamp?
    private var idleUpdate = RangingUpdate(cycleStart: .epoch, time: .epoch)
    /// The ranging cycle's length (kept here: the ranging loop is busy while it calls back).
    let cycleLength: Duration
    private let decoder = CaptureDecoder()
    private var triggers: [AlertTrigger] = []
    /// A batch's sightings, handed to the ranging loop together (it overlaps their cache misses).
    private var batchSightings: [BeaconSighting] = []
    /// What the engine did during the current input, committed when it ends.
    private var output = AlertEngineOutput()
    private var captureSummary = CaptureSummary()
    /// What has been processed so far.
    public var statistics: PipelineStatistics {
        var statistics = counters
        statistics.refusedBeacons = ranging.refusedBeacons
        statistics.cappedEvictions = ranging.cappedEvictions
        statistics.rangingReservedBytes = ranging.reservedHeapBytes
        if let site { statistics.site = site.statistics }
        return statistics
    }
    /// The counters the stages update (the ranging loop keeps its own, read by ``statistics``).
    private var counters = PipelineStatistics()
    /// Called with each cycle's update (ranged or fused beacons) before strategies see it: a
    /// gateway publishes its records to a site from here, `replay --presence` writes its lines.
    /// The update is lent for the call; it runs on the pipeline's task.
    public var cycleObserver: ((RangingUpdate) -> Void)?
    /// Whether beacons' presence changes are kept for ``takePresenceChanges()`` (off: no cost).
    public var recordsPresence = false
    private var presence: [BeaconID: Proximity] = [:]
    private var presenceChanges: [BeaconPresence] = []
    /// The latest time the pipeline has reached: a packet's timestamp or an ``advance(to:emit:)``.
    public internal(set) var latestTime: Timestamp?

    /// Builds the stages.
    /// - Parameters:
    ///   - definitions: the alerts to run, in order (each alert's strategy sees each cycle in this order).
    ///   - rangingConfiguration: the ranging loop's configuration (cycle, filter, calibration, regions).
    ///   - layouts: vendors' frames tried after the built-in ones.
    ///   - maxPending: the engine's bound on pending alerts.
    ///   - registry: where the alerts' strategies come from.
    ///   - store: where the engine (and, if it keeps them, the strategies) keep their state; a
    ///     pipeline built on a store that keeps strategy state restores it.
    ///   - site: a site hub's fusion: the pipeline then takes gateways' reports
    ///     (`ingest(reports:refused:emit:)`) instead of packets, and its rooms are the regions strategies
    ///     may name.
    /// - Throws: ``PipelineError`` naming the alert whose strategy or policy is invalid.
    public init(
        alerts definitions: [PipelineAlert], ranging rangingConfiguration: RangingConfiguration = RangingConfiguration(),
        layouts: [BeaconLayout] = [], maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
        registry: StrategyRegistry, store: any AlertStateStore = InMemoryAlertStateStore(), site: SiteFusion? = nil
    ) throws(PipelineError) {
        self.site = site
        alerts = try Self.configure(definitions, registry: registry, reusing: [])
        self.store = store
        self.layouts = layouts
        self.registry = registry
        self.maxPending = maxPending
        do {
            ranging = try RangingLoop(configuration: rangingConfiguration)
        } catch {
            throw .ranging(error.description)
        }
        cycleLength = site?.configuration.cycleLength ?? ranging.configuration.cycleLength
        let regionIDs = ranging.configuration.regions.map(\.id) + (site?.layout.rooms ?? [])
        for alert in alerts {
            guard let region = alert.strategy.regionsObserved.first(where: { !regionIDs.contains($0) }) else { continue }
            let known =
                regionIDs.isEmpty
                ? "none is configured"
                : "known: " + regionIDs.joined(separator: ", ") + (site == nil ? "" : " (rooms count as regions)")
            let place = alert.definition.origin.map { "\($0): " } ?? ""
            let what = site == nil ? "region '\(region)' is not under ranging.regions" : "no room or region '\(region)'"
            throw .strategy(alertID: alert.definition.id, message: place + "\(what) (\(known))")
        }
        do {
            let engineConfiguration = try AlertEngineConfiguration(rules: definitions.map(\.rule), maxPending: maxPending)
            engine = try AlertEngine(configuration: engineConfiguration, loadingFrom: store)
        } catch {
            throw .engine("\(error)")
        }
        if store.keepsStrategyState { restoreStrategies() }
    }

    /// The alerts in force.
    public var alertsInForce: [PipelineAlert] { alerts.map(\.definition) }

    /// Replaces the alert definitions without a restart (remote-administered configuration).
    ///
    /// Everything is validated first — every strategy and the engine's rules — and nothing
    /// changes if anything is invalid. An alert whose id, match, strategy and parameters are
    /// unchanged keeps its strategy instance, so its beacons' dwell times and action status go
    /// on; the engine keeps its state (pending alerts, delivered keys, cooldowns) through the
    /// store, and pending alerts of removed definitions are dealt with by the engine as orphans.
    public func replaceAlerts(_ definitions: [PipelineAlert], registry: StrategyRegistry) throws(PipelineError) {
        let configured = try Self.configure(definitions, registry: registry, reusing: alerts)
        let replacement: AlertEngine
        do {
            let rules = try AlertEngineConfiguration(rules: definitions.map(\.rule), maxPending: maxPending)
            // Between inputs everything is committed: the state carries over as it is stored.
            replacement = AlertEngine(configuration: rules, state: engine.state)
        } catch {
            throw .engine("\(error)")
        }
        if store.keepsStrategyState {
            // A strategy made anew starts afresh, and a removed alert keeps nothing: their saved
            // state is stale.
            for alert in alerts where !configured.contains(where: { $0.definition.id == alert.definition.id }) {
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
            }
            for alert in configured where !alerts.contains(where: { $0.strategy === alert.strategy }) {
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
            }
        }
        self.registry = registry
        alerts = configured
        engine = replacement
    }

    static func configure(
        _ definitions: [PipelineAlert], registry: StrategyRegistry,
        reusing current: [ConfiguredAlert]
    ) throws(PipelineError) -> [ConfiguredAlert] {
        var alerts: [ConfiguredAlert] = []
        for definition in definitions {
            if let same = current.first(where: { $0.definition.isSameStrategy(as: definition) }) {
                alerts.append(ConfiguredAlert(definition: definition, strategy: same.strategy))
                continue
            }
            do {
                let strategy = try registry.makeStrategy(key: definition.strategy, parameters: definition.parameters)
                alerts.append(ConfiguredAlert(definition: definition, strategy: strategy))
            } catch {
                let place = definition.origin.map { "\($0): " } ?? ""
                throw .strategy(alertID: definition.id, message: place + "\(error)")
            }
        }
        return alerts
    }

    /// Decodes a batch and runs every ranging cycle it completes through strategies and engine.
    public func ingest(_ batch: borrowing PacketBatch, emit: (RoutedEvent) throws -> Void) throws {
        counters.packets += batch.count
        var index = 0
        var newestPacket: Timestamp?
        batch.forEachPacket { record, bytes in
            if newestPacket.map({ record.timestamp > $0 }) ?? true { newestPacket = record.timestamp }
            let captureRecord = CaptureRecord(
                index: index, offset: Int(record.offset), timestamp: record.timestamp,
                linkType: record.linkType, direction: .received, bytes: bytes)
            index += 1
            decoder.decode(captureRecord, summary: &captureSummary) { item in
                switch item {
                case .advertisement(let advertisement):
                    counters.advertisements += 1
                    if let sighting = BeaconSighting(
                        report: advertisement.report, timestamp: advertisement.timestamp,
                        layouts: layouts)
                    {
                        counters.sightings += 1
                        batchSightings.append(sighting)
                    }
                case .error(let error):
                    counters.malformedByKind[error.kindName, default: 0] += 1
                }
            }
        }
        defer { batchSightings.removeAll(keepingCapacity: true) }
        if let last = newestPacket, latestTime.map({ last > $0 }) ?? true { latestTime = last }
        try batchSightings.withUnsafeBufferPointer { sightings in
            try ranging.ingest(contentsOf: sightings) { try decide($0) }
        }
        // Every packet is a clock: packets of other devices end cycles too.
        if let newestPacket { try ranging.advance(to: newestPacket) { try decide($0) } }
        try runIdleCycles()
        try finishInput(emit)
    }

    /// Feeds one sighting (for sources that decode themselves, and for tests).
    public func ingest(_ sighting: BeaconSighting, emit: (RoutedEvent) throws -> Void) throws {
        try ingest(sighting)
        try runIdleCycles()
        try finishInput(emit)
    }

    /// Ends every cycle up to `now` (a live source's tick, or the end of a replay) and delivers
    /// what the engine has due.
    public func advance(to now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        // Decide inside the callback: holding on to an update would keep the ranging loop's
        // reused buffers referenced and force a copy every cycle.
        if latestTime.map({ now > $0 }) ?? true { latestTime = now }
        try ranging.advance(to: now) { try decide($0) }
        try site?.advance(to: now) { try decide($0) }
        try runIdleCycles()
        try catchUpEngine(to: now)
        try finishInput(emit)
    }

    /// Hands the engine a fact from outside the radio — a named event posted to the daemon
    /// (`.external(name:beacon:)`) — at `now`: what falls due before it is delivered first, then
    /// the pending alerts whose `cancelOn` names it are cancelled.
    public func post(_ fact: EngineFact, now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        try catchUpEngine(to: now)
        output.append(engine.handle(fact, now: now))
        try finishInput(emit)
    }

    /// The earliest time at which the engine has something due, if any.
    public var nextEngineDeadline: Timestamp? { engine.nextDeadline }

    /// The ranging loop's latest update (for an inspection).
    var rangingUpdate: RangingUpdate { ranging.latestUpdate }

    /// Beacons currently tracked by the ranging loop.
    public var trackedBeacons: Int { site?.trackedCount ?? ranging.trackedCount }

    // MARK: Stages

    private func ingest(_ sighting: BeaconSighting) throws {
        if latestTime.map({ sighting.timestamp > $0 }) ?? true { latestTime = sighting.timestamp }
        try ranging.ingest(sighting) { try decide($0) }
    }

    /// Delivers what falls due up to `time`, each at its own due time, in order: between two
    /// ranging cycles (or after the last beacon left) the engine's deadlines still happen at the
    /// times they were scheduled for, not at the time of the next input.
    private func catchUpEngine(to time: Timestamp) throws {
        while let deadline = engine.nextDeadline, deadline <= time {
            let before = output.events.count
            output.append(engine.advance(to: deadline))
            // A deadline that produced nothing and did not move would repeat forever.
            if output.events.count == before, engine.nextDeadline == deadline { break }
        }
        output.append(engine.advance(to: time))
    }

    /// The presence changes since the last call (when ``recordsPresence`` is on): beacons that
    /// appeared or changed proximity band, and beacons the ranging loop stopped tracking.
    public func takePresenceChanges() -> [BeaconPresence] {
        defer { presenceChanges.removeAll(keepingCapacity: true) }
        return presenceChanges
    }

    private func recordPresence(_ update: RangingUpdate) {
        for beacon in update.beacons where presence[beacon.id] != beacon.proximity {
            presence[beacon.id] = beacon.proximity
            presenceChanges.append(BeaconPresence(beacon))
        }
        for id in update.evicted where presence.removeValue(forKey: id) != nil {
            presenceChanges.append(BeaconPresence(id: id, present: false, proximity: .unknown, lastSeen: update.time))
        }
    }

    func decide(_ update: RangingUpdate) throws {
        try runIdleCycles(through: update.time - cycleLength)
        counters.cycles += 1
        cycleObserver?(update)
        try evaluate(update)
    }

    /// Runs the cycles the ranging loop skipped (it tracked nothing) up to the start of its
    /// current cycle, or up to `limit`, as empty cycles — while any strategy remembers a beacon;
    /// once none does, they could change nothing and are skipped.
    func runIdleCycles(through limit: Timestamp? = nil) throws {
        guard let reached = limit ?? site?.currentCycleStart ?? ranging.currentCycleStart else { return }
        guard var last = decidedThrough else {
            if limit == nil { decidedThrough = reached }
            return
        }
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
        if recordsPresence { recordPresence(update) }
        let now = update.time
        try catchUpEngine(to: now)
        for event in update.regionEvents {
            output.append(engine.handle(event, now: now))
        }
        for id in update.evicted {
            output.append(engine.handle(.beaconExit(id), now: now))
        }
        for alert in alerts {
            triggers.removeAll(keepingCapacity: true)
            let match = alert.definition.match
            for event in update.regionEvents where match.matches(event.beacon) { alert.strategy.observe(event) }
            alert.strategy.evaluate(update, matching: { match.matches($0) }, into: &triggers)
            for trigger in triggers {
                let firing = StrategyFiring(
                    alertID: alert.definition.id, beacon: trigger.beacon,
                    strategy: trigger.strategy, time: trigger.time)
                output.append(try engine.fire(firing, now: now))
            }
        }
        output.append(engine.advance(to: now)) // what the firings made due at once
    }

    /// Ends an input: writes its changes (engine, events, strategy state) in one transaction,
    /// then hands its events to `emit`.
    func finishInput(_ emit: (RoutedEvent) throws -> Void) throws {
        output.changes += collectStrategyChanges()
        if !output.isEmpty {
            do {
                try store.apply(output.changes, emitting: output.events)
            } catch {
                // Nothing of this input is stored: go back to what is.
                output.changes.removeAll(keepingCapacity: true)
                output.events.removeAll(keepingCapacity: true)
                reloadAfterFailedCommit()
                throw PipelineError.engine("the state store refused the changes: \(error)")
            }
        }
        output.changes.removeAll(keepingCapacity: true)
        try flush(emit)
    }

    private func flush(_ emit: (RoutedEvent) throws -> Void) throws {
        guard !output.events.isEmpty else { return }
        for routed in output.events {
            counters.eventsByAlert["\(routed.event.alertID)/\(routed.event.kind.rawValue)", default: 0] += 1
            try emit(routed)
        }
        output.events.removeAll(keepingCapacity: true)
    }
}
