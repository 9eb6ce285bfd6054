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
/// ``isReadyForAction(_:now:)`` is "condition valid and waiting for action". Beacons unseen for
/// longer than the retention are forgotten at ``finishCycle(now:fired:)``, which bounds memory.
///
/// **Why generic.** The base is generic over the subclass's state `Value` (usually a small
/// struct): the subclass receives its own type, `inout`, with no downcast, and the states live
/// inline in one contiguous table, so steady-state evaluation allocates nothing. `Value` need
/// not be `Sendable`: like every strategy, an instance is a mutable state machine confined to the
/// task that evaluates it (hence not `Sendable` itself); the `Sendable` part is the factory in
/// ``StrategyRegistry`` that makes one per engine.
///
/// Do not call back into the base (``parameter(for:)``, ``update(beacon:now:)`` …) from
/// ``updateAlertParameter(_:beacon:now:)`` or ``isConditionValid(_:now:)-(Value,_)``: the
/// state is being modified in place during those calls.
open class BeaconAlertStrategyBase<Value>: BeaconAlertStrategy {
    /// The per-beacon state: bookkeeping plus the subclass's `Value`.
    public typealias Parameter = BeaconAlertParameter<Value>

    /// The bookkeeping options.
    public let configuration: StrategyBaseConfiguration
    private let initialValue: Value
    private var table: BeaconTable<Parameter>
    private var cycle: UInt64 = 0

    /// Creates a strategy whose beacons start with `initialValue`; `capacity` pre-sizes the
    /// per-beacon table (beacons expected at once).
    public init(initialValue: Value, configuration: StrategyBaseConfiguration = .init(), capacity: Int = 0) {
        self.initialValue = initialValue
        self.configuration = configuration
        self.table = BeaconTable(capacity: capacity)
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

    /// The shortest time the strategy needs to remember an unseen beacon (default zero), for
    /// example an exit strategy's away time. The retention is never shorter.
    open var minimumRetention: Duration { .zero }

    /// Condition valid (as of the latest update) and waiting for action.
    open func isReadyForAction(_ parameter: Parameter, now: Timestamp) -> Bool {
        parameter.conditionValid && parameter.actionStatus == .waitingForAction
    }

    // MARK: The protocol

    /// Evaluates the subclass condition on the parameter's value.
    public final func isConditionValid(_ parameter: Parameter, now: Timestamp) -> Bool {
        isConditionValid(parameter.value, now: now)
    }

    /// The condition as evaluated at the beacon's latest update (false when untracked).
    public final func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool {
        guard let slot = table.slot(of: id) else { return false }
        return table[slot].conditionValid
    }

    public final func update(beacon: RangedBeacon, now: Timestamp) {
        _ = updateSlot(beacon, now: now)
    }

    public final func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool {
        let slot = updateSlot(beacon, now: now)
        guard isReadyForAction(table[slot], now: now) else { return false }
        table[slot].actionStatus = .actionDone
        return true
    }

    public final func parameter(for id: BeaconID) -> Parameter? {
        table.slot(of: id).map { table[$0] }
    }

    public final func markActionDone(for id: BeaconID, now: Timestamp) {
        if let slot = table.slot(of: id) { table[slot].actionStatus = .actionDone }
    }

    open func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        let retention = max(configuration.retention ?? .zero, configuration.maxTimeBeforeReset, minimumRetention)
        var slot = 0
        while slot < table.count {
            if table[slot].updatedInCycle != cycle {
                step(&table[slot], beacon: nil, now: now)
                if isReadyForAction(table[slot], now: now) {
                    table[slot].actionStatus = .actionDone
                    fired(table.id(at: slot))
                }
            }
            if now - table[slot].lastSeen > retention {
                table.remove(at: slot)   // the last slot moves here: look at this slot again
            } else {
                slot += 1
            }
        }
        cycle &+= 1
    }

    /// How many beacons the strategy currently remembers.
    public final var trackedBeaconCount: Int { table.count }

    // MARK: Bookkeeping

    private func updateSlot(_ beacon: RangedBeacon, now: Timestamp) -> Int {
        let slot = table.slot(of: beacon.id)
            ?? table.insert(Parameter(beacon: beacon.id, value: initialValue, now: now), for: beacon.id)
        step(&table[slot], beacon: beacon, now: now)
        return slot
    }

    private func step(_ entry: inout Parameter, beacon: RangedBeacon?, now: Timestamp) {
        if let beacon, isPresent(beacon) {
            entry.lastSeen = now
        } else if entry.actionStatus == .actionDone, now - entry.lastSeen >= configuration.maxTimeBeforeReset {
            entry.actionStatus = .waitingForAction
        }
        updateAlertParameter(&entry.value, beacon: beacon, now: now)
        let valid = isConditionValid(entry.value, now: now)
        entry.conditionValid = valid
        if !valid, configuration.resetWhenConditionInvalid { entry.actionStatus = .waitingForAction }
        entry.updatedInCycle = cycle
    }
}
