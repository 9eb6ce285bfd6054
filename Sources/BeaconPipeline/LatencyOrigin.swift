import BeaconAlertEngine
import BeaconCore
import BeaconRanging

/// Where a delivered event's advertisement-to-sink latency counts from (``RoutedEvent/origin``).
///
/// An alert a strategy fires in a cycle and the engine delivers at once rests on the beacon's
/// latest advertisement that cycle had: its latency counts from that advertisement — no earlier
/// than two cycles before (ranging and, at a hub, a gateway's report take a cycle each). Every
/// other delivery — after a `delay:`, at a window's opening, once its delivery condition holds, a
/// reminder, one whose beacon is gone — counts from the moment the engine released it: the wait
/// before is configured, not latency. (After a restart, a delivery that fell due while the
/// daemon was down is released at its due time: the downtime counts.)
enum LatencyOrigin {
    /// Sets the origin of each first delivery among `events` from index `first` on (what this
    /// cycle's firings delivered at once), from the cycle's beacons. Delivered events are rare:
    /// a linear search over the cycle's beacons costs nothing on the cycles that deliver none.
    static func stamp(
        _ events: inout [RoutedEvent], from first: Int, beacons: [RangedBeacon], cycleLength: Duration
    ) {
        guard first < events.count else { return }
        for index in first..<events.count where events[index].event.kind == .delivered && events[index].origin == nil {
            let event = events[index].event
            // Read in place: copying each beacon passed over would retain its strings.
            let lastSeen = beacons.withUnsafeBufferPointer { all in
                all.firstIndex { $0.id == event.beacon }.map { all[$0].lastSeen }
            }
            guard event.attempt == 0, let lastSeen else { continue }
            let released = event.time
            events[index].origin = min(released, max(lastSeen, released - cycleLength * 2))
        }
    }

    /// Sets the moment of release (the event's time) as the origin of each delivered event that
    /// has none yet.
    static func stampReleaseTimes(_ events: inout [RoutedEvent]) {
        for index in events.indices where events[index].event.kind == .delivered && events[index].origin == nil {
            events[index].origin = events[index].event.time
        }
    }
}
