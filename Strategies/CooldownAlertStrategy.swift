import BeaconCore
import BeaconStrategyKit

/// A wrapper that lets no new alert through for a beacon within ``period`` of its previous
/// alert. A decision of the wrapped strategy made during the cooldown is dropped (the wrapped
/// strategy still counts its action as done). Independent of the wrapped strategy's reset.
public final class CooldownAlertStrategy: BeaconAlertStrategy {
    /// The time of the beacon's latest alert let through.
    public typealias Parameter = Timestamp

    /// The key configuration uses.
    public static let key = "cooldown"

    /// The wrapped strategy.
    public let inner: any BeaconAlertStrategy
    /// The quiet period after an alert.
    public let period: Duration
    private var lastAlert: BeaconTable<Timestamp>
    /// Beacons whose cooldown started or ended since the last collection of state changes.
    private var changed: Set<BeaconID> = []
    private var savesChanges = false

    /// Wraps `inner` with a cooldown of `period`.
    public init(_ inner: any BeaconAlertStrategy, period: Duration, capacity: Int = 0) {
        self.inner = inner
        self.period = period
        self.lastAlert = BeaconTable(capacity: capacity)
    }

    public var key: String { Self.key }

    public func update(beacon: RangedBeacon, now: Timestamp) { inner.update(beacon: beacon, now: now) }

    public func parameter(for id: BeaconID) -> Timestamp? { lastAlert.slot(of: id).map { lastAlert[$0] } }

    /// True when the cooldown that began at `lastAlert` is over at `now`.
    public func isConditionValid(_ lastAlert: Timestamp, now: Timestamp) -> Bool { now - lastAlert >= period }

    /// Same as ``isConditionValid(_:now:)``: outside the cooldown.
    public func isReadyForAction(_ lastAlert: Timestamp, now: Timestamp) -> Bool {
        isConditionValid(lastAlert, now: now)
    }

    public func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool {
        inner.isConditionValid(for: id, now: now) && !isCooling(id, now: now)
    }

    public func markActionDone(for id: BeaconID, now: Timestamp) {
        inner.markActionDone(for: id, now: now)
        record(id, now: now)
    }

    public func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool {
        inner.evaluate(beacon: beacon, now: now) && admit(beacon.id, now: now)
    }

    public func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        inner.finishCycle(now: now) { id in
            if admit(id, now: now) { fired(id) }
        }
        var slot = 0
        while slot < lastAlert.count {
            if now - lastAlert[slot] >= period {
                if savesChanges { changed.insert(lastAlert.id(at: slot)) }
                lastAlert.remove(at: slot)
            } else {
                slot += 1
            }
        }
    }

    // MARK: Durable state: the cooldowns under part "" (8 bytes, little-endian nanoseconds), the
    // wrapped strategy's under "inner/".

    public func observe(_ event: RegionEvent) { inner.observe(event) }

    public var regionsObserved: [String] { inner.regionsObserved }

    public var isIdle: Bool { lastAlert.count == 0 && inner.isIdle }

    public var stateDurability: StrategyStateDurability { inner.stateDurability }

    public func collectStateChanges(into entries: inout [StrategyStateEntry]) {
        savesChanges = true
        for id in changed {
            let state = lastAlert.slot(of: id).map { slot in
                withUnsafeBytes(of: lastAlert[slot].nanosecondsSinceEpoch.littleEndian) { Array($0) }
            }
            entries.append(StrategyStateEntry(beacon: id, state: state))
        }
        changed.removeAll(keepingCapacity: true)
        var innerEntries: [StrategyStateEntry] = []
        inner.collectStateChanges(into: &innerEntries)
        entries += innerEntries.lazy.map { $0.prefixed(by: "inner/") }
    }

    public func restoreState(_ entries: [StrategyStateEntry]) throws {
        savesChanges = true
        for entry in entries where entry.part.isEmpty {
            guard let bytes = entry.state else { continue }
            guard bytes.count == 8 else {
                throw StrategyStateError.unreadable(
                    strategy: key, beacon: entry.beacon.description,
                    reason: "\(bytes.count) bytes, 8 expected")
            }
            var nanoseconds: Int64 = 0
            for (shift, byte) in bytes.enumerated() { nanoseconds |= Int64(byte) << (8 * Int64(shift)) }
            record(entry.beacon, now: Timestamp(nanosecondsSinceEpoch: nanoseconds))
        }
        changed.removeAll()
        try inner.restoreState(
            entries.compactMap { entry in
                guard entry.part.hasPrefix("inner/") else { return nil }
                return StrategyStateEntry(part: String(entry.part.dropFirst(6)), beacon: entry.beacon, state: entry.state)
            })
    }

    private func isCooling(_ id: BeaconID, now: Timestamp) -> Bool {
        guard let slot = lastAlert.slot(of: id) else { return false }
        return now - lastAlert[slot] < period
    }

    /// Lets an alert through unless cooling; records it when let through.
    private func admit(_ id: BeaconID, now: Timestamp) -> Bool {
        if isCooling(id, now: now) { return false }
        record(id, now: now)
        return true
    }

    private func record(_ id: BeaconID, now: Timestamp) {
        if savesChanges { changed.insert(id) }
        if let slot = lastAlert.slot(of: id) { lastAlert[slot] = now } else { _ = lastAlert.insert(now, for: id) }
    }
}
