import BeaconCore

/// A rule that decides, cycle after cycle, when a beacon is ready for an alert.
///
/// The alert engine calls a strategy once per ranging cycle for every beacon whose content uses
/// it — beacons seen during the cycle *and* beacons in their missed-scan grace
/// (`seenThisCycle == false`), because absence is information — and then calls
/// ``finishCycle(now:fired:)`` once, which handles the beacons the strategy tracks that were not
/// in the update at all (gone from ranging). A beacon is *ready for action* when the strategy's
/// condition holds and its action has not been done yet; the engine then fires and calls
/// ``markActionDone(for:now:)``. ``evaluate(beacon:now:)`` and ``evaluate(_:into:)`` bundle
/// those steps.
///
/// Implement the protocol directly to control every step (you keep the per-beacon state), or
/// subclass ``BeaconAlertStrategyBase``, which keeps the state and action status for you. See
/// <doc:WritingYourOwnStrategy>.
///
/// Strategies are mutable state machines confined to the task that evaluates them, so they are
/// not `Sendable`; what crosses tasks is their configuration and the ``StrategyRegistry``'s
/// `Sendable` factories, which make a fresh strategy for each engine.
///
/// A heterogeneous list is simply `[any BeaconAlertStrategy]`: the cycle-level methods do not
/// mention ``Parameter``.
///
/// **Durable state.** A daemon with a state file saves each beacon's strategy state with the
/// engine's state, in one transaction per input, and restores it on start: say how with
/// ``stateDurability`` and implement ``collectStateChanges(into:)`` and ``restoreState(_:)``.
/// ``BeaconAlertStrategyBase`` does all three when its `Value` is `Codable`. The defaults save
/// nothing and report ``StrategyStateDurability/incomplete(_:)``.
public protocol BeaconAlertStrategy<Parameter>: AnyObject {
    /// The per-beacon state the strategy keeps (the "beacon alert parameter").
    associatedtype Parameter

    /// The name configuration uses for this strategy (for example `"time"`).
    var key: String { get }

    /// Updates the state of `beacon` for the cycle ending at `now` (called every cycle, seen or not).
    func update(beacon: RangedBeacon, now: Timestamp)

    /// The state kept for a beacon, if the strategy tracks it.
    func parameter(for id: BeaconID) -> Parameter?

    /// True when the strategy's condition holds for this state at `now`.
    func isConditionValid(_ parameter: Parameter, now: Timestamp) -> Bool

    /// True when an alert may fire for this state at `now` (condition valid, action not done).
    func isReadyForAction(_ parameter: Parameter, now: Timestamp) -> Bool

    /// Records that the alert fired for `id` at `now`.
    func markActionDone(for id: BeaconID, now: Timestamp)

    /// Ends the cycle at `now`: every tracked beacon that got no ``update(beacon:now:)`` this
    /// cycle is updated as absent; those that become ready are marked done and passed to
    /// `fired`; beacons gone for longer than the strategy's retention are forgotten.
    func finishCycle(now: Timestamp, fired: (BeaconID) -> Void)

    /// Updates `beacon` and, if it is then ready for action, marks the action done and returns
    /// true. (Has a default implementation.)
    func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool

    /// Runs one whole cycle over the beacons of `update` whose identity satisfies `isIncluded`
    /// (an alert's match) and appends a trigger for each beacon that fired: ``evaluate(beacon:now:)``
    /// on each, then ``finishCycle(now:fired:)``. (Has a default implementation; the base class
    /// has its own, which reads the beacons in place.)
    func evaluate(
        _ update: RangingUpdate, matching isIncluded: (BeaconID) -> Bool,
        into triggers: inout [AlertTrigger])

    /// True when the condition holds for the beacon `id` as of its latest update (false when
    /// the strategy does not track it). Composite strategies use it. (Has a default implementation.)
    func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool

    /// A beacon entered or left a region during the cycle about to be evaluated (called before
    /// that cycle's updates, for the beacons the alert matches). Region strategies use it;
    /// composites pass it on to their members. (Default: ignored.)
    func observe(_ event: RegionEvent)

    /// The ids of the ranging regions whose events the strategy needs (a region strategy's, or
    /// its members'), so that a pipeline can refuse one that is not configured. (Default: none.)
    var regionsObserved: [String] { get }

    /// True when the strategy remembers no beacon, so that cycles in which nothing is heard
    /// cannot change anything: a pipeline then skips them. (Default: false, "may remember some",
    /// which makes the pipeline run every such cycle.)
    var isIdle: Bool { get }

    /// Whether the per-beacon state survives a restart. (Default: ``StrategyStateDurability/incomplete(_:)``.)
    var stateDurability: StrategyStateDurability { get }

    /// Appends the state of every beacon that changed since the last call (`state == nil` for a
    /// beacon the strategy forgot). Called after the cycles of each input when the state is
    /// saved; not called otherwise. (Default: nothing.)
    func collectStateChanges(into entries: inout [StrategyStateEntry])

    /// Restores state saved through ``collectStateChanges(into:)``, before the first cycle.
    /// Throws when an entry cannot be read (the caller then starts that strategy afresh).
    /// (Default: nothing.)
    func restoreState(_ entries: [StrategyStateEntry]) throws
    /// Appends where each remembered beacon stands (action, condition, progress, reset), for a
    /// status page. Called on demand only, never per cycle. (Default: nothing, and the page
    /// says the strategy reports no state.)
    func collectStatuses(now: Timestamp, into statuses: inout [StrategyBeaconStatus])
    /// Whether ``collectStatuses(now:into:)`` reports the strategy's beacons. (Default: false.)
    var reportsStatuses: Bool { get }
    /// Where one beacon stands, as ``collectStatuses(now:into:)`` would report it; `nil` when the
    /// strategy does not remember it (or reports no state). Called on demand only — by
    /// explanations, for the beacon they follow — never per cycle otherwise. (Default: the
    /// beacon's entry among ``collectStatuses(now:into:)``'s.)
    func status(of id: BeaconID, now: Timestamp) -> StrategyBeaconStatus?
}
