import BeaconAlertEngine
import BeaconCore
import BeaconRanging

/// Where a delivered event's advertisement-to-sink latency counts from (``RoutedEvent/origin``).
///
/// An alert that falls due in a cycle rests on the beacon's latest advertisement that cycle had;
/// its latency counts from that advertisement — no earlier than two cycles before the due time
/// (ranging and, at a hub, a gateway's report, take a cycle each). An alert that falls due by
/// the clock (a delay, a delivery window, a reminder) or whose beacon is no longer tracked counts
/// from its due time: the wait is configured, not latency.
enum LatencyOrigin {
    /// Sets the origin of each delivered event of `events` from index `first` on, from the
    /// beacons of the cycle that delivered them. Delivered events are rare: a linear search
    /// over the cycle's beacons costs nothing on the cycles that deliver none.
    static func stamp(
        _ events: inout [RoutedEvent], from first: Int, beacons: [RangedBeacon], cycleLength: Duration
    ) {
        guard first < events.count else { return }
        for index in first..<events.count where events[index].event.kind == .delivered && events[index].origin == nil {
            let event = events[index].event
            let due = event.scheduledFor ?? event.time
            guard event.attempt == 0, let beacon = beacons.first(where: { $0.id == event.beacon }) else { continue }
            let earliest = due - cycleLength * 2
            events[index].origin = min(due, max(beacon.lastSeen, earliest))
        }
    }

    /// Sets the due time as the origin of each delivered event that has none yet.
    static func stampDueTimes(_ events: inout [RoutedEvent]) {
        for index in events.indices where events[index].event.kind == .delivered && events[index].origin == nil {
            events[index].origin = events[index].event.scheduledFor ?? events[index].event.time
        }
    }
}
