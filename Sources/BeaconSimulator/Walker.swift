import BeaconCore

/// Someone (or something) that moves through the site along waypoints, carrying beacons.
///
/// The walker appears at its first waypoint `start` after the simulation begins, dwells there,
/// walks in a straight line at `speed` to the next waypoint, dwells there, and so on. After the
/// last waypoint's dwell it leaves the site (its beacons fall silent) — unless it `repeats`, in
/// which case it walks back to the first waypoint and goes round again for ever.
public struct Walker: Hashable, Sendable {
    /// One stop on the walker's path.
    public struct Waypoint: Hashable, Sendable {
        /// Where the stop is, metres.
        public var position: Vector3
        /// How long the walker stays there.
        public var dwell: Duration

        /// Creates a stop.
        public init(_ position: Vector3, dwell: Duration = .zero) {
            self.position = position
            self.dwell = dwell
        }
    }

    /// A stretch of the path: standing still (`from == to`) or walking.
    @usableFromInline
    struct Leg: Hashable, Sendable {
        @usableFromInline var startSeconds: Double
        @usableFromInline var endSeconds: Double
        @usableFromInline var from: Vector3
        @usableFromInline var to: Vector3
    }

    /// The walker's name.
    public let name: String
    /// The stops, in order.
    public let waypoints: [Waypoint]
    /// Walking speed, metres per second.
    public let speed: Double
    /// When the walker appears, after the start of the simulation.
    public let start: Duration
    /// Whether the walker loops round its waypoints for ever instead of leaving.
    public let repeats: Bool

    @usableFromInline let legs: [Leg]
    @usableFromInline let startSeconds: Double
    /// Length of one pass (including the walk back to the first stop when repeating), seconds.
    @usableFromInline let cycleSeconds: Double

    /// Creates a walker; `waypoints` must not be empty and `speed` must be positive.
    public init(name: String, waypoints: [Waypoint], speed: Double, start: Duration = .zero, repeats: Bool = false) {
        precondition(!waypoints.isEmpty && speed > 0, "a walker needs a waypoint and a positive speed")
        self.name = name
        self.waypoints = waypoints
        self.speed = speed
        self.start = start
        self.repeats = repeats
        var legs: [Leg] = []
        var t = 0.0
        let stops = repeats && waypoints.count > 1 ? waypoints + [waypoints[0]] : waypoints
        for (index, stop) in stops.enumerated() {
            let isReturn = repeats && waypoints.count > 1 && index == stops.count - 1
            if index > 0 {
                let from = stops[index - 1].position
                let walk = from.distance(to: stop.position) / speed
                legs.append(Leg(startSeconds: t, endSeconds: t + walk, from: from, to: stop.position))
                t += walk
            }
            if !isReturn {
                let dwell = stop.dwell.secondsValue
                legs.append(Leg(startSeconds: t, endSeconds: t + dwell, from: stop.position, to: stop.position))
                t += dwell
            }
        }
        self.legs = legs
        self.startSeconds = start.secondsValue
        self.cycleSeconds = t
    }

    /// How long the walker stays on site (`nil` when it repeats for ever).
    public var timeOnSite: Duration? { repeats ? nil : .nanoseconds(Int64((cycleSeconds * 1e9).rounded())) }

    /// The walker's position `offset` after the simulation started, or `nil` before it appears
    /// and after it has left.
    @inlinable
    public func position(atOffset offset: Duration) -> Vector3? {
        var t = offset.secondsValue - startSeconds
        if t < 0 { return nil }
        if repeats {
            if cycleSeconds > 0 { t = t.truncatingRemainder(dividingBy: cycleSeconds) } else { t = 0 }
        } else if t > cycleSeconds {
            return nil
        }
        // Binary search for the last leg starting at or before t.
        var low = 0, high = legs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if legs[mid].startSeconds <= t { low = mid } else { high = mid - 1 }
        }
        let leg = legs[low]
        let length = leg.endSeconds - leg.startSeconds
        if length <= 0 || leg.from == leg.to { return leg.to }
        return leg.from.interpolated(to: leg.to, fraction: min(1, (t - leg.startSeconds) / length))
    }
}
