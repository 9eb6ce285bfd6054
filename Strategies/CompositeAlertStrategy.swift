import BeaconCore
import BeaconStrategyKit

/// Composition: the condition holds when all (``Mode/allOf``) or any (``Mode/anyOf``) of the
/// children's conditions hold for the beacon at the same cycle. The children's own action
/// statuses are ignored; the composite keeps its own (fires once, resets like any strategy).
public final class CompositeAlertStrategy: BeaconAlertStrategyBase<CompositeMember> {
    /// How the children's conditions combine.
    public enum Mode: String, Hashable, Sendable {
        /// Every child's condition holds (key `all-of`).
        case allOf = "all-of"
        /// At least one child's condition holds (key `any-of`).
        case anyOf = "any-of"
    }

    /// How the children combine.
    public let mode: Mode
    /// The combined strategies.
    public let children: [any BeaconAlertStrategy]

    /// Creates a composition.
    public init(
        _ mode: Mode, of children: [any BeaconAlertStrategy],
        base: StrategyBaseConfiguration = .init(), capacity: Int = 0
    ) {
        self.mode = mode
        self.children = children
        super.init(initialValue: CompositeMember(), configuration: base, capacity: capacity)
    }

    public override var key: String { mode.rawValue }

    public override func updateAlertParameter(_ member: inout CompositeMember, beacon: RangedBeacon?, now: Timestamp) {
        guard let beacon else { return } // absent: the children were updated by their finishCycle
        member.id = beacon.id
        for child in children { child.update(beacon: beacon, now: now) }
    }

    public override func isConditionValid(_ member: CompositeMember, now: Timestamp) -> Bool {
        guard let id = member.id else { return false }
        switch mode {
        case .allOf: return children.allSatisfy { $0.isConditionValid(for: id, now: now) }
        case .anyOf: return children.contains { $0.isConditionValid(for: id, now: now) }
        }
    }

    public override func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        for child in children { child.finishCycle(now: now) { _ in } }
        super.finishCycle(now: now, fired: fired)
    }

    public override var regionsObserved: [String] { children.flatMap(\.regionsObserved) }

    public override func observe(_ event: RegionEvent) {
        for child in children { child.observe(event) }
    }

    public override var isIdle: Bool { super.isIdle && children.allSatisfy(\.isIdle) }

    // MARK: Durable state: the composite's own under part "", each child's under "<index>/".

    public override var stateDurability: StrategyStateDurability {
        for child in children {
            if case .incomplete(let reason) = child.stateDurability { return .incomplete(reason) }
        }
        return super.stateDurability
    }

    public override func collectStateChanges(into entries: inout [StrategyStateEntry]) {
        super.collectStateChanges(into: &entries)
        var childEntries: [StrategyStateEntry] = []
        for (index, child) in children.enumerated() {
            childEntries.removeAll(keepingCapacity: true)
            child.collectStateChanges(into: &childEntries)
            entries += childEntries.lazy.map { $0.prefixed(by: "\(index)/") }
        }
    }

    public override func restoreState(_ entries: [StrategyStateEntry]) throws {
        try super.restoreState(entries)
        for (index, child) in children.enumerated() {
            let prefix = "\(index)/"
            try child.restoreState(
                entries.compactMap { entry in
                    guard entry.part.hasPrefix(prefix) else { return nil }
                    return StrategyStateEntry(
                        part: String(entry.part.dropFirst(prefix.count)), beacon: entry.beacon,
                        state: entry.state)
                })
        }
    }
}
