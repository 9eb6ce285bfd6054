import BeaconCore
import FoundationEssentials

/// Compares delivered alerts with the true visits: precision, recall and alert latency per alert id.
///
/// Matching rule, per alert id and beacon (its `BeaconID`: kind and identity, as alert events
/// and ground truth write it with `BeaconID/writeJSON(to:)`): alerts are taken in time order;
/// an alert matches the earliest-starting not-yet-matched visit of the same beacon with
/// `visit.start ≤ alert.time ≤ visit.end + tolerance`; each visit is matched at most once and an
/// alert matches at most one visit. Unmatched alerts are false positives; unmatched visits are
/// misses. The visits an alert id is judged against are those of beacons whose UUID is in
/// `uuids` when given, else the UUIDs that alert id fired for. Latency = alert time − visit start;
/// median and p90 by nearest rank over the matched alerts.
public enum Scoring {
    /// A true visit.
    public struct Visit: Hashable, Sendable {
        /// The visiting beacon.
        public var beacon: BeaconID
        /// When it came within the radius.
        public var start: Timestamp
        /// Its last moment within the radius.
        public var end: Timestamp

        /// Creates a visit.
        public init(beacon: BeaconID, start: Timestamp, end: Timestamp) {
            self.beacon = beacon
            self.start = start
            self.end = end
        }
    }

    /// A delivered alert.
    public struct Alert: Hashable, Sendable {
        /// The alert id (from the alerts configuration).
        public var id: String
        /// The beacon it fired for.
        public var beacon: BeaconID
        /// When it was delivered.
        public var time: Timestamp

        /// Creates an alert record.
        public init(id: String, beacon: BeaconID, time: Timestamp) {
            self.id = id
            self.beacon = beacon
            self.time = time
        }
    }

    /// The score of one alert id.
    public struct Score: Hashable, Sendable {
        /// The alert id.
        public var alertID: String
        /// Alerts delivered.
        public var alerts: Int
        /// Alerts that matched a visit (true positives).
        public var matchedAlerts: Int
        /// Visits the alert id is judged against.
        public var visits: Int
        /// Latencies of the matched alerts, ascending.
        public var latencies: [Duration]

        /// Creates a score.
        public init(alertID: String, alerts: Int, matchedAlerts: Int, visits: Int, latencies: [Duration]) {
            self.alertID = alertID
            self.alerts = alerts
            self.matchedAlerts = matchedAlerts
            self.visits = visits
            self.latencies = latencies
        }

        /// matched alerts / alerts (1 when there are no alerts).
        public var precision: Double { alerts == 0 ? 1 : Double(matchedAlerts) / Double(alerts) }
        /// matched visits / visits (1 when there are no visits).
        public var recall: Double { visits == 0 ? 1 : Double(matchedAlerts) / Double(visits) }
        /// Median latency (nearest rank), if any alert matched.
        public var medianLatency: Duration? { percentile(0.5) }
        /// 90th-percentile latency (nearest rank), if any alert matched.
        public var p90Latency: Duration? { percentile(0.9) }

        /// The nearest-rank percentile `p` (0 < p ≤ 1) of the latencies: the value at rank ⌈p·n⌉.
        public func percentile(_ p: Double) -> Duration? {
            guard !latencies.isEmpty else { return nil }
            let rank = Int((p * Double(latencies.count)).rounded(.up))
            return latencies[max(1, min(latencies.count, rank)) - 1]
        }
    }

    /// Scores every alert id found in `alerts`, sorted by id.
    public static func score(
        alerts: [Alert], visits: [Visit], tolerance: Duration = .seconds(30),
        uuids: Set<UUID>? = nil
    ) -> [Score] {
        let byID = Dictionary(grouping: alerts, by: \.id)
        return byID.keys.sorted().map { id in
            let own = byID[id]!.sorted { ($0.time, $0.beacon) < ($1.time, $1.beacon) }
            let relevantUUIDs = uuids ?? Set(own.map(\.beacon.uuid))
            let candidates = visits.filter { relevantUUIDs.contains($0.beacon.uuid) }
                .sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            var visitsByBeacon = Dictionary(grouping: candidates.indices, by: { candidates[$0].beacon })
            var matched = Set<Int>()
            var latencies: [Duration] = []
            for alert in own {
                guard let indices = visitsByBeacon[alert.beacon],
                    let hit = indices.first(where: { index in
                        !matched.contains(index) && candidates[index].start <= alert.time
                            && alert.time <= candidates[index].end + tolerance
                    })
                else { continue }
                matched.insert(hit)
                latencies.append(alert.time - candidates[hit].start)
            }
            visitsByBeacon.removeAll()
            return Score(
                alertID: id, alerts: own.count, matchedAlerts: latencies.count, visits: candidates.count,
                latencies: latencies.sorted())
        }
    }
}
