import BeaconCore
import Foundation

/// How well a site's rooms and positions match the truth: room accuracy while a tag stays in a
/// room, room changes within stays, and position error.
///
/// Reads the presence lines of `replay --site --presence` (or a simulated site's) and a truth
/// file whose lines are either stays — `{"from","to","room"}` — or positions —
/// `{"time","x","y","z"}` — each optionally with the beacon's identity object, as `beacon` or
/// as `id`; lines without one apply to every beacon. In a simulator's truth file (lines with a
/// `type`) only the `stay` and `position` lines are read.
public enum SiteScoring {
    /// The scores.
    public struct Report: Hashable, Sendable {
        /// Presence lines inside a true stay.
        public var roomSamples = 0
        /// Of those, with the right room.
        public var roomRight = 0
        /// Room changes between consecutive lines of one stay, other than into the stay's own room
        /// (a late arrival is counted by the accuracy; a tag that stays should not move away).
        public var flaps = 0
        /// The stays' total length, seconds.
        public var staySeconds = 0.0
        /// Position errors (3-D, metres) of the lines with a position and a true position.
        public var positionErrors: [Double] = []
        /// Lines at times with a true position but no estimate.
        public var missingPositions = 0
        /// Positions that stated a 90 % radius (`radius90`), and those whose horizontal error
        /// was within it.
        public var statedRadius = 0
        /// See ``statedRadius``.
        public var withinRadius = 0
        /// Lines within a stay whose room was not known (`null` or `unknown`): counted in
        /// ``roomSamples``, never right.
        public var unknownRoomSamples = 0

        /// The share of stay time with no room known.
        public var unknownShare: Double? { roomSamples > 0 ? Double(unknownRoomSamples) / Double(roomSamples) : nil }

        /// The share of positions whose horizontal error was within their stated 90 % radius
        /// (about 0.9 when the uncertainty is calibrated).
        public var radiusCoverage: Double? { statedRadius > 0 ? Double(withinRadius) / Double(statedRadius) : nil }

        /// The share of stay time with the right room (0–1), if any line fell in a stay.
        public var roomAccuracy: Double? { roomSamples > 0 ? Double(roomRight) / Double(roomSamples) : nil }
        /// Room changes inside stays per hour of stays.
        public var flapsPerHour: Double? { staySeconds > 0 ? Double(flaps) / staySeconds * 3600 : nil }
        /// The median position error, metres.
        public var medianPositionError: Double? { Self.percentile(positionErrors, 0.5) }
        /// The 90th percentile of the position error, metres.
        public var p90PositionError: Double? { Self.percentile(positionErrors, 0.9) }

        static func percentile(_ values: [Double], _ p: Double) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let rank = p * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down))
            let high = min(sorted.count - 1, low + 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }

        /// The report as text, one figure per line.
        public var text: String {
            func f(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "n/a" }
            return """
                room right while staying   \(f(roomAccuracy) { String(format: "%.1f %%", $0 * 100) }) (\(roomRight) of \(roomSamples) cycles in \(String(format: "%.0f", staySeconds)) s of stays)
                room unknown while staying \(f(unknownShare) { String(format: "%.1f %%", $0 * 100) })
                room flaps within stays    \(flaps) (\(f(flapsPerHour) { String(format: "%.1f", $0) }) per hour)
                position error median      \(f(medianPositionError) { String(format: "%.2f m", $0) })
                position error p90         \(f(p90PositionError) { String(format: "%.2f m", $0) }) (\(positionErrors.count) cycles; \(missingPositions) without a position)
                within the 90 % radius     \(f(radiusCoverage) { String(format: "%.1f %%", $0 * 100) }) (\(withinRadius) of \(statedRadius) positions)
                """
        }
    }

    private struct Stay {
        var beacon: BeaconID?
        var from: Timestamp
        var to: Timestamp
        var room: String
    }

    private struct TruePosition {
        var beacon: BeaconID?
        var time: Timestamp
        var x: Double
        var y: Double
        var z: Double
    }

    private struct Presence {
        var beacon: BeaconID
        var time: Timestamp
        var room: String?
        var position: (x: Double, y: Double, z: Double)?
        var radius90: Double?
    }

    /// Scores the presence lines at `presencePath` against the truth at `truthPath`.
    /// - Parameters:
    ///   - presencePath: presence lines (`replay --site --presence`).
    ///   - truthPath: stays or positions (see the type's summary).
    ///   - tolerance: how far from a presence line's time a true position may be (default 0.5 s).
    public static func score(presence presencePath: String, truth truthPath: String, tolerance: Duration = .milliseconds(500))
        throws
        -> Report
    {
        var stays: [Stay] = []
        var positions: [TruePosition] = []
        try Scoring.forEachObject(path: truthPath) { line, object in
            if let type = object["type"] as? String, type != "stay", type != "position" { return }
            let identity = object["id"] ?? object["beacon"]
            let beacon = try identity.map { try Scoring.beaconID($0, file: truthPath, line: line) }
            if let room = object["room"] as? String, let from = (object["from"] as? String).flatMap(Timestamp.init(rfc3339:)),
                let to = (object["to"] as? String).flatMap(Timestamp.init(rfc3339:))
            {
                stays.append(Stay(beacon: beacon, from: from, to: to, room: room))
            } else if let time = (object["time"] as? String).flatMap(Timestamp.init(rfc3339:)),
                let x = object["x"] as? Double, let y = object["y"] as? Double
            {
                positions.append(TruePosition(beacon: beacon, time: time, x: x, y: y, z: object["z"] as? Double ?? 0))
            } else {
                throw ScoringError.badLine(
                    file: truthPath, line: line,
                    problem: "a truth line is a stay {\"from\", \"to\", \"room\"} or a position {\"time\", \"x\", \"y\", \"z\"}")
            }
        }
        var presence: [Presence] = []
        try Scoring.forEachObject(path: presencePath) { line, object in
            if object["calibration"] != nil { return } // the hub's model, not a beacon
            guard let time = (object["time"] as? String).flatMap(Timestamp.init(rfc3339:)) else {
                throw ScoringError.badLine(file: presencePath, line: line, problem: "missing or invalid \"time\"")
            }
            let beacon = try Scoring.beaconID(object["beacon"], file: presencePath, line: line)
            var position: (Double, Double, Double)?
            var radius: Double?
            if let p = object["position"] as? [String: Any], let x = p["x"] as? Double, let y = p["y"] as? Double {
                position = (x, y, p["z"] as? Double ?? 0)
                radius = p["radius90"] as? Double
            }
            presence.append(
                Presence(beacon: beacon, time: time, room: object["room"] as? String, position: position, radius90: radius))
        }
        // Per beacon (`nil`: lines for every beacon), in time order.
        let positionsByBeacon = Dictionary(grouping: positions, by: \.beacon).mapValues { $0.sorted { $0.time < $1.time } }
        let staysByBeacon = Dictionary(grouping: stays.indices, by: { stays[$0].beacon })
        var report = Report()
        report.staySeconds = stays.reduce(0) { $0 + ($1.to - $1.from).secondsValue }
        var previousInStay: [BeaconID: (stay: Int, room: String?)] = [:]
        for line in presence {
            let candidates = staysByBeacon[line.beacon] ?? staysByBeacon[nil] ?? []
            if let s = candidates.first(where: { stays[$0].from <= line.time && line.time <= stays[$0].to }) {
                report.roomSamples += 1
                if line.room == stays[s].room { report.roomRight += 1 }
                if line.room == nil || line.room == "unknown" { report.unknownRoomSamples += 1 }
                if let previous = previousInStay[line.beacon], previous.stay == s, previous.room != line.room,
                    line.room != stays[s].room
                {
                    report.flaps += 1
                }
                previousInStay[line.beacon] = (s, line.room)
            } else {
                previousInStay[line.beacon] = nil
            }
            guard let samples = positionsByBeacon[line.beacon] ?? positionsByBeacon[nil],
                let truth = truePosition(samples, at: line.time, tolerance: tolerance)
            else { continue }
            guard let estimate = line.position else {
                report.missingPositions += 1
                continue
            }
            let dx = estimate.x - truth.x
            let dy = estimate.y - truth.y
            let dz = estimate.z - truth.z
            report.positionErrors.append((dx * dx + dy * dy + dz * dz).squareRoot())
            if let radius = line.radius90 {
                report.statedRadius += 1
                if (dx * dx + dy * dy).squareRoot() <= radius { report.withinRadius += 1 }
            }
        }
        return report
    }

    /// The true position at `time` among one beacon's samples (in time order): interpolated
    /// between the samples either side when both are within `tolerance`, else the nearer one
    /// within it.
    private static func truePosition(_ positions: [TruePosition], at time: Timestamp, tolerance: Duration)
        -> TruePosition?
    {
        // Binary search for the first sample at or after `time`.
        var low = 0
        var high = positions.count
        while low < high {
            let mid = (low + high) / 2
            if positions[mid].time < time { low = mid + 1 } else { high = mid }
        }
        let limit = tolerance.secondsValue
        func near(_ index: Int) -> TruePosition? {
            guard positions.indices.contains(index), abs((positions[index].time - time).secondsValue) <= limit
            else { return nil }
            return positions[index]
        }
        switch (near(low - 1), near(low)) {
        case (let before?, let after?):
            let span = (after.time - before.time).secondsValue
            let f = span > 0 ? (time - before.time).secondsValue / span : 0
            return TruePosition(
                beacon: before.beacon, time: time, x: before.x + f * (after.x - before.x), y: before.y + f * (after.y - before.y),
                z: before.z + f * (after.z - before.z))
        case (let only?, nil), (nil, let only?):
            return only
        case (nil, nil):
            return nil
        }
    }
}
