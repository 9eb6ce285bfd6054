import BeaconCore
import BeaconStrategyKit

/// Region entry or exit: fires for a beacon at the cycle in which the ranging loop reports that
/// it entered (or left) the region ``region`` — every time it does. The region's membership and
/// exit timeout are the ranging configuration's (`ranging.regions`).
///
/// The event is the condition, so there is nothing to reset and nothing to save: each entry (or
/// exit) is one activation. The events of one cycle are kept only until that cycle ends.
public final class RegionAlertStrategy: BeaconAlertStrategy {
    /// Nothing is kept per beacon between cycles.
    public typealias Parameter = Never

    /// The key configuration uses.
    public static let key = "region"

    /// The region's id.
    public let region: String
    /// Which event fires: entry or exit.
    public let on: RegionEvent.Kind
    /// The beacons with an event in the cycle being evaluated, not yet fired.
    private var pending: [BeaconID] = []

    /// A strategy firing on `on` events of `region`.
    public init(region: String, on: RegionEvent.Kind = .enter) {
        self.region = region
        self.on = on
    }

    public var key: String { Self.key }

    public var regionsObserved: [String] { [region] }

    public func observe(_ event: RegionEvent) {
        if event.regionID == region, event.kind == on, !pending.contains(event.beacon) { pending.append(event.beacon) }
    }

    public func update(beacon: RangedBeacon, now: Timestamp) {}

    public func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool {
        guard let index = pending.firstIndex(of: beacon.id) else { return false }
        pending.remove(at: index)
        return true
    }

    public func parameter(for id: BeaconID) -> Never? { nil }

    public func isConditionValid(_ parameter: Never, now: Timestamp) -> Bool {}

    public func isReadyForAction(_ parameter: Never, now: Timestamp) -> Bool {}

    public func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool { pending.contains(id) }

    public func markActionDone(for id: BeaconID, now: Timestamp) { pending.removeAll { $0 == id } }

    /// Fires for the beacons whose event came without their being in the update (an exit).
    public func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        for id in pending { fired(id) }
        pending.removeAll(keepingCapacity: true)
    }

    public var isIdle: Bool { pending.isEmpty }

    public var stateDurability: StrategyStateDurability { .notNeeded }
}
