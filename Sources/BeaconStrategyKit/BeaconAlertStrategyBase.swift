import BeaconCore

/// A strategy that does the bookkeeping, so that a subclass writes only ``key``,
/// ``updateAlertParameter(_:beacon:now:)`` and ``isConditionValid(_:now:)-(Value,_)``.
///
/// For each beacon the base keeps a ``BeaconAlertParameter`` (created on first sight with
/// `initialValue`) and, every cycle:
/// 1. notes the beacon as present when ``isPresent(_:)`` holds (default: seen this cycle);
/// 2. puts a beacon whose action is done back to ``ActionStatus/waitingForAction`` once it has
///    been unseen for ``StrategyBaseConfiguration/maxTimeBeforeReset``;
/// 3. calls ``updateAlertParameter(_:beacon:now:)`` — with `beacon == nil` for a tracked beacon
///    that was not in the update at all — and *then* ``isConditionValid(_:now:)-(Value,_)``, so
///    the condition always sees up-to-date state;
/// 4. optionally resets the action when the condition no longer holds
///    (``StrategyBaseConfiguration/resetWhenConditionInvalid``).
///
/// A subclass may skip step 3 for the cycles in which nothing but time passes: after a step it
/// returns a ``QuietPeriod`` from ``quietPeriod(after:now:)``, and the base catches the value up
/// (``catchUp(_:lastPresent:presentAtLastCycle:)``) when the period ends or the value is read.
///
/// ``isReadyForAction(_:now:)`` is "condition valid and waiting for action" (fixed: customise the
/// condition, not the readiness). Beacons unseen for longer than the retention are forgotten at
/// ``finishCycle(now:fired:)``, which bounds memory.
///
/// **Why generic.** The base is generic over the subclass's state `Value` (usually a small
/// struct): the subclass receives its own type, `inout`, with no downcast, and the states live
/// inline in one contiguous array, so steady-state evaluation allocates nothing. The bookkeeping
/// is kept in a separate, non-generic array so that the hot path needs no generic metadata
/// beyond `Value` itself (the base's code runs unspecialised for every subclass). `Value` need
/// not be `Sendable`: like every strategy, an instance is a mutable state machine confined to the
/// task that evaluates it (hence not `Sendable` itself); the `Sendable` part is the factory in
/// ``StrategyRegistry`` that makes one per engine.
///
/// Do not call back into the base (``parameter(for:)``, ``update(beacon:now:)`` …) from
/// ``updateAlertParameter(_:beacon:now:)`` or ``isConditionValid(_:now:)-(Value,_)``: the
/// state is being modified in place during those calls (a call that would step, add or remove a
/// beacon traps).
open class BeaconAlertStrategyBase<Value>: BeaconAlertStrategy {
    /// The per-beacon state: bookkeeping plus the subclass's `Value`.
    public typealias Parameter = BeaconAlertParameter<Value>

    /// The bookkeeping options.
    public let configuration: StrategyBaseConfiguration
    let initialValue: Value
    // Parallel arrays indexed by slot; `slots` maps a beacon to its slot. The bookkeeping is
    // internal to the module and never accessed re-entrantly (subclass hooks only see `values`), so its
    // dynamic exclusivity checks are switched off: they cost more than the work on this path.
    @exclusivity(unchecked) var slots: [BeaconID: Int] = [:]
    @exclusivity(unchecked) var ids: ContiguousArray<BeaconID> = []
    @exclusivity(unchecked) var books: ContiguousArray<Bookkeeping> = []
    // The subclass's values by slot (`ids.count` of them), in storage the class manages: as a
    // `ContiguousArray<Value>` every access from this unspecialised code looked up the array
    // type's generic metadata (see BeaconAlertStrategyBase+Values.swift).
    @exclusivity(unchecked) var values: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) var valueCapacity: Int
    /// True while a subclass hook runs: the storage must not then grow or shrink under the value
    /// it is modifying (the dynamic exclusivity checks of an array used to catch that).
    @exclusivity(unchecked) var inHooks = false
    /// Whether changes are being saved (set by the first ``collectStateChanges(into:)`` or
    /// ``restoreState(_:)``): only then are forgotten beacons remembered for the next collection.
    @exclusivity(unchecked) var savesChanges = false
    /// Beacons forgotten since the last collection (only while ``savesChanges``).
    var forgotten: [BeaconID] = []
    @exclusivity(unchecked) var cycle: UInt64 = 0
    // Slot hints: the ranging loop lists beacons in a stable order, so the beacon updated after
    // the one in slot s is usually the one that followed it last cycle: `hints[s]` remembers its
    // slot (`firstHint` the first beacon's) and saves the hash lookup. A beacon missing from one
    // cycle then costs one or two lookups, not one for every beacon listed after it. A hint is
    // only a guess, checked against `ids` before use.
    @exclusivity(unchecked) var hints: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var firstHint: Int32 = -1
    /// The slot updated last in this cycle (-1 before the first).
    @exclusivity(unchecked) var previousSlot = -1

    /// Creates a strategy whose beacons start with `initialValue`; `capacity` pre-sizes the
    /// per-beacon storage (beacons expected at once).
    public init(initialValue: Value, configuration: StrategyBaseConfiguration = .init(), capacity: Int = 0) {
        self.initialValue = initialValue
        self.configuration = configuration
        valueCapacity = max(capacity, 1)
        values = .allocate(capacity: valueCapacity)
        slots.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
        books.reserveCapacity(capacity)
    }

    deinit {
        values.deinitialize(count: ids.count)
        values.deallocate()
    }

    // MARK: What a subclass writes

    /// The name configuration uses for this strategy. Subclasses must override it.
    open var key: String { preconditionFailure("\(type(of: self)) must override `key`") }

    /// Brings a beacon's state up to date for the cycle ending at `now`. `beacon` is the ranging
    /// state (seen this cycle or in its missed-scan grace), or nil when the beacon is tracked by
    /// this strategy but absent from the update. Subclasses must override it.
    open func updateAlertParameter(_ parameter: inout Value, beacon: RangedBeacon?, now: Timestamp) {
        preconditionFailure("\(type(of: self)) must override `updateAlertParameter(_:beacon:now:)`")
    }

    /// True when the alert condition holds for this (just updated) state. Subclasses must override it.
    open func isConditionValid(_ parameter: Value, now: Timestamp) -> Bool {
        preconditionFailure("\(type(of: self)) must override `isConditionValid(_:now:)`")
    }

    // MARK: What a subclass may override

    /// Whether this cycle counts as a sighting for the reset and retention clocks (default:
    /// `beacon.seenThisCycle`). Strategies with a proximity requirement count out-of-range
    /// cycles as unseen.
    open func isPresent(_ beacon: RangedBeacon) -> Bool { beacon.seenThisCycle }

    /// The plain rule ``isPresent(_:)`` follows, if it follows one (``PresenceRule``), so that
    /// the base can tell presence without the hook; read once per cycle. Default ``PresenceRule/hook``:
    /// always ask. A subclass that overrides `isPresent` with one of the rules may say so here —
    /// and must then keep the two in step.
    open var presenceRule: PresenceRule { .hook }

    /// The shortest time the strategy needs to remember an unseen beacon (default zero), for
    /// example an exit strategy's away time. The retention is never shorter.
    open var minimumRetention: Duration { .zero }

    /// How far `value` is towards the condition at `now`, for the status page (default: none).
    /// A dwell returns its elapsed time against its threshold.
    open func progress(of value: Value, now: Timestamp) -> StrategyProgress? { nil }

    /// Where `value` stands at `now`, in the strategy's own words, for explanations and the
    /// status page (``StrategyBeaconStatus/explanation``); default none, and explanations show
    /// the bookkeeping and ``progress(of:now:)`` alone. Return a sentence that changes when the
    /// beacon's situation does ("in a visit since 09:00:12", "away since 09:01:05: the visit
    /// ends after 20 s away"), not one that changes every cycle: an explanation prints a line
    /// each time it changes. Called on demand only, never per cycle.
    open func explanation(of value: Value, now: Timestamp) -> String? { nil }

    /// How long, after a step that left `value` as it is at `now`, the beacon's hooks need not be
    /// called (default nil: step every cycle). See ``QuietPeriod`` for the promise a period makes;
    /// a subclass that returns one overrides ``catchUp(_:lastPresent:presentAtLastCycle:)`` too,
    /// unless quiet cycles leave its value as it is.
    open func quietPeriod(after value: Value, now: Timestamp) -> QuietPeriod? { nil }

    /// Brings `value` to where the cycles skipped in a ``QuietPeriod`` would have left it:
    /// `lastPresent` is the latest of them at which the beacon was present (nil when it was at
    /// none), `presentAtLastCycle` whether it was at the latest. Called before the next step and
    /// before the value is read (``parameter(for:)``, statuses, saved state), possibly more than
    /// once in one period, each time for the cycles since the previous call. Default: nothing.
    open func catchUp(_ value: inout Value, lastPresent: Timestamp?, presentAtLastCycle: Bool) {}

    /// Whether ``quietPeriod(after:now:)`` is honoured (default true). Set it to false to step
    /// every beacon every cycle — the reference behaviour, which quiet periods must not change
    /// (the equivalence tests compare the two).
    public final var allowsQuietSteps = true

    /// Whether `Value` must be saved for a restart to lose nothing (default true). A subclass
    /// whose value is not `Codable` and may start afresh after a restart says so with `false`;
    /// the bookkeeping (action status, last seen) is saved either way.
    open var savesValue: Bool { true }

    // MARK: Durable state (see BeaconAlertStrategyBase+Durability.swift)

    /// ``StrategyStateDurability/saved`` when `Value` is `Codable` (or not to be saved).
    open var stateDurability: StrategyStateDurability { baseStateDurability }

    /// Appends every beacon updated since the last call whose saved form changed, and every
    /// beacon forgotten. A subclass with more state (a composite's members) overrides it and
    /// calls `super`.
    open func collectStateChanges(into entries: inout [StrategyStateEntry]) { collectBaseStateChanges(into: &entries) }

    /// Restores the entries of part `""`; throws ``StrategyStateError`` on one it cannot read. A
    /// subclass with more state overrides it and calls `super`.
    open func restoreState(_ entries: [StrategyStateEntry]) throws { try restoreBaseState(entries) }

    // MARK: The protocol

    /// Evaluates the subclass condition on the parameter's value.
    public final func isConditionValid(_ parameter: Parameter, now: Timestamp) -> Bool {
        isConditionValid(parameter.value, now: now)
    }

    /// Condition valid (as of the latest update) and waiting for action.
    public final func isReadyForAction(_ parameter: Parameter, now: Timestamp) -> Bool {
        parameter.conditionValid && parameter.actionStatus == .waitingForAction
    }

    /// The condition as evaluated at the beacon's latest update (false when untracked).
    public final func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool {
        guard let slot = slots[id] else { return false }
        return books[slot].conditionValid
    }

    public final func update(beacon: RangedBeacon, now: Timestamp) {
        withUnsafePointer(to: beacon) { _ = updateSlot($0, now: now, rule: presenceRule) }
    }

    public final func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool {
        withUnsafePointer(to: beacon) { fireIfReady(updateSlot($0, now: now, rule: presenceRule)) }
    }

    public final func parameter(for id: BeaconID) -> Parameter? {
        guard let slot = slots[id] else { return nil }
        settle(slot)
        let book = books[slot]
        return Parameter(
            beacon: id, value: values[slot], actionStatus: book.actionStatus,
            conditionValid: book.conditionValid, lastSeen: book.lastSeen)
    }

    public final func markActionDone(for id: BeaconID, now: Timestamp) {
        if let slot = slots[id] {
            books[slot].actionStatus = .actionDone
            books[slot].changed = true
        }
    }

    open func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        let retention = max(configuration.retention ?? .zero, configuration.maxTimeBeforeReset, minimumRetention)
        // In nanoseconds: a `Duration` comparison per beacon is a call on 128-bit values.
        let retentionNanoseconds = retention.nanoseconds
        let time = now.nanosecondsSinceEpoch
        var slot = 0
        while slot < ids.count {
            if books[slot].updatedInCycle != cycle {
                step(slot, beacon: nil, now: now)
                if fireIfReady(slot) { fired(ids[slot]) }
            }
            if time &- books[slot].lastSeen.nanosecondsSinceEpoch > retentionNanoseconds {
                if savesChanges { forgotten.append(ids[slot]) }
                remove(at: slot) // the last slot moves here: look at this slot again
            } else {
                slot += 1
            }
        }
        cycle &+= 1
        previousSlot = -1
        if hints.count > ids.count { hints.removeLast(hints.count - ids.count) }
    }

    /// Every remembered beacon's bookkeeping, with ``progress(of:now:)`` and, for a beacon whose
    /// action is done, when it resets if it stays unseen.
    open func collectStatuses(now: Timestamp, into statuses: inout [StrategyBeaconStatus]) {
        for slot in ids.indices { statuses.append(status(ofSlot: slot, now: now)) }
    }

    /// The beacon's status, found directly.
    open func status(of id: BeaconID, now: Timestamp) -> StrategyBeaconStatus? {
        slots[id].map { status(ofSlot: $0, now: now) }
    }

    private func status(ofSlot slot: Int, now: Timestamp) -> StrategyBeaconStatus {
        settle(slot)
        let book = books[slot]
        return StrategyBeaconStatus(
            beacon: ids[slot], actionStatus: book.actionStatus, conditionValid: book.conditionValid,
            lastSeen: book.lastSeen, progress: progress(of: values[slot], now: now),
            resetsAt: book.actionStatus == .actionDone ? book.lastSeen + configuration.maxTimeBeforeReset : nil,
            explanation: explanation(of: values[slot], now: now))
    }

    /// True: the base reports every remembered beacon.
    public var reportsStatuses: Bool { true }

    /// How many beacons the strategy currently remembers.
    public final var trackedBeaconCount: Int { ids.count }

    /// Ignores region events. A subclass that uses them (or has members that do) overrides it.
    open func observe(_ event: RegionEvent) {}

    /// No region. A subclass that observes regions (or has members that do) overrides it.
    open var regionsObserved: [String] { [] }

    /// True when no beacon is remembered. A subclass with more state (a composite's members)
    /// overrides it.
    open var isIdle: Bool { ids.isEmpty }

    // MARK: Bookkeeping (the per-cycle steps are in BeaconAlertStrategyBase+Cycle.swift)

    /// Removes the beacon in `slot`; the last slot's beacon moves into it.
    func remove(at slot: Int) {
        precondition(!inHooks, reentryMessage)
        let last = ids.count - 1
        slots[ids[slot]] = nil
        if slot != last {
            ids[slot] = ids[last]
            books[slot] = books[last]
            // Copy in place through pointers: in unspecialised generic code, a returned value
            // would need a heap temporary of unknown size.
            (values + slot).update(from: values + last, count: 1)
            slots[ids[slot]] = slot
        }
        (values + last).deinitialize(count: 1)
        ids.removeLast()
        books.removeLast()
    }
}

/// Why a re-entrant call traps.
let reentryMessage = "a strategy hook called back into BeaconAlertStrategyBase (see its documentation)"
