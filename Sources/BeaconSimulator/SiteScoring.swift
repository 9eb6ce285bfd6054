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
        var smoothed: (time: Timestamp, x: Double, y: Double, z: Double, radius90: Double?)?
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
            var smoothed: (Timestamp, Double, Double, Double, Double?)?
            if let p = object["smoothed"] as? [String: Any], let x = p["x"] as? Double, let y = p["y"] as? Double,
                let at = (p["time"] as? String).flatMap(Timestamp.init(rfc3339:))
            {
                smoothed = (at, x, y, p["z"] as? Double ?? 0, p["radius90"] as? Double)
            }
            presence.append(
                Presence(
                    beacon: beacon, time: time, room: object["room"] as? String, confidence: object["confidence"] as? Double,
                    floor: object["floor"] as? String, position: position, radius90: radius, smoothed: smoothed))
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
            guard let samples = positionsByBeacon[line.beacon] ?? positionsByBeacon[nil] else { continue }
            if let smoothed = line.smoothed, let truth = truePosition(samples, at: smoothed.time, tolerance: tolerance) {
                let (error, within) = miss(of: (smoothed.x, smoothed.y, smoothed.z), radius90: smoothed.radius90, truth)
                report.smoothedErrors.append(error)
                if let within {
                    report.smoothedStatedRadius += 1
                    if within { report.smoothedWithinRadius += 1 }
                }
            }
            guard let truth = truePosition(samples, at: line.time, tolerance: tolerance) else { continue }
            guard let estimate = line.position else {
                report.missingPositions += 1
                continue
            }
            let (error, within) = miss(of: estimate, radius90: line.radius90, truth)
            report.positionErrors.append(error)
            if let within {
                report.statedRadius += 1
                if within { report.withinRadius += 1 }
            }
        }
        return report
    }

    /// How far `estimate` is from `truth` (3-D, metres), and whether its horizontal error is
    /// within `radius90` (`nil`: no radius stated).
    private static func miss(
        of estimate: (x: Double, y: Double, z: Double), radius90: Double?, _ truth: TruePosition
    ) -> (error: Double, within: Bool?) {
        let dx = estimate.x - truth.x
        let dy = estimate.y - truth.y
        let dz = estimate.z - truth.z
        return ((dx * dx + dy * dy + dz * dz).squareRoot(), radius90.map { (dx * dx + dy * dy).squareRoot() <= $0 })
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
