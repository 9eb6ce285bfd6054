import BeaconCore

/// What changing an alert set would change: the deliveries of one set against another's on the
/// same input, paired by alert and beacon — the same, earlier, later, added (only the new set
/// delivers it) or dropped (only the old one does). `beacond diff-alerts` prints it.
///
/// A delivery is a first delivery (not a reminder). Two deliveries of the same alert and beacon
/// pair when they are at most `within` apart, nearest first, in time order; what stays unpaired
/// is added or dropped.
public struct AlertSetDifference: Sendable {
    /// One delivery's fate.
    public struct Change: Hashable, Sendable, Comparable {
        /// What happened to it.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Delivered by both, at the same time.
            case same
            /// Delivered by both, earlier with the new set.
            case earlier
            /// Delivered by both, later with the new set.
            case later
            /// Delivered with the new set only.
            case added
            /// Delivered with the old set only.
            case dropped
        }

        /// The alert.
        public var alertID: String
        /// The beacon.
        public var beacon: BeaconID
        /// What happened.
        public var kind: Kind
        /// The old set's delivery (nil when added).
        public var old: Timestamp?
        /// The new set's delivery (nil when dropped).
        public var new: Timestamp?

        /// By how much the new delivery moved (new − old), when both delivered.
        public var shift: Duration? {
            guard let old, let new else { return nil }
            return new - old
        }

        public static func < (a: Change, b: Change) -> Bool {
            let x = a.old ?? a.new ?? .epoch
            let y = b.old ?? b.new ?? .epoch
            return x != y ? x < y : (a.alertID, a.beacon) < (b.alertID, b.beacon)
        }

        /// One line: `09:01:03  lobby-dwell  ibeacon:…  earlier by 30s (09:01:33 → 09:01:03)`.
        public var summary: String {
            let time = (old ?? new)?.timeOfDayString ?? ""
            let what: String
            switch kind {
            case .same: what = "same"
            case .earlier, .later:
                let by = (shift.map { $0 < .zero ? .zero - $0 : $0 } ?? .zero).humanReadable
                what = "\(kind.rawValue) by \(by) (\(old!.timeOfDayString) → \(new!.timeOfDayString))"
            case .added: what = "added"
            case .dropped: what = "dropped"
            }
            return "\(time)  \(alertID)  \(beacon)  \(what)"
        }
    }

    /// Every delivery's fate, in time order.
    public let changes: [Change]

    /// Pairs the first deliveries among `old` and `new` (events of two runs of the same input).
    public init(old: some Sequence<AlertEvent>, new: some Sequence<AlertEvent>, within: Duration) {
        func deliveries(_ events: some Sequence<AlertEvent>) -> [AlertKey: [Timestamp]] {
            var found: [AlertKey: [Timestamp]] = [:]
            for event in events where event.kind == .delivered && event.attempt == 0 {
                found[AlertKey(alertID: event.alertID, beacon: event.beacon), default: []].append(event.time)
            }
            return found
        }
        let before = deliveries(old)
        let after = deliveries(new)
        var changes: [Change] = []
        for key in Set(before.keys).union(after.keys) {
            var unpaired = after[key] ?? []
            for time in before[key] ?? [] {
                let nearest = unpaired.indices.min {
                    abs((unpaired[$0] - time).nanoseconds) < abs((unpaired[$1] - time).nanoseconds)
                }
                if let index = nearest, abs((unpaired[index] - time).nanoseconds) <= within.nanoseconds {
                    let paired = unpaired.remove(at: index)
                    let kind: Change.Kind = paired == time ? .same : paired < time ? .earlier : .later
                    changes.append(Change(alertID: key.alertID, beacon: key.beacon, kind: kind, old: time, new: paired))
                } else {
                    changes.append(Change(alertID: key.alertID, beacon: key.beacon, kind: .dropped, old: time, new: nil))
                }
            }
            for time in unpaired {
                changes.append(Change(alertID: key.alertID, beacon: key.beacon, kind: .added, old: nil, new: time))
            }
        }
        self.changes = changes.sorted()
    }

    /// How many deliveries of each kind, per alert (sorted by alert).
    public var counts: [(alertID: String, counts: [Change.Kind: Int])] {
        var byAlert: [String: [Change.Kind: Int]] = [:]
        for change in changes { byAlert[change.alertID, default: [:]][change.kind, default: 0] += 1 }
        return byAlert.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The changes that are changes (not `same`).
    public var differences: [Change] { changes.filter { $0.kind != .same } }
}
