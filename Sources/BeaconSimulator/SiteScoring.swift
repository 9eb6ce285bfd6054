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
        /// Presence lines inside a true stay whose room is `unknown`.
        public var unknownSamples = 0
        /// Presence lines inside a stay with a known room, by the room's confidence: ≥ 0.9,
        /// 0.7–0.9, 0.5–0.7 and below 0.5 (lines without a confidence count as 1): how many, and
        /// how many had the right room.
        public var confidenceBins: [ConfidenceBin] = [0.9, 0.7, 0.5, 0].map { ConfidenceBin(lower: $0) }
        /// Presence lines inside a stay whose room has a floor in the truth, with a known room.
        public var floorSamples = 0
        /// Of those, with the right floor.
        public var floorRight = 0
        /// Changes of floor in the presence lines (between known floors, per beacon).
        public var floorChanges = 0
        /// Changes of floor between consecutive stays of a beacon in the truth (as walked).
        public var trueFloorChanges = 0

        /// The share of stay time with the room unknown (0–1).
        public var unknownShare: Double? { roomSamples > 0 ? Double(unknownSamples) / Double(roomSamples) : nil }
        /// The share of stay time with the right floor (0–1), if the truth names floors.
        public var floorAccuracy: Double? { floorSamples > 0 ? Double(floorRight) / Double(floorSamples) : nil }
        /// Positions that stated a 90 % radius (`radius90`), and those whose horizontal error
        /// was within it.
        public var statedRadius = 0
        /// See ``statedRadius``.
        public var withinRadius = 0

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
            let bins = confidenceBins.enumerated().map { i, bin in
                let range =
                    i == 0 ? "≥ 0.9" : i == confidenceBins.count - 1 ? "< 0.5" : "\(bin.lower)–\(confidenceBins[i - 1].lower)"
                let share = bin.samples > 0 ? String(format: "%.1f %%", Double(bin.right) / Double(bin.samples) * 100) : "n/a"
                return "\(range): \(share) of \(bin.samples)"
            }
            var lines = """
                room right while staying   \(f(roomAccuracy) { String(format: "%.1f %%", $0 * 100) }) (\(roomRight) of \(roomSamples) cycles in \(String(format: "%.0f", staySeconds)) s of stays)
                room unknown while staying \(f(unknownShare) { String(format: "%.1f %%", $0 * 100) }) (\(unknownSamples) cycles)
                room right by confidence   \(bins.joined(separator: ", "))
                room flaps within stays    \(flaps) (\(f(flapsPerHour) { String(format: "%.1f", $0) }) per hour)
                position error median      \(f(medianPositionError) { String(format: "%.2f m", $0) })
                position error p90         \(f(p90PositionError) { String(format: "%.2f m", $0) }) (\(positionErrors.count) cycles; \(missingPositions) without a position)
                within the 90 % radius     \(f(radiusCoverage) { String(format: "%.1f %%", $0 * 100) }) (\(withinRadius) of \(statedRadius) positions)
                """
            if floorSamples > 0 {
                lines += """

                    floor right while staying  \(f(floorAccuracy) { String(format: "%.1f %%", $0 * 100) }) (\(floorRight) of \(floorSamples) cycles)
                    floor changes              \(floorChanges) (walked: \(trueFloorChanges))
                    """
            }
            return lines
        }
    }

    /// Presence lines whose room confidence is at least ``lower`` (and below the previous bin's).
    public struct ConfidenceBin: Hashable, Sendable {
        /// The bin's lower bound.
        public var lower: Double
        /// Lines in the bin.
        public var samples = 0
        /// Of those, with the right room.
        public var right = 0
    }

    private struct Stay {
        var beacon: BeaconID?
        var from: Timestamp
        var to: Timestamp
        var room: String
        var floor: String?
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
        var confidence: Double?
        var floor: String?
        var position: (x: Double, y: Double, z: Double)?
        var radius90: Double?
    }

    /// What presence lines say for a room the hub cannot tell.
    static let unknownRoom = "unknown"

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
                stays.append(Stay(beacon: beacon, from: from, to: to, room: room, floor: object["floor"] as? String))
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
                Presence(
                    beacon: beacon, time: time, room: object["room"] as? String, confidence: object["confidence"] as? Double,
                    floor: object["floor"] as? String, position: position, radius90: radius))
        }
        // Per beacon (`nil`: lines for every beacon), in time order.
        let positionsByBeacon = Dictionary(grouping: positions, by: \.beacon).mapValues { $0.sorted { $0.time < $1.time } }
        let staysByBeacon = Dictionary(grouping: stays.indices, by: { stays[$0].beacon })
        var report = Report()
        report.staySeconds = stays.reduce(0) { $0 + ($1.to - $1.from).secondsValue }
        for (_, indices) in staysByBeacon {
            let ordered = indices.sorted { stays[$0].from < stays[$1].from }
            for (a, b) in zip(ordered, ordered.dropFirst()) where stays[a].floor != stays[b].floor {
                report.trueFloorChanges += 1
            }
        }
        var previousInStay: [BeaconID: (stay: Int, room: String?)] = [:]
        var previousFloor: [BeaconID: String] = [:]
        for line in presence {
            let unknown = line.room == unknownRoom
            if !unknown, let floor = line.floor {
                if let previous = previousFloor[line.beacon], previous != floor { report.floorChanges += 1 }
                previousFloor[line.beacon] = floor
            }
            let candidates = staysByBeacon[line.beacon] ?? staysByBeacon[nil] ?? []
            if let s = candidates.first(where: { stays[$0].from <= line.time && line.time <= stays[$0].to }) {
                report.roomSamples += 1
                let right = line.room == stays[s].room
                if right { report.roomRight += 1 }
                if unknown {
                    report.unknownSamples += 1
                } else {
                    let c = line.confidence ?? 1
                    let bin = report.confidenceBins.firstIndex { c >= $0.lower } ?? report.confidenceBins.count - 1
                    report.confidenceBins[bin].samples += 1
                    if right { report.confidenceBins[bin].right += 1 }
                    if stays[s].floor != nil {
                        report.floorSamples += 1
                        if line.floor == stays[s].floor { report.floorRight += 1 }
                    }
                }
                // A change to unknown is no flap (the hub said it could not tell); a change from
                // the last known room to another that is not the stay's is.
                if !unknown {
                    if let previous = previousInStay[line.beacon], previous.stay == s, previous.room != line.room,
                        line.room != stays[s].room
                    {
                        report.flaps += 1
                    }
                    previousInStay[line.beacon] = (s, line.room)
                }
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
